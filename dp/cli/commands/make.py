"""``dp make``: run one Makefile target, list targets, or write a starter Makefile."""

from __future__ import annotations

from pathlib import Path

import typer

from dp.cli.common import note, print_json
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import rehearsed
from dp.cli.task_run import DRY_RUN_OPTION, TIMEOUT_OPTION, carry_out

HELP = """Run a Makefile target as `make TARGET` (nothing else), list targets, or write a Makefile.

TARGET may hold only letters, digits, '-' and '_'; without it, make's default goal runs.
Everything happens in the working directory (--cwd, default: here), which must be a
directory you own and can write, never / or a system directory. Output streams live
and dp exits with make's exit code. --list asks make itself (`make -pRrq`), because you
asked: make reads the Makefile as it would to build, so `$(shell …)` in it runs. The hook
and the MCP server never run make to learn targets; they read the files.

\b
Examples:
  dp make --list                      # the Makefile's targets
  dp make test                        # runs: make test
  dp make lint --dry-run              # show the exact command, run nothing
  dp make test --json --timeout 600   # output, exit code and timing as JSON
  dp make --generate python           # starter Makefile: default fix format lint test
  dp make --generate rust --force     # replace the existing Makefile
"""

@shared()
@rehearsed(own_plan=True)
def make(
    target: str | None = typer.Argument(None, metavar="TARGET", show_default=False, help="The target to run."),
    list_targets: bool = typer.Option(False, "--list", "-l", help="List the Makefile's targets."),
    generate: str | None = typer.Option(
        None, "--generate", metavar="LANGUAGE", help="Write a starter Makefile for python, rust, go or nodejs."
    ),
    force: bool = typer.Option(False, "--force", help="With --generate: replace an existing Makefile."),
    timeout: float | None = TIMEOUT_OPTION,
    dry_run: bool = DRY_RUN_OPTION,
    *, opts: Shared,
) -> None:
    from dp.errors import DpError
    from dp.project.workdir import working_directory

    chosen = {"TARGET": target is not None, "--list": list_targets, "--generate": generate is not None}
    modes = [name for name, used in chosen.items() if used]
    if len(modes) > 1:
        raise DpError(f"{' and '.join(modes)} cannot be combined; use one at a time")
    if force and generate is None:
        raise DpError("--force only applies to --generate (it allows replacing an existing Makefile)")
    directory = working_directory(opts.directory)
    if list_targets:
        _list(directory, opts.json)
    elif generate is not None:
        _generate(directory, generate, force, dry_run, opts.json)
    else:
        from dp.process import check_timeout
        from dp.project.make import make_command, unknown_target_hint

        carry_out(
            make_command(directory, target),
            dry_run=dry_run,
            as_json=opts.json,
            timeout=check_timeout(timeout),
            failure_hint=lambda output: _asked(unknown_target_hint, directory, target, output),
        )


def _asked(function, *args):
    """``function(*args)`` with make allowed to list the Makefile: a person ran ``dp make``."""
    from dp.runners.base import tools_asked

    with tools_asked():
        return function(*args)


def _list(directory: Path, as_json: bool) -> None:
    from dp.project.make import make_targets, runnable

    makefile, unsorted = _asked(make_targets, directory)
    targets = sorted(unsorted, key=lambda task: task.name)
    if as_json:
        print_json(
            {
                "cwd": str(directory),
                "makefile": str(makefile),
                "targets": [
                    {**task.to_json(), "phony": task.kind == "phony target", "runnable": runnable(task.name)}
                    for task in targets
                ],
            }
        )
        return
    shown = [task for task in targets if runnable(task.name)]
    if shown:
        note(f"dp: targets of {makefile} (run one with `dp make TARGET`):")
        width = max(len(task.name) for task in shown)
        for task in shown:
            typer.echo(f"  {task.name:<{width}}  {task.description or ''}".rstrip())
    else:
        note(f"dp: {makefile} has no targets dp make can run")
    if len(shown) < len(targets):
        note(
            f"dp: {len(targets) - len(shown)} more target(s) not listed: dp make runs only "
            "names of letters, digits, '-' and '_'"
        )


def _generate(directory: Path, language: str, force: bool, dry_run: bool, as_json: bool) -> None:
    from dp.project.makefiles import TEMPLATES, makefile_destination, render_makefile, write_makefile

    content = render_makefile(language)
    destination = makefile_destination(directory, force)
    replaces = destination.exists() or destination.is_symlink()
    report: dict = {
        "path": str(destination),
        "language": language,
        "targets": list(TEMPLATES[language]),
        "replaces_existing": replaces,
    }
    if dry_run:
        if as_json:
            print_json({"dry_run": True, **report, "content": content})
        else:
            note(f"dp: dry run; nothing was written. Would {'replace' if replaces else 'create'} {destination}:")
            typer.echo(content, nl=False)
        return
    backup = write_makefile(destination, content, force)
    if backup is not None:
        report["backup"] = str(backup)
    if as_json:
        print_json(report)
    else:
        kept = f"; the previous one is kept as {backup}" if backup is not None else ""
        note(
            f"dp: {'replaced' if replaces else 'wrote'} {destination} "
            f"(targets: {', '.join(report['targets'])}){kept}; run one with `dp make TARGET`"
        )


def register(app: typer.Typer) -> None:
    app.command("make", help=HELP, no_args_is_help=False)(make)
