"""``dp script``: run a package.json script through the project's package manager."""

from __future__ import annotations

import typer

from dp.cli.options import Shared, shared
from dp.cli.task_run import DRY_RUN_OPTION, TIMEOUT_OPTION, carry_out_task, register_task_command, task_arguments

HELP = """Run a package.json script with the package manager the project uses.

The manager comes from package.json's packageManager (or devEngines.packageManager)
field, else the lockfile (bun, pnpm, yarn, npm in that order), else npm; the script
runs as `<pm> run NAME`, with ARGS forwarded (after `--` for npm). dp's own options are
recognised anywhere before `--`; other words, and everything after `--`, go to the
script. Exits with the script's exit code.

\b
Examples:
  dp script build                    # e.g. pnpm run build
  dp script test --coverage          # npm run test -- --coverage
  dp script lint --dry-run           # show the exact command, run nothing
  dp script lint -- --dry-run        # the script gets --dry-run
  dp script --json test              # output, exit code, timing as JSON
"""


@shared()
def script(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="Script name from package.json."),
    args: list[str] | None = typer.Argument(None, metavar="ARGS", help="Passed to the script as given."),
    timeout: float | None = TIMEOUT_OPTION,
    dry_run: bool = DRY_RUN_OPTION,
    *, opts: Shared,
) -> None:
    from dp.errors import DpError
    from dp.process import check_timeout
    from dp.project.workdir import working_directory
    from dp.runners import detect
    from dp.runners.registry import NoProjectFound
    from dp.runners.resolution import resolve_script

    seconds = check_timeout(timeout)
    directory = working_directory(opts.directory)
    try:
        project = detect(directory)
    except NoProjectFound:
        raise DpError(f"package.json not found in {directory} or its parents") from None
    resolved = resolve_script(project, name, task_arguments(ctx, args))
    carry_out_task(resolved, project, timeout=seconds, dry_run=dry_run, as_json=opts.json)


def register(app: typer.Typer) -> None:
    register_task_command(
        app, "script", script, HELP, "Run a package.json script with the project's package manager."
    )
