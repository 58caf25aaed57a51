"""``project_actions`` (seed 003): ``.PHONY`` targets, guarded git, starter Makefiles.

Every check is ``dp make`` / ``dp git``'s own (``dp.project``): the working
directory stays inside the project (the check ``project_recipe``'s and
``tasks``' ``cwd`` go through), is never ``/`` or a system directory and must
be the caller's and writable; target names are ``[A-Za-z0-9_-]+``; paths are confined to the
directory; the commit message goes to ``git commit --file=-`` on stdin within
the size limit. The seed adds one rule of its own here: only ``.PHONY``
targets run (a file target is something make builds, not an action).
"""

from __future__ import annotations

from pathlib import Path

from dp.errors import DpError
from dp.mcp.job import Job, ToolRefusal, bounded
from dp.mcp.project_tools import Context, optional_string, run_planned
from dp.process import DEFAULT_TIMEOUT

ACTIONS = ("list", "run", "add", "commit", "generate")


def project_actions(args: dict, context: Context, job: Job) -> dict:
    action = args.get("action")
    if action not in ACTIONS:
        raise ToolRefusal(f"action must be one of {', '.join(ACTIONS)}")
    dry_run = bool(args.get("dry_run"))
    try:
        directory = _directory(context, optional_string(args, "working_directory"))
        if action == "list":
            return {"working_directory": str(directory), "targets": phony_targets(directory)}
        if action == "generate":
            return _generate(directory, args.get("language"), dry_run)
        command = _plan(action, directory, args)
    except DpError as exc:
        raise ToolRefusal(exc.message) from None
    report = {"working_directory": str(directory), "command": command.shell_line()}
    if dry_run:
        return {**report, "dry_run": True, "would_run": command.shell_script()}
    try:
        result = run_planned(command, job, DEFAULT_TIMEOUT)
    except DpError as exc:
        raise ToolRefusal(exc.message) from None
    report.update(
        exit_code=result.exit_code,
        output=bounded(result),
        timed_out=result.timed_out,
        duration_ms=result.duration_ms,
    )
    if result.exit_code != 0:
        hint = _failure_hint(action, directory, args.get("target"), result.output)
        if hint:
            report["hint"] = hint
    return report


def _directory(context: Context, requested) -> Path:
    """The directory the action runs in: ``requested`` held inside the project by the check every
    MCP path goes through (``dp.project.task.task_directory``: symlinks resolved, ``..``, an
    absolute path elsewhere and ``~`` refused), so ``make`` and ``git`` never act in another tree."""
    from dp.project.task import task_directory

    return task_directory(context.root, requested, label="working_directory")


def phony_targets(directory: Path) -> list[dict]:
    """The Makefile's ``.PHONY`` targets dp will run, with their ``##`` descriptions."""
    from dp.project.make import make_targets, runnable

    _, targets = make_targets(directory)
    return [
        {"name": task.name, "description": task.description}
        for task in sorted(targets, key=lambda task: task.name)
        if task.kind == "phony target" and runnable(task.name)
    ]


def _plan(action: str, directory: Path, args: dict):
    from dp.project import git
    from dp.project.make import check_target, make_command

    if action == "run":
        target = args.get("target")
        if not isinstance(target, str) or not target:
            raise ToolRefusal("run needs target: one of the Makefile's .PHONY targets (action list shows them)")
        check_target(target)
        phony = [entry["name"] for entry in phony_targets(directory)]
        if target not in phony:
            raise DpError(
                f'"{target}" is not a .PHONY target of the Makefile in {directory}; '
                f"its .PHONY targets: {', '.join(phony) or '(none)'}"
            )
        return make_command(directory, target)
    if action == "add":
        paths = args.get("paths")
        if not isinstance(paths, list) or not all(isinstance(path, str) for path in paths):
            raise ToolRefusal("add needs paths: a list of paths relative to the working directory")
        return git.add_command(directory, paths)
    message = args.get("message")
    if not isinstance(message, str) or not message.strip():
        raise ToolRefusal("commit needs message: the commit message (it may span several lines)")
    data = message.encode("utf-8")
    limit = git.max_commit_size()
    if len(data) > limit:
        raise DpError(
            f"the commit message is {len(data)} bytes, over the {limit}-byte limit; shorten it "
            f"(the user can raise the limit with {git.MAX_COMMIT_SIZE_ENV}=BYTES)"
        )
    return git.commit_command(directory, data)


def _generate(directory: Path, language, dry_run: bool) -> dict:
    from dp.project.makefiles import LANGUAGES, TEMPLATES, makefile_destination, render_makefile, write_makefile

    if language not in LANGUAGES:
        raise ToolRefusal(
            f"generate needs language, exactly one of {', '.join(LANGUAGES)}: decide from the "
            "project's files (pyproject.toml → python, Cargo.toml → rust, go.mod → go, "
            "package.json → nodejs), or write a Makefile yourself"
        )
    content = render_makefile(language)
    destination = makefile_destination(directory, force=False)
    report = {
        "working_directory": str(directory),
        "path": str(destination),
        "language": language,
        "targets": list(TEMPLATES[language]),
    }
    if dry_run:
        return {**report, "dry_run": True, "content": content}
    write_makefile(destination, content, force=False)
    return report


def _failure_hint(action: str, directory: Path, target, output: str):
    if action == "run":
        from dp.project.make import unknown_target_hint

        return unknown_target_hint(directory, target, output)
    from dp.project.git import failure_hint

    return failure_hint(directory, output, option="working_directory")
