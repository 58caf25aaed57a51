"""The paving decision for one directory, per ecosystem — made by dp.runners.

Runs only when the detection cache misses (dp.paving.markers). The answers
are the ones ``dp tasks`` gives: the package manager and its reason come
from ``dp.runners.javascript.decide_manager``, the Python manager from
``dp.runners.python``, the tasks from ``dp.runners.registry.detect``. The
result is plain JSON so the hook can cache it.
"""

from __future__ import annotations

import os
from pathlib import Path

from dp.errors import DpError
from dp.paths import walk_up
from dp.runners import javascript, python
from dp.runners.base import read_toml, table
from dp.runners.registry import NoProjectFound, candidates, find_root
from dp.runners.registry import detect as detect_project

DEPENDENCY_FIELDS = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies")


def decide(start: str) -> dict:
    """``{"javascript": …, "python": …}`` for the directory ``start`` (each None if absent)."""
    folder = Path(start)
    root = find_root(folder)
    return {"javascript": _javascript(folder, root), "python": _python(folder, root)}


def _nearest(folder: Path, root: Path | None, name: str) -> Path | None:
    for candidate in candidates(folder, root):
        if (candidate / name).is_file():
            return candidate / name
    return None


def _javascript(folder: Path, root: Path | None) -> dict | None:
    path = _nearest(folder, root, javascript.MANIFEST)
    if path is None:
        return None
    try:
        manifest = javascript.Manifest(path)
        decision = javascript.decide_manager(manifest, root or path.parent)
    except DpError as exc:
        return {"manager": "", "error": exc.message, "package_dir": str(path.parent)}
    dependencies: set[str] = set()
    for field in DEPENDENCY_FIELDS:
        names = manifest.data.get(field)
        if isinstance(names, dict):
            dependencies.update(name for name in names if isinstance(name, str))
    where = decision.where or path.parent
    from dp.paving.reach import supplied

    folders = walk_up(path.parent, root or path.parent)
    return {
        "manager": decision.manager,
        "flavour": decision.flavour,
        "reason": decision.reason,
        "ambiguity": decision.ambiguity,
        "package_dir": str(path.parent),
        "bin_dirs": sorted({str(path.parent / "node_modules" / ".bin"), str(Path(where) / "node_modules" / ".bin")}),
        "scripts": sorted(manifest.scripts),
        "dependencies": sorted(dependencies),
        "supplied": supplied(decision.manager, folders, manifest.data.get("packageManager")),
    }


def _python(folder: Path, root: Path | None) -> dict | None:
    path = _nearest(folder, root, python.MANIFEST)
    if path is None:
        return None
    directory = path.parent
    try:
        data = read_toml(path)
    except DpError as exc:
        return {"manager": "", "error": exc.message, "directory": str(directory)}
    managers = python.managers(directory, root or directory, data)
    if not managers and ("hatch" in table(data, "tool") or (directory / python.HATCH_FILE).is_file()):
        where = "[tool.hatch] in pyproject.toml" if "hatch" in table(data, "tool") else f"{python.HATCH_FILE} found"
        managers = [("hatch", {}, f"{where}: hatch run")]
    if not managers:
        return None
    if len(managers) > 1:
        names = " and ".join(name for name, _, _ in managers)
        return {
            "manager": "",
            "directory": str(directory),
            "reason": "; ".join(why for _, _, why in managers),
            "ambiguity": f"pyproject.toml is set up for {names}; remove the tables or lockfile of the one you do not use",
        }
    manager, _, why = managers[0]
    environment = _environment(manager, directory, root, data)
    return {
        "manager": manager,
        "directory": str(directory),
        "reason": why,
        "ambiguity": "",
        "environment": str(environment) if environment else "",
    }


def _environment(manager: str, directory: Path, root: Path | None, data: dict) -> Path | None:
    """The project's virtual environment if it exists: ``.venv`` of the project or
    of its workspace root, else (Poetry) the one in Poetry's cache."""
    for folder in walk_up(directory, root or directory):
        venv = folder / ".venv"
        if (venv / "bin" / "python").exists():
            return venv
    if manager == "poetry":
        return _poetry_cache_environment(directory, data)
    return None


def _poetry_cache_environment(directory: Path, data: dict) -> Path | None:
    """Poetry's own environment: ``{name}-{hash of the project path}-py{X.Y}`` in its cache."""
    import base64
    import hashlib
    import re

    name = table(data, "project").get("name") or table(data, "tool", "poetry").get("name")
    if not isinstance(name, str) or not name:
        return None
    base = os.environ.get("POETRY_VIRTUALENVS_PATH") or os.path.join(
        os.environ.get("POETRY_CACHE_DIR") or os.path.expanduser("~/.cache/pypoetry"), "virtualenvs"
    )
    canonical = re.sub(r"[-_.]+", "-", name).lower()
    sanitized = re.sub(r'[ $`!*@"\\\r\n\t]', "_", canonical)[:42]
    digest = hashlib.sha256(os.path.normcase(os.path.realpath(directory)).encode()).digest()
    prefix = f"{sanitized}-{base64.urlsafe_b64encode(digest).decode()[:8]}-py"
    try:
        found = sorted(entry for entry in os.listdir(base) if entry.startswith(prefix))
    except OSError:
        return None
    for entry in reversed(found):
        if (Path(base) / entry / "bin" / "python").exists():
            return Path(base) / entry
    return None


def _unknown(runner) -> str:
    """What the runner's file hides from a reading: tasks beyond those listed may exist."""
    conditional = [task.name for task in runner.tasks if task.conditional]
    defined = f"{', '.join(conditional)} defined only in a branch make chooses" if conditional else ""
    return "; ".join(filter(None, (runner.unknown, defined)))


def tasks(start: str) -> dict | None:
    """The runners ``dp tasks`` finds for ``start`` and how each task runs, or None."""
    try:
        project = detect_project(Path(start))
    except NoProjectFound:
        return None
    except DpError as exc:
        return {"error": exc.message, "runners": []}
    return {
        "directory": str(project.directory),
        "runners": [
            {
                "name": runner.name,
                "reason": runner.reason,
                "tasks": {task.name: list(task.argv) for task in runner.tasks if not task.conditional},
                "unknown": _unknown(runner),
            }
            for runner in project.runners
        ],
    }
