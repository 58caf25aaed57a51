"""Turning ``dp run OP ARGS…`` into exactly one task's argv, or a refusal.

Only a task the project (or its tool) actually defines is ever run: an
unknown name is refused with a suggestion, never handed to ``uv run`` /
``poetry run`` / ``bun run``, which would execute any program of that name.
Tasks the project defines win over a tool's built-ins (a Makefile's ``test``
over ``cargo test``); otherwise runners count in registry order.
"""

from __future__ import annotations

import difflib
import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dp.errors import DpError
from dp.runners.base import BUILTIN, Runner, Task
from dp.runners.registry import Project

MAX_LISTED_TASKS = 60


@dataclass(repr=False)
class ResolvedTask:
    """The task to run: which runner, the exact argv, and where.

    ``alternatives`` names the other runners that define a task of the same
    name (``--runner`` picks one of them). ``dp.project.task`` turns it into
    the ``Command`` that runs.
    """

    runner: Runner
    task: Task
    argv: list[str]
    cwd: Path
    alternatives: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"ResolvedTask({self.runner.name}: {shlex.join(self.argv)!r} in {self.cwd})"


def resolve(
    project: Project, op: str, args: Sequence[str] = (), runner: str | None = None
) -> ResolvedTask:
    """The one task ``op`` names (its first word; the rest are arguments)."""
    try:
        words = shlex.split(op)
    except ValueError as exc:
        raise DpError(f"cannot read the task {json.dumps(op)}: {exc}") from None
    runners = project.runners if runner is None else [project.runner(runner)]
    if not words:
        raise DpError(f"no task given; available: {describe_available(runners)}")
    name, extra = words[0], [*words[1:], *args]
    refuse_option_like(name, "task")
    matches = [(owner, task) for owner in runners if (task := owner.task(name)) is not None]
    matches.sort(key=lambda match: match[1].origin == BUILTIN)  # stable: keeps runner order
    if not matches:
        raise DpError(unknown_task_message(name, runners, scope=runner, problems=project.problems))
    chosen, task = matches[0]
    return ResolvedTask(
        chosen, task, task.command(extra), chosen.root, [other.name for other, _ in matches[1:]]
    )


def refuse_option_like(name: str, what: str) -> None:
    """A name starting with ``-`` would reach the runner as an option (``npm run -f`` is --force): never run it."""
    if name.startswith("-"):
        raise DpError(
            f"{what} name {json.dumps(name)} starts with '-': the runner would read it as an option, "
            f"so dp never runs it (nothing was executed); rename the {what}"
        )


def unknown_task_message(
    name: str, runners: Sequence[Runner], scope: str | None, problems: dict | None = None
) -> str:
    """The refusal of an unknown task: the closest name, what exists, what could not be read."""
    where = f"for runner {scope}" if scope else "in this project"
    names = sorted({task.name for runner in runners for task in runner.tasks})
    message = f"no task {json.dumps(name)} {where}"
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    hint = f"; did you mean {json.dumps(close[0])}?" if close else ";"
    unread = f" (not read: {'; '.join(problems.values())})" if problems else ""
    return f"{message}{hint} available: {describe_available(runners)}{unread}"


def describe_available(runners: Sequence[Runner]) -> str:
    """``npm: build, test; make: all`` — bounded, for one-line errors."""
    parts = []
    budget = MAX_LISTED_TASKS
    cut = False
    for runner in runners:
        names = [task.name for task in runner.tasks]
        shown = names[:budget]
        budget -= len(shown)
        cut = cut or len(shown) < len(names)
        listed = ", ".join(shown) + (", …" if len(shown) < len(names) else "")
        parts.append(f"{runner.name}: {listed or '(none)'}")
    return "; ".join(parts) + (" (all of them: dp tasks)" if cut else "")


def resolve_script(project: Project, name: str, args: Sequence[str] = ()) -> ResolvedTask:
    """``package.json#scripts[name]`` through the project's package manager.

    Only Node projects have scripts; anything else is refused with what was
    detected, so the agent can use ``dp run`` for those tasks instead.
    """
    if not name.strip():
        raise DpError("script name is required: dp script NAME [ARGS…] (dp tasks lists them)")
    refuse_option_like(name, "script")
    node = next((owner for owner in project.runners if owner.ecosystem == "javascript"), None)
    if node is None and "javascript" in project.problems:
        raise DpError(project.problems["javascript"])
    if node is None:
        detected = ", ".join(owner.name for owner in project.runners)
        raise DpError(
            f"package.json not found in {project.directory}: only Node projects support scripts "
            f"(detected: {detected}); run their tasks with dp run"
        )
    task = node.task(name)
    if task is None:
        available = ", ".join(sorted(task.name for task in node.tasks)) or "(none)"
        raise DpError(f"no script named {json.dumps(name)} in package.json; available: {available}")
    return ResolvedTask(node, task, task.command(args), node.root, [])
