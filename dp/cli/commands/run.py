"""``dp run``: run one of the project's own tasks by name."""

from __future__ import annotations

import typer

from dp.cli.options import Shared, shared
from dp.cli.task_run import DRY_RUN_OPTION, TIMEOUT_OPTION, carry_out_task, register_task_command, task_arguments

HELP = """Run a task of this project with the tool the project uses.

TASK names a task from `dp tasks` (its first word; the rest goes to the task). dp's own
options are recognised anywhere before `--`; every other word goes to the task, and so
does everything after `--`, untouched. Unknown names are refused with a suggestion,
never guessed; the task list is the tool's own (make, just and Task list their files, as
`dp tasks` says). Output streams live; dp exits with the task's exit code. A task you
start runs until it ends (a dev server too); with --timeout it is stopped after that long
(exit 124: SIGTERM to the task's processes, 5 s grace, then SIGKILL).

\b
Examples:
  dp run test                        # e.g. pnpm run test, cargo test, make test
  dp run test --watch                # --watch goes to the task (npm: -- --watch)
  dp run deploy --dry-run            # dp's option: show the command, run nothing
  dp run deploy -- --dry-run         # after --: deploy gets --dry-run
  dp run test -- --nocapture         # cargo test -- --nocapture (-- kept where it matters)
  dp run --runner make lint          # pick the runner when several define it
  dp run --cwd packages/web build    # a sub-project, inside this repository
  dp run --dry-run build             # show the exact command, run nothing
  dp run --json --timeout 600 test   # output, exit code, timing as JSON
"""

@shared()
def run(
    ctx: typer.Context,
    task: str = typer.Argument(..., metavar="TASK", help="Task name (see dp tasks)."),
    args: list[str] | None = typer.Argument(None, metavar="ARGS", help="Passed to the task as given."),
    runner: str | None = typer.Option(
        None, "--runner", metavar="NAME", help="Only this runner's tasks (npm, cargo, make, …)."
    ),
    timeout: float | None = TIMEOUT_OPTION,
    dry_run: bool = DRY_RUN_OPTION,
    *, opts: Shared,
) -> None:
    from dp.process import check_timeout
    from dp.project.workdir import working_directory
    from dp.runners import detect, resolve
    from dp.runners.base import tools_asked

    seconds = check_timeout(timeout)
    with tools_asked():  # a person asked to run a task: its tool may list its own file
        project = detect(working_directory(opts.directory))
    resolved = resolve(project, task, task_arguments(ctx, args), runner=runner)
    carry_out_task(resolved, project, timeout=seconds, dry_run=dry_run, as_json=opts.json)


def register(app: typer.Typer) -> None:
    register_task_command(
        app, "run", run, HELP, "Run a project task (npm/pnpm/yarn/bun, cargo, pdm/poetry/uv, make, just, task)."
    )
