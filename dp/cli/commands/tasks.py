"""``dp tasks``: every runner of this project, why dp chose it, and its tasks."""

from __future__ import annotations

import typer

from dp.cli.options import Shared, shared

HELP = """List the project's tasks: each detected runner, why it was chosen, its tasks.

Looks from the current directory (or --cwd) up to the repository root for package.json
(npm/pnpm/yarn/bun), Cargo.toml, pyproject.toml (pdm/poetry/uv/poe), Makefile, justfile
and Taskfile.yml. Run a task with `dp run NAME`. Exits 1 when there is no project.

Because you asked, make, just and Task are asked to list their own files when they are
installed (make reads the Makefile as it would to build: `$(shell …)` in it runs). The hook
and the MCP server never do: they read the files, and say what only the tool could tell.

\b
Examples:
  dp tasks
  dp tasks --cwd packages/web
  dp tasks --json | jq '.available_tasks'
"""


@shared()
def tasks(*, opts: Shared) -> None:
    from dp.cli import remembered
    from dp.cli.views import tasks as view

    remembered.run(view.show, opts)


def register(app: typer.Typer) -> None:
    app.command(
        "tasks", help=HELP, short_help="List the project's runners and tasks, and why each runner."
    )(tasks)
