"""Taskfile tasks, from ``task --list-all --json`` when Task is installed.

Without Task the names and ``desc`` fields are read from the YAML file.
Extra arguments reach the task as ``{{.CLI_ARGS}}`` after ``--``.
"""

from __future__ import annotations

from pathlib import Path

from dp.errors import DpError
from dp.runners.base import Runner, Task, read_text, too_deep, tool_listed_runner, tool_listing

TASKFILE_NAMES = (
    "Taskfile.yml",
    "taskfile.yml",
    "Taskfile.yaml",
    "taskfile.yaml",
    "Taskfile.dist.yml",
    "taskfile.dist.yml",
    "Taskfile.dist.yaml",
    "taskfile.dist.yaml",
)


def detect(directory: Path, project_root: Path) -> list[Runner]:
    return tool_listed_runner(directory, TASKFILE_NAMES, "task", "taskfile", "tasks", _from_listing, _from_yaml)


def _task(name: str, desc) -> Task:
    return Task(name, ["task", name], description=desc, kind="task", arg_separator="--")


def _from_listing(directory: Path, taskfile: Path) -> list[Task]:
    argv = ["task", "--taskfile", taskfile.name, "--list-all", "--json"]
    entries = tool_listing(argv, directory, taskfile).get("tasks")
    if not isinstance(entries, list):
        raise DpError(f"task cannot read {taskfile}: its listing has no tasks")
    return [
        _task(entry["name"], entry.get("desc") or entry.get("summary") or None)
        for entry in entries
        if isinstance(entry, dict) and isinstance(entry.get("name"), str)
    ]


def _from_yaml(taskfile: Path) -> list[Task]:
    import yaml

    try:
        data = yaml.safe_load(read_text(taskfile))
    except yaml.YAMLError as exc:
        raise DpError(f"parsing {taskfile.name}: {exc}".splitlines()[0]) from None
    except RecursionError:
        raise too_deep(taskfile) from None
    tasks = data.get("tasks") if isinstance(data, dict) else None
    if not isinstance(tasks, dict):
        return []
    listed = []
    for name, spec in tasks.items():
        spec = spec if isinstance(spec, dict) else {}
        if not spec.get("internal"):
            desc = spec.get("desc") or spec.get("summary")
            listed.append(_task(str(name), desc if isinstance(desc, str) else None))
    return listed
