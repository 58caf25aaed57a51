"""``dp pave-check``: the PreToolUse hook, the same code as the ``pave-check`` script."""

from __future__ import annotations

import typer

HELP = """Claude Code PreToolUse hook: check one tool call read from stdin.

Blocks a tool-name alias (exit 2, the correction on stderr) or prints one JSON
object whose updatedInput is the corrected tool input (exit 0). Every other case,
including bad input and unknown options, exits 0 with no output (fail open).
The standalone `pave-check` script does the same with a faster start.

\b
Options (after the command; unknown ones are ignored):
  --agent NAME                   the agent whose hook JSON this is (default claude)
  --db PATH                      alias store (default: --db before the command, $DP_DB, ~/.dp/dp.db)
  --permission none|ask|allow    add a permissionDecision to rewrites (default none)
  --mode rewrite|advise          advise: deny with the corrected command instead of rewriting

\b
Examples:
  echo '{"tool_name":"read_file","tool_input":{}}' | dp pave-check
  echo '{"tool_name":"Bash","tool_input":{"command":"grep -r x ."}}' | dp pave-check --mode advise
"""


def pave_check(ctx: typer.Context) -> None:
    from dp.cli.options import current
    from dp.hook import main

    args = list(ctx.args)
    root_db = current(ctx).db
    if root_db and not any(arg == "--db" or arg.startswith("--db=") for arg in args):
        args = ["--db", str(root_db), *args]
    status = main(args)
    if status:
        raise typer.Exit(status)


def register(app: typer.Typer) -> None:
    app.command(
        "pave-check",
        help=HELP,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )(pave_check)
