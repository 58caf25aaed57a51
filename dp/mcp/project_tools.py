"""``project_recipe`` (seed 000), ``run_script`` (seed 002) and ``tasks``: dp's runners as tools.

Detection, resolution and execution are the CLI's own (``dp run``,
``dp script``, ``dp tasks``): the directory checks and the checked
``Command`` come from ``dp.project.task``, like theirs; this module maps arguments in and the seeds'
result shapes and error messages out. Where seed 000 would fall back to "the
first detected runner" for an unknown op, dp refuses instead (the tool's
description says so): the fallback would run whatever word the agent typed.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from dp.errors import DpError
from dp.mcp.job import OUTPUT_LIMIT, InvalidParams, Job, ToolRefusal, bounded
from dp.process import DEFAULT_TIMEOUT, MAX_TIMEOUT


class Context:
    """What every tool call knows: the project root the server started in, and its options."""

    def __init__(self, root: Path, allow_agent_steps: bool = False):
        self.root = Path(root).resolve()
        self.allow_agent_steps = allow_agent_steps


def run_planned(command, job: Job, timeout: float):
    """Run a planned ``dp.project.command.Command`` for a tool: bounded, cancellable, reporting."""
    job.total = timeout
    return command.run(
        echo=False, timeout=timeout, capture_limit=OUTPUT_LIMIT, cancel=job.cancel, on_output=job.output
    )


def optional_string(args: dict, name: str) -> str | None:
    value = args.get(name)
    if value is not None and not isinstance(value, str):
        raise InvalidParams(f"{name} must be a string")
    return value or None


# --- project_recipe ----------------------------------------------------------------


def project_recipe(args: dict, context: Context, job: Job) -> dict:
    from dp.project.task import task_command, task_directory
    from dp.runners import detect, resolve
    from dp.runners.registry import NoProjectFound

    op = args.get("op")
    if not isinstance(op, str) or not op.strip():
        raise InvalidParams('op must be a non-empty string naming a task, e.g. "test" or "build --release"')
    try:
        directory = task_directory(context.root, optional_string(args, "cwd"), label="cwd")
    except DpError as exc:
        raise InvalidParams(exc.message) from None
    try:
        project = detect(directory)
    except NoProjectFound as exc:
        raise InvalidParams(f"No project runners detected in this directory. ({exc.message})") from None
    except DpError as exc:  # only broken project files there
        raise InvalidParams(f"No project runners detected in this directory: {exc.message}") from None
    try:
        resolved = resolve(project, op)
    except DpError as exc:  # an unknown task: refused, never guessed
        raise InvalidParams(exc.message) from None
    try:
        command = task_command(resolved)
    except DpError as exc:  # a project found above cwd, in a directory dp may not act in
        raise ToolRefusal(exc.message) from None
    try:
        result = run_planned(command, job, DEFAULT_TIMEOUT)
    except DpError as exc:
        raise ToolRefusal(f"shell_spawn_failed: {exc.message}") from None
    return {
        "runner": resolved.runner.name,
        "command": shlex.join(resolved.argv),
        "stdout": bounded(result),
        "stderr": "",
        "exit_code": result.exit_code,
        "timed_out": result.timed_out,
        "available_tasks": project.available_tasks(),
    }


# --- run_script --------------------------------------------------------------------


def run_script(args: dict, context: Context, job: Job) -> tuple[str, dict]:
    """Seed 002, its errors in its order of precedence, its ``exit: N`` output."""
    from dp.project.task import task_command, task_directory
    from dp.runners.resolution import resolve_script

    root = context.root
    try:
        task_directory(root, None)
    except DpError as exc:
        raise ToolRefusal(f"run_script: {exc.message}") from None
    _require_node_workspace(root)
    name = args.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ToolRefusal("run_script: name is required")
    timeout = script_timeout(args.get("timeout"))
    project = _node_project(root)
    try:
        command = task_command(resolve_script(project, name))
    except DpError as exc:
        raise ToolRefusal(f"run_script: {exc.message}") from None
    try:
        result = run_planned(command, job, timeout)
    except DpError as exc:
        raise ToolRefusal(f"run_script: {exc.message}") from None
    text = bounded(result)
    if text and not text.endswith("\n"):
        text += "\n"
    if result.timed_out:
        text += f"dp: timed out after {timeout:g} s; the script's processes were stopped\n"
    text += f"exit: {result.exit_code}"
    return text, {
        "command": shlex.join(command.argv),
        "timeout": timeout,
        "exit_code": result.exit_code,
        "timed_out": result.timed_out,
        "output": text,
    }


def script_timeout(raw: Any) -> float:
    """Seed 002: default 300 s, values ≤ 0 mean the default, clamped to 1800."""
    if raw is None:
        return float(DEFAULT_TIMEOUT)
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw != raw:
        raise ToolRefusal("run_script: timeout must be a number of seconds")
    if raw <= 0:
        return float(DEFAULT_TIMEOUT)
    return float(min(raw, MAX_TIMEOUT))


def _require_node_workspace(root: Path) -> None:
    """Seed 002's first two refusals: no project at all, or one that is not Node."""
    from dp.runners import detect
    from dp.runners.javascript import LOCKFILES, MANIFEST

    if any((root / name).exists() for name in (MANIFEST, *(lock for lock, _ in LOCKFILES))):
        return
    try:
        project = detect(root)
    except DpError:
        project = None
    if project is None or project.directory != root:
        raise ToolRefusal("no supported project detected in workspace root")
    detected = ", ".join(dict.fromkeys(runner.ecosystem for runner in project.runners))
    raise ToolRefusal(f"run_script: only Node projects support scripts today (detected: {detected})")


def _node_project(root: Path):
    """The project around package.json: seed 002's "not found" and "parsing" refusals."""
    from dp.runners import detect
    from dp.runners.javascript import MANIFEST

    manifest = root / MANIFEST
    try:
        with open(manifest, "rb"):
            pass
    except OSError:
        raise ToolRefusal("run_script: package.json not found in workspace root") from None
    try:
        project = detect(root)
    except DpError as exc:
        raise ToolRefusal(f"run_script: {exc.message}") from None
    if "javascript" in project.problems:
        raise ToolRefusal(f"run_script: {project.problems['javascript']}")
    return project


# --- tasks -------------------------------------------------------------------------


def tasks(args: dict, context: Context, job: Job) -> dict:
    """What ``dp tasks --json`` prints for ``cwd``."""
    from dp.runners import confine, detect

    try:
        return detect(confine(context.root, optional_string(args, "cwd"), label="cwd")).to_json()
    except DpError as exc:
        raise ToolRefusal(exc.message) from None
