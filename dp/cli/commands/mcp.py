"""``dp mcp``: serve dp's project tools to coding agents over MCP (stdio)."""

from __future__ import annotations

import typer

from dp.cli.options import Shared, shared

HELP = """Serve dp's project tools over MCP on stdin/stdout (for Claude Code, Codex, Gemini CLI…).

Tools: project_recipe (run a task by name), run_script (a package.json script),
project_actions (.PHONY make targets, guarded git add/commit, starter Makefiles),
recipe (list/validate/run YAML recipes) and tasks (what the project can run).
They run exactly like dp run/script/make/git/recipe: same checks, timeouts and
process-tree kill; a cancelled call stops its processes. The project is the
directory the client starts the server in. Register it with `dp pave --mcp`.

\b
Examples:
  dp pave --mcp --scope project       # .mcp.json: Claude Code starts `dp mcp` itself
  dp mcp                              # serve (the client runs this)
  dp mcp --allow-agent-steps          # also run recipes' agent steps (claude -p)
"""


@shared()
def mcp(
    allow_agent_steps: bool = typer.Option(
        False, "--allow-agent-steps", help="Let the recipe tool run agent steps (they start another agent)."
    ),
    *, opts: Shared,
) -> None:
    from dp.errors import DpError

    try:
        from dp.mcp.server import serve
    except ImportError as exc:  # a broken install: dp depends on mcp
        raise DpError(f"the MCP SDK cannot be imported ({exc}); reinstall dp (pip install 'mcp>=2.3')") from None
    serve(opts.directory, allow_agent_steps)


def register(app: typer.Typer) -> None:
    app.command("mcp", help=HELP, short_help="Serve the project tools to agents over MCP (stdio).")(mcp)
