"""Showing, running and reporting one resolved project task (dp run, dp script)."""

from __future__ import annotations

import shlex

import typer

from dp.cli.common import note, print_json

# --json output is read by agents: keep only the tail beyond this.
JSON_OUTPUT_LIMIT = 100_000


def register_task_command(app: typer.Typer, name: str, function, help: str, short_help: str) -> None:
    """Register ``function`` so that everything after its first argument is the task's.

    Without interspersed options, ``dp run test --watch`` hands ``--watch`` to
    the task instead of rejecting it as an unknown dp option.
    """
    app.command(
        name,
        help=help,
        short_help=short_help,
        context_settings={"allow_interspersed_args": False},
    )(function)


def task_arguments(args) -> list[str]:
    """The task's arguments: ``dp run test -- --watch`` means ``dp run test --watch``."""
    args = list(args or [])
    return args[1:] if args[:1] == ["--"] else args


def carry_out(resolved, project, *, timeout: float, dry_run: bool, as_json: bool) -> None:
    """Run ``resolved`` (or show it with ``dry_run``); exit with the task's exit code."""
    from dp.process import find_executable, run_process

    command = shlex.join(resolved.argv)
    report = {
        "runner": resolved.runner.name,
        "reason": resolved.runner.reason,
        "command": command,
        "argv": resolved.argv,
        "cwd": str(resolved.cwd),
    }
    if dry_run:
        if as_json:
            print_json({"dry_run": True, **report, "available_tasks": project.available_tasks()})
        else:
            note(f"dp: dry run in {resolved.cwd} ({resolved.runner.reason}); would run:")
            typer.echo(command)
        return
    find_executable(resolved.argv[0], cwd=resolved.cwd)
    if not as_json:
        note(f"dp: running `{command}` in {resolved.cwd} ({resolved.runner.reason})")
        for other in resolved.alternatives:
            note(f'dp: "{resolved.task.name}" is also a {other} task; --runner {other} runs that one')
    result = run_process(
        resolved.argv,
        cwd=resolved.cwd,
        timeout=timeout,
        echo=not as_json,
        capture_limit=JSON_OUTPUT_LIMIT if as_json else 0,
    )
    if as_json:
        print_json(
            {
                **report,
                "output": result.output,
                "truncated": result.truncated,
                "exit_code": result.exit_code,
                "timed_out": result.timed_out,
                "duration_ms": result.duration_ms,
                "available_tasks": project.available_tasks(),
            }
        )
    elif result.timed_out:
        note(f"dp: timed out after {timeout:g} s; stopped `{command}` (exit code {result.exit_code})")
    else:
        note(f"dp: exit code {result.exit_code} after {result.duration_ms / 1000:.2f} s")
    if result.exit_code != 0:
        raise typer.Exit(result.exit_code)
