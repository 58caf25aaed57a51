"""``dp paving``: project paving on or off, and what it does in this directory."""

from __future__ import annotations

from typing import Optional

import typer

from dp.cli.common import JSON_OPTION, db_path, print_json

HELP = """Project paving: the hook runs the agent's npm/yarn/pnpm/bun, Python-tool and task
commands with the project's own tools. On by default.

\b
dp paving                      what paving does in this directory, per ecosystem
dp paving off                  off for every project
dp paving on                   on again (projects switched off stay off)
dp paving off --project        off for this repository only (its root, or --cwd)
dp paving on --project         on again for this repository
"""


def paving(
    ctx: typer.Context,
    state: Optional[str] = typer.Argument(None, metavar="[on|off]", help="Switch paving on or off."),
    project: bool = typer.Option(False, "--project", help="Only for this repository (its root directory)."),
    cwd: Optional[str] = typer.Option(None, "--cwd", metavar="DIR", help="Directory to look at (default: here)."),
    json_output: bool = JSON_OPTION,
) -> None:
    import os

    from dp.errors import DpError
    from dp.paving import report

    if state not in (None, "on", "off"):
        raise DpError(f"expected on or off, got {state!r}: dp paving [on|off] [--project]")
    if project and state is None:
        raise DpError("--project needs on or off: dp paving off --project")
    directory = os.path.abspath(cwd or os.getcwd())
    if not os.path.isdir(directory):
        raise DpError(f"--cwd {cwd}: no such directory")
    dp_dir = str(db_path(ctx).parent)
    if state is not None:
        target = report.project_directory(directory) if project else None
        report.set_switch(dp_dir, state == "on", target)
        where = f"for {target}" if target else "for every project"
        if json_output:
            print_json({"paving": state, "project": target})
        else:
            typer.echo(f"Project paving is {state} {where}.")
        return
    result = report.explain(dp_dir, directory)
    if json_output:
        print_json(result)
        return
    typer.echo(f"Project paving: {'on' if result['enabled'] else 'off — ' + result['why_off']}")
    for entry in result["ecosystems"]:
        typer.echo(f"{entry['status']:<9} {entry['ecosystem']:<10} {entry['message']}")
        for agent, runs in entry["rules"]:
            typer.echo(f"{'':20} {agent}  →  {runs}")
    if not result["ecosystems"]:
        typer.echo("No JavaScript, Python or task runner project here: nothing to pave.")


def register(app: typer.Typer) -> None:
    app.command("paving", help=HELP, short_help="Project paving on/off, and what it does here.")(paving)
