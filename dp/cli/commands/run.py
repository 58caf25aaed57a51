"""``dp run``: run one of the project's own tasks by name."""

from __future__ import annotations

from typing import List, Optional

import typer

from dp.cli.common import JSON_OPTION
from dp.cli.task_run import DRY_RUN_OPTION, TIMEOUT_OPTION, carry_out_task, register_task_command

HELP = """Run a task of this project with the tool the project uses.

OP names a task from `dp tasks` (its first word; the rest, and everything after OP,
goes to the task). dp's own options come before OP. Unknown names are refused with a
suggestion, never guessed. Output streams live; dp exits with the task's exit code
(124 when it timed out: SIGTERM to the task's processes, 5 s grace, then SIGKILL).

\b
Examples:
  dp run test                        # e.g. pnpm run test, cargo test, make test
  dp run test --watch                # --watch goes to the task (npm: -- --watch)
  dp run test -- --nocapture         # cargo test -- --nocapture (-- kept where it matters)
  dp run --runner make lint          # pick the runner when several define it
  dp run --cwd packages/web build    # a sub-project, inside this repository
  dp run --dry-run build             # show the exact command, run nothing
  dp run --json --timeout 600 test   # output, exit code, timing as JSON
"""

CWD_OPTION = typer.Option(
    None, "--cwd", metavar="DIR", help="Directory inside the project (default: here)."
)


def run(
    op: str = typer.Argument(..., metavar="OP", help="Task name (see dp tasks)."),
    args: Optional[List[str]] = typer.Argument(None, metavar="ARGS", help="Passed to the task as given."),
    cwd: Optional[str] = CWD_OPTION,
    runner: Optional[str] = typer.Option(
        None, "--runner", metavar="NAME", help="Only this runner's tasks (npm, cargo, make, …)."
    ),
    timeout: float = TIMEOUT_OPTION,
    dry_run: bool = DRY_RUN_OPTION,
    json_output: bool = JSON_OPTION,
) -> None:
    from pathlib import Path

    from dp.process import check_timeout
    from dp.runners import confine, detect, resolve

    seconds = check_timeout(timeout)
    project = detect(confine(Path.cwd(), cwd))
    resolved = resolve(project, op, args or [], runner=runner)
    carry_out_task(resolved, project, timeout=seconds, dry_run=dry_run, as_json=json_output)


def register(app: typer.Typer) -> None:
    register_task_command(
        app, "run", run, HELP, "Run a project task (npm/pnpm/yarn/bun, cargo, pdm/poetry/uv, make, just, task)."
    )
