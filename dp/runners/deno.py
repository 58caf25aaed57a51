"""deno.json / deno.jsonc tasks, run as ``deno task <name>``.

Deno's own configuration file lists tasks as a command string or as an
object with ``command`` and ``description`` (Deno 2). ``deno task`` passes
extra arguments straight to the task, so no separator is needed. A
package.json beside it is the javascript module's business: with a
``deno.lock`` or ``packageManager: deno@…`` its scripts run through
``deno task`` too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dp.errors import DpError
from dp.runners.base import Runner, Task, first_existing, read_jsonc

CONFIG_NAMES = ("deno.json", "deno.jsonc")


def detect(directory: Path, project_root: Path) -> list[Runner]:
    config = first_existing(directory, CONFIG_NAMES)
    if config is None:
        return []
    data = read_jsonc(config)
    if not isinstance(data, dict):
        raise DpError(f"parsing {config.name}: expected a JSON object ({config})")
    tasks_table = data.get("tasks")
    tasks = [
        Task(name, ["deno", "task", name], description=_describe(spec), kind="deno task")
        for name, spec in (tasks_table.items() if isinstance(tasks_table, dict) else ())
        if _describe(spec) is not None
    ]
    return [
        Runner(
            "deno",
            ecosystem="deno",
            reason=f"{config.name} found: tasks run with deno task",
            root=directory,
            tasks=tasks,
        )
    ]


def _describe(spec: Any) -> str | None:
    """A task's description, else its command; None for what is not a task."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, dict):
        for key in ("description", "command"):
            if isinstance(spec.get(key), str):
                return spec[key]
        if isinstance(spec.get("dependencies"), list):
            return "runs " + ", ".join(map(str, spec["dependencies"]))
    return None
