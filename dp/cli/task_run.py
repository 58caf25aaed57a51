"""Showing, running and reporting one planned command (dp run, script, make, git).

The four commands keep one contract: ``--dry-run`` prints the exact command
and runs nothing; a real run streams the child's output live (``--json``
captures its tail instead), reports the exit code, the time taken and whether
it timed out, and dp exits with the child's exit code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import typer

from dp.cli.common import note, print_json, warning
from dp.cli.help import DpCommand

# --json output is read by agents: keep only the tail beyond this.
JSON_OUTPUT_LIMIT = 100_000

# A task a person starts runs until it ends (`dp run dev` serves all day); only an explicit --timeout
# stops it. The agents' paths (MCP tools, recipe steps) keep dp.process.DEFAULT_TIMEOUT.
TIMEOUT_OPTION = typer.Option(
    None, "--timeout", metavar="SECONDS", help="Stop it after this long (default: no limit; at most 1800).",
    show_default=False,
)
DRY_RUN_OPTION = typer.Option(
    False, "--dry-run", help="Show the exact command and run nothing (arguments are still checked)."
)


_PASSTHROUGH = "dp.task-args-after-dashdash"


class _TaskCommand(DpCommand):
    """npm's convention for ``dp run`` / ``dp script``.

    dp's own options are recognised wherever they appear before ``--``
    (``dp run deploy --dry-run`` is a dry run); any other word goes to the
    task; ``--`` and everything after it reach the task untouched.
    """

    def parse_args(self, ctx, args):
        import sys

        click = sys.modules[typer.BadParameter.__module__]  # typer's own (vendored) click
        if "--" in args:
            cut = args.index("--")
            ctx.meta[_PASSTHROUGH] = args[cut:]
            args = args[:cut]
        try:
            return super().parse_args(ctx, args)
        except click.MissingParameter:
            if not ctx.meta.get(_PASSTHROUGH):
                raise
            # `dp run -- -f`: the words after -- are arguments, never the task's name.
            raise click.UsageError(
                f"no task name before '--': what follows '--' goes to the task as arguments, so write "
                f"dp {ctx.info_name} NAME -- ARGS (a task name never starts with '-'; nothing was executed)"
            ) from None


def register_task_command(app: typer.Typer, name: str, function, help: str, short_help: str) -> None:
    """Register ``function`` as a task command (see :class:`_TaskCommand`)."""
    app.command(
        name,
        cls=_TaskCommand,
        help=help,
        short_help=short_help,
        context_settings={"ignore_unknown_options": True},
    )(function)


def task_arguments(ctx: typer.Context, args) -> list[str]:
    """The task's arguments: the words dp did not take, then ``--`` and what follows it."""
    return [*(args or []), *ctx.meta.get(_PASSTHROUGH, [])]


def carry_out_task(resolved, project, *, timeout: float | None, dry_run: bool, as_json: bool) -> None:
    """Run a task ``dp.runners.resolve`` chose, saying which runner and why."""
    from dp.project.task import task_command

    others = [
        f'dp: "{resolved.task.name}" is also a {other} task; --runner {other} runs that one'
        for other in resolved.alternatives
    ]
    if not as_json:
        for ecosystem, problem in project.problems.items():  # it might have defined this task
            warning(f"{ecosystem} tasks not read: {problem}")
    carry_out(
        task_command(resolved),
        timeout=timeout,
        dry_run=dry_run,
        as_json=as_json,
        why=resolved.runner.reason,
        details={
            "runner": resolved.runner.name,
            "reason": resolved.runner.reason,
            "available_tasks": project.available_tasks(),
            **({"problems": project.problems} if project.problems else {}),
        },
        notes=others,
    )


def carry_out(
    command,
    *,
    timeout: float | None,
    dry_run: bool,
    as_json: bool,
    why: str | None = None,
    details: dict | None = None,
    notes: Sequence[str] = (),
    failure_hint: Callable[[str], str | None] | None = None,
) -> None:
    """Show (``dry_run``) or run a planned ``dp.project.command.Command`` (once ``checked``).

    ``why`` is said next to the working directory in text mode; ``details``
    are added to the JSON report; ``notes`` go to stderr before a real run;
    ``failure_hint`` turns a failed run's output into one hint line (or None).
    Raises ``typer.Exit`` with the child's exit code when it is not 0.
    """
    from dp.process import find_executable

    command.checked()
    where = f"{command.cwd} ({why})" if why else str(command.cwd)
    if dry_run:
        if as_json:
            print_json({"dry_run": True, **command.to_json(), "timeout": timeout, **(details or {})})
        else:
            note(f"dp: dry run in {where}; nothing was executed. Would run:")
            typer.echo(command.shell_script())
        return
    find_executable(command.argv[0], cwd=command.cwd)  # missing: one error line, no "running" note
    if not as_json:
        note(f"dp: running `{command.shell_line()}` in {where}")
        for line in notes:
            note(line)
    result = command.run(echo=not as_json, timeout=timeout, capture_limit=JSON_OUTPUT_LIMIT)
    hint = failure_hint(result.output) if failure_hint and result.exit_code != 0 else None
    if as_json:
        report = {
            **command.to_json(),
            "timeout": timeout,
            **(details or {}),
            "output": result.output,
            "truncated": result.truncated,
            "exit_code": result.exit_code,
            "timed_out": result.timed_out,
            "duration_ms": result.duration_ms,
        }
        if hint:
            report["hint"] = hint
        print_json(report)
    else:
        if result.timed_out:
            note(f"dp: timed out after {timeout:g} s; stopped `{command.shell_line()}`")
        note(f"dp: exit code {result.exit_code} after {result.duration_ms / 1000:.2f} s")
        if hint:
            note(hint)
    if result.exit_code != 0:
        raise typer.Exit(result.exit_code)
