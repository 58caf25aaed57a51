"""``dp tasks``: every runner of this project, why dp chose it, and its tasks."""

from __future__ import annotations

import typer

from dp.cli.common import print_json, warning
from dp.cli.options import Shared, shared

HELP = """List the project's tasks: each detected runner, why it was chosen, its tasks.

Looks from the current directory (or --cwd) up to the repository root for package.json
(npm/pnpm/yarn/bun), Cargo.toml, pyproject.toml (pdm/poetry/uv/poe), Makefile, justfile
and Taskfile.yml. Run a task with `dp run NAME`. Exits 1 when there is no project.

\b
Examples:
  dp tasks
  dp tasks --cwd packages/web
  dp tasks --json | jq '.available_tasks'
"""


@shared("cwd", "json")
def tasks(opts: Shared = None) -> None:
    from pathlib import Path

    from dp.runners import confine, detect

    project = detect(confine(Path.cwd(), opts.cwd))
    if opts.json:
        print_json(project.to_json())
        return
    typer.echo(f"Project {project.root}" + _where(project))
    for runner in project.runners:
        typer.echo(f"\n{runner.name}: {runner.reason}")
        width = max((len(task.name) for task in runner.tasks), default=0)
        kinds = max((len(task.kind) for task in runner.tasks), default=0)
        for task in runner.tasks:
            description = " ".join((task.description or "").split())
            typer.echo(f"  {task.name:<{width}}  {task.kind:<{kinds}}  {description}".rstrip())
        if not runner.tasks:
            typer.echo("  (no tasks)")
    for ecosystem, problem in project.problems.items():
        warning(f"{ecosystem} tasks not read: {problem}")
    typer.echo("\nRun one with: dp run NAME [ARGS…]")


def _where(project) -> str:
    relative = project.directory.relative_to(project.root).as_posix()
    return "" if relative == "." else f" (tasks of {relative}/)"


def register(app: typer.Typer) -> None:
    app.command(
        "tasks", help=HELP, short_help="List the project's runners and tasks, and why each runner."
    )(tasks)
