"""``dp paving``: project paving on or off, and what it does in this directory."""

from __future__ import annotations

import typer

from dp.cli.common import print_json, status
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import rehearsed

HELP = """Project paving: the hook runs the agent's npm/yarn/pnpm/bun, Python-tool and task
commands with the project's own tools. On by default.

\b
dp paving                      what paving does in this directory, per ecosystem
dp paving --explain            and what each paving rule does here: in a repository you
                               have not trusted (dp trust) it only swaps package managers
                               you installed; it never runs the repository's own programs
dp paving off                  off for every project
dp paving on                   on again (projects switched off stay off)
dp paving off --project        off for this repository only (its root, or that of --cwd)
dp paving on --project         on again for this repository
"""


@shared()
@rehearsed(own_plan=True)
def paving(
    state: str | None = typer.Argument(None, metavar="[on|off]", help="Switch paving on or off."),
    project: bool = typer.Option(False, "--project", help="Only for this repository (its root directory)."),
    explain: bool = typer.Option(False, "--explain", "--verbose", "-v",
                                 help="Also say what each paving rule does here (trusted repository or not)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="With on or off: say what would be switched; change nothing."),
    *, opts: Shared,
) -> None:
    from dp.errors import DpError
    from dp.paving import report

    if state not in (None, "on", "off"):
        raise DpError(f"expected on or off, got {state!r}: dp paving [on|off] [--project]")
    if (project or dry_run) and state is None:
        option = "--project" if project else "--dry-run"
        raise DpError(f"{option} needs on or off: dp paving off {option}")
    directory = str(opts.directory)
    dp_dir = str(opts.store.parent)
    if state is not None:
        target = report.project_directory(directory) if project else None
        if not dry_run:
            report.set_switch(opts.store, state == "on", target)
        where = f"for {target}" if target else "for every project"
        if opts.json:
            print_json({"paving": state, "project": target, **({"dry_run": True} if dry_run else {})})
        else:
            status(f"Project paving would be {state} {where} (dry run; nothing was changed)." if dry_run else
                   f"Project paving is {state} {where}.")
        return
    from dp.layers.trusting import repository_trusted

    result = report.explain(dp_dir, directory, trust=repository_trusted(opts.store, directory))
    if opts.json:
        print_json(result)
        return
    for line in report.lines(result, explain):
        typer.echo(line)


def register(app: typer.Typer) -> None:
    app.command("paving", help=HELP, short_help="Project paving on/off, and what it does here.")(paving)
