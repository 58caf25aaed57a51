"""The ``# Project Tasks`` section ``dp pave --agents-md --tasks`` writes.

It tells an agent, once, how this project runs things, so it stops guessing
``npm test`` in a pnpm repository.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from dp.runners.base import BUILTIN, Runner
from dp.runners.registry import detect


def tasks_markdown(cwd: Path) -> str:
    """Markdown listing every task of the project around ``cwd``."""
    project = detect(cwd)
    where = project.directory.relative_to(project.root).as_posix()
    lines = [
        "# Project Tasks",
        "",
        "Run a task with `dp run TASK [ARGS…]` (it picks the right tool and refuses unknown "
        "names), or with the command shown. `dp tasks` lists them again.",
    ]
    if where != ".":
        lines += ["", f"Tasks of `{where}/` (run dp there, or pass `--cwd {where}`)."]
    for runner in project.runners:
        lines += ["", f"## {runner.name}", "", f"Chosen because: {runner.reason}.", ""]
        lines += _task_lines(runner)
    for ecosystem, problem in project.problems.items():
        lines += ["", f"Not listed ({ecosystem}): {problem}"]
    return "\n".join(lines) + "\n"


def _task_lines(runner: Runner) -> list[str]:
    defined = [task for task in runner.tasks if task.origin != BUILTIN]
    builtins = [task.name for task in runner.tasks if task.origin == BUILTIN]
    lines = []
    for task in defined:
        line = f"- `{task.name}`: `{shlex.join(task.argv)}`"
        if task.description:
            line += f" — {_one_line(task.description)}"
        lines.append(line)
    if builtins:
        lines.append(f"- built-in: {', '.join(f'`{name}`' for name in builtins)}")
    return lines or ["- (no tasks)"]


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= 120 else flat[:119] + "…"
