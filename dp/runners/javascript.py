"""package.json scripts, run through the package manager the project uses.

The manager comes from the ``packageManager`` field (Corepack's), then
``devEngines.packageManager``, then lockfiles in a fixed order; npm when none
says otherwise. Scripts always run as ``<pm> run <script>``: ``yarn <script>``
would let a yarn built-in shadow a script of the same name.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

from dp.errors import DpError
from dp.runners.base import Runner, Task, read_json

MANIFEST = "package.json"
MANAGERS = ("npm", "pnpm", "yarn", "bun")
# Lockfile order: the first present wins when several conflict.
LOCKFILES = (
    ("bun.lock", "bun"),
    ("bun.lockb", "bun"),
    ("pnpm-lock.yaml", "pnpm"),
    ("yarn.lock", "yarn"),
    ("package-lock.json", "npm"),
    ("npm-shrinkwrap.json", "npm"),
)
LOCKFILE_ORDER = "bun, pnpm, yarn, npm"


class Manifest:
    """A parsed package.json: its scripts and the manager it asks for."""

    def __init__(self, path: Path):
        self.path = path
        data = read_json(path)
        if not isinstance(data, dict):
            raise DpError(f"parsing package.json: expected a JSON object ({path})")
        self.data = data
        scripts = data.get("scripts")
        self.scripts = (
            {name: body for name, body in scripts.items() if isinstance(body, str)}
            if isinstance(scripts, dict)
            else {}
        )


def detect(directory: Path, project_root: Path) -> list[Runner]:
    path = directory / MANIFEST
    if not path.is_file():
        return []
    manifest = Manifest(path)
    return [runner_for(manifest)]


def runner_for(manifest: Manifest) -> Runner:
    """The script runner for ``manifest``'s project."""
    manager, reason = choose_manager(manifest)
    separator = "--" if manager == "npm" else None
    tasks = [
        Task(
            name,
            [manager, "run", name],
            description=body,
            kind="script",
            arg_separator=separator,
        )
        for name, body in manifest.scripts.items()
    ]
    return Runner(
        manager,
        ecosystem="javascript",
        reason=reason,
        root=manifest.path.parent,
        tasks=tasks,
    )


def choose_manager(manifest: Manifest) -> tuple[str, str]:
    """(manager, why) for the project of ``manifest``."""
    directory = manifest.path.parent
    lockfiles = [(name, manager) for name, manager in LOCKFILES if (directory / name).is_file()]
    declared = _declared_manager(manifest.data)
    if declared:
        manager, version, source = declared
        reason = f"{source} in package.json says {manager}{'@' + version if version else ''}"
        if manager == "yarn":
            reason += f" ({_yarn_flavour(version, directory)})"
        others = [name for name, owner in lockfiles if owner != manager]
        if others:
            reason += f"; ignoring {', '.join(others)}"
        return manager, reason
    if not lockfiles:
        return "npm", "package.json without a packageManager field or lockfile: npm"
    name, manager = lockfiles[0]
    reason = f"{name} found: {manager}"
    if manager == "yarn":
        reason += f" ({_yarn_flavour(None, directory)})"
    conflicting = sorted({other for other_name, other in lockfiles[1:] if other != manager})
    if conflicting:
        files = ", ".join(other_name for other_name, _ in lockfiles)
        reason += (
            f"; conflicting lockfiles ({files}), chose {manager} by lockfile order "
            f"({LOCKFILE_ORDER}); set packageManager in package.json to decide"
        )
    return manager, reason


def _declared_manager(data: dict) -> Optional[tuple[str, str, str]]:
    """(manager, version, source field) from packageManager or devEngines."""
    field = data.get("packageManager")
    if isinstance(field, str) and field.strip():
        name, _, version = field.strip().partition("@")
        return _known(name, "packageManager"), version.split("+")[0], "packageManager"
    engines = data.get("devEngines")
    entry: Any = engines.get("packageManager") if isinstance(engines, dict) else None
    if isinstance(entry, list):
        entry = entry[0] if entry else None
    if isinstance(entry, dict) and isinstance(entry.get("name"), str):
        version = entry.get("version")
        return (
            _known(entry["name"], "devEngines.packageManager"),
            version if isinstance(version, str) else "",
            "devEngines.packageManager",
        )
    return None


def _known(name: str, field: str) -> str:
    if name not in MANAGERS:
        raise DpError(
            f'package.json {field} names "{name}", which dp does not know; '
            f"use one of {', '.join(MANAGERS)}"
        )
    return name


def _yarn_flavour(version: Optional[str], directory: Path) -> str:
    """Yarn 1 ("classic") and Yarn 2+ ("berry") differ; say which this is."""
    if version:
        major = re.match(r"\d+", version)
        if major:
            return "classic" if int(major.group()) < 2 else "berry"
    if (directory / ".yarnrc.yml").is_file():
        return "berry"
    try:
        with (directory / "yarn.lock").open("rb") as lockfile:
            head = lockfile.read(4096)
    except OSError:
        return "classic"
    return "berry" if b"__metadata:" in head else "classic"
