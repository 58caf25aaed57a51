"""Taskfile tasks: read from the YAML, or from ``task --list-all --json`` when a person asked.

The hook and the MCP server read the file (``base.tools_asked`` says why): the
task names and ``desc``/``summary`` fields, ``internal`` tasks left out,
``includes`` followed inside the repository (``NAMESPACE:task``, bounded).
An include whose path is a template (``{{.DIR}}``), a URL, outside the
repository or past the bounds is *unknown*; a wildcard task (``start:*``) is
a pattern, not a name. Extra arguments reach the task as ``{{.CLI_ARGS}}``
after ``--``.
"""

from __future__ import annotations

from pathlib import Path

from dp.errors import DpError
from dp.runners.base import Runner, Task, first_existing, read_text, too_deep, tool_listed_runner, tool_listing

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
    return tool_listed_runner(directory, project_root, TASKFILE_NAMES, "task", "taskfile", "tasks", _from_listing, _from_yaml)


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


MAX_FILES = 32


def _from_yaml(taskfile: Path, root: Path) -> tuple[list[Task], str]:
    listed: list[Task] = []
    unknown: list[str] = []
    pending = [("", taskfile)]
    read = 0
    while pending:
        namespace, path = pending.pop(0)
        read += 1
        data = _load(path) if read == 1 else _included(path, unknown)
        if not isinstance(data, dict):
            continue
        listed += _tasks(data.get("tasks"), namespace)
        for name, spec in (data.get("includes") or {}).items() if isinstance(data.get("includes"), dict) else ():
            where = _include_path(path, spec, root, unknown, f"{namespace}{name}")
            if where is None:
                continue
            if read + len(pending) >= MAX_FILES:
                unknown.append(f"{taskfile.name} includes more than {MAX_FILES} Taskfiles")
                break
            pending.append((f"{namespace}{name}:", where))
    return listed, "; ".join(unknown)


def _load(taskfile: Path):
    import yaml

    try:
        return yaml.safe_load(read_text(taskfile))
    except yaml.YAMLError as exc:
        raise DpError(f"parsing {taskfile.name}: {exc}".splitlines()[0]) from None
    except RecursionError:
        raise too_deep(taskfile) from None


def _included(path: Path, unknown: list):
    try:
        return _load(path)
    except DpError as exc:
        unknown.append(exc.message)
        return None


def _tasks(tasks, namespace: str) -> list[Task]:
    if not isinstance(tasks, dict):
        return []
    listed = []
    for name, spec in tasks.items():
        spec = spec if isinstance(spec, dict) else {}
        if not spec.get("internal") and "*" not in str(name):
            desc = spec.get("desc") or spec.get("summary")
            listed.append(_task(f"{namespace}{name}", desc if isinstance(desc, str) else None))
    return listed


def _include_path(path: Path, spec, root: Path, unknown: list, label: str):
    """The Taskfile an ``includes`` entry names, when it is a plain path inside the repository."""
    from dp.paths import confined

    if isinstance(spec, dict):
        if spec.get("internal"):
            return None
        optional, spec = bool(spec.get("optional")), spec.get("taskfile")
    else:
        optional = False
    if not isinstance(spec, str) or "{{" in spec or "://" in spec:
        unknown.append(f"{path.name} includes {label} from a path Task computes or fetches: not read")
        return None
    target = confined(path.parent / Path(spec).expanduser(), root)
    if target is not None and target.is_dir():
        target = first_existing(target, TASKFILE_NAMES)
    if target is None or not target.is_file():
        if not optional:
            unknown.append(f"{path.name} includes {label} ({spec}): not found inside the repository")
        return None
    return target
