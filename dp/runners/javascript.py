"""package.json scripts, run through the package manager the project uses.

The manager comes from the ``packageManager`` field (Corepack's), then
``devEngines.packageManager``, then lockfiles (and ``pnpm-workspace.yaml``) in
a fixed order, looked for in the package's directory and then up to the
project root (a workspace keeps them at its root); npm when none says
otherwise. Scripts always run as ``<pm> run <script>``: ``yarn <script>``
would let a yarn built-in shadow a script of the same name. Deno runs
package.json scripts as ``deno task <script>``.

Arguments after the script need ``--`` where the manager would otherwise
read them itself: npm always, pnpm before version 7.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Optional

from dp.errors import DpError
from dp.runners.base import Runner, Task, read_json

MANIFEST = "package.json"
MANAGERS = ("npm", "pnpm", "yarn", "bun", "deno")
# Lockfile order: the first present wins when several conflict. A
# pnpm-workspace.yaml is not a lockfile, but only pnpm reads it: a fresh
# pnpm workspace has it before its first install writes the lockfile.
LOCKFILES = (
    ("bun.lock", "bun"),
    ("bun.lockb", "bun"),
    ("deno.lock", "deno"),
    ("pnpm-lock.yaml", "pnpm"),
    ("pnpm-workspace.yaml", "pnpm"),
    ("yarn.lock", "yarn"),
    ("package-lock.json", "npm"),
    ("npm-shrinkwrap.json", "npm"),
)
LOCKFILE_ORDER = "bun, deno, pnpm, yarn, npm"
# A packageManager value may carry a range prefix (^pnpm@8) and a version may
# carry a hash (pnpm@8.6.0+sha512.…) or a range (^8.0.0): the version is the
# first dotted number in it.
_RANGE_PREFIX = re.compile(r"^[\^~=<>v\s]+")
_VERSION = re.compile(r"\d+(?:\.\d+){0,2}")


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
    return [runner_for(manifest, project_root)]


def runner_for(manifest: Manifest, project_root: Path) -> Runner:
    """The script runner for ``manifest``'s package inside ``project_root``."""
    manager, version, reason = _decide(manifest, project_root)
    separator = "--" if _needs_separator(manager, version) else None
    verb = "task" if manager == "deno" else "run"
    tasks = [
        Task(
            name,
            [manager, verb, name],
            description=body,
            kind="script",
            arg_separator=separator,
            dashdash_marks_args=True,
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


def _needs_separator(manager: str, version: str) -> bool:
    """npm, and pnpm before 7, take options after ``run SCRIPT`` for themselves."""
    if manager == "npm":
        return True
    major = re.match(r"\d+", version or "")
    return manager == "pnpm" and major is not None and int(major.group()) < 7


def choose_manager(manifest: Manifest, project_root: Path) -> tuple[str, str]:
    """(manager, why) for the package of ``manifest``."""
    manager, _, reason = _decide(manifest, project_root)
    return manager, reason


def _decide(manifest: Manifest, project_root: Path) -> tuple[str, str, str]:
    """(manager, declared version or '', why) for the package of ``manifest``.

    A workspace member usually has neither lockfile nor packageManager field:
    both live in the workspace root. So the package's own directory is asked
    first, then each parent up to ``project_root``; the nearest that says
    anything decides.
    """
    package_dir = manifest.path.parent
    for folder in [package_dir, *package_dir.parents]:
        if folder == package_dir:
            data = manifest.data
        elif (folder / MANIFEST).is_file():
            data = Manifest(folder / MANIFEST).data
        else:
            data = {}
        decided = _manager_in(folder, data, _shown(folder, package_dir))
        if decided:
            return decided
        if folder == project_root or not folder.is_relative_to(project_root):
            break
    return "npm", "", "package.json without a packageManager field or lockfile: npm"


def _shown(folder: Path, package_dir: Path) -> str:
    """How a reason names files of ``folder``: bare in the package, else relative."""
    if folder == package_dir:
        return ""
    return os.path.relpath(folder, package_dir) + "/"


def _manager_in(directory: Path, data: dict, prefix: str) -> Optional[tuple[str, str, str]]:
    """(manager, version, why) from ``directory``'s package.json fields or lockfiles, if they say."""
    lockfiles = [(name, manager) for name, manager in LOCKFILES if (directory / name).is_file()]
    declared = _declared_manager(data)
    if declared:
        manager, version, source = declared
        reason = f"{source} in {prefix}package.json says {manager}{'@' + version if version else ''}"
        reason += _flavour(manager, version, directory)
        others = [prefix + name for name, owner in lockfiles if owner != manager]
        if others:
            reason += f"; ignoring {', '.join(others)}"
        return manager, version, reason
    if not lockfiles:
        return None
    name, manager = lockfiles[0]
    reason = f"{prefix}{name} found: {manager}" + _flavour(manager, "", directory)
    conflicting = sorted({other for other_name, other in lockfiles[1:] if other != manager})
    if conflicting:
        files = ", ".join(prefix + other_name for other_name, _ in lockfiles)
        reason += (
            f"; conflicting lockfiles ({files}), chose {manager} by lockfile order "
            f"({LOCKFILE_ORDER}); set packageManager in package.json to decide"
        )
    return manager, "", reason


def _flavour(manager: str, version: str, directory: Path) -> str:
    """What of the manager's version changes how dp calls it, for the reason."""
    if manager == "yarn":
        return f" ({_yarn_flavour(version, directory)})"
    if _needs_separator(manager, version) and manager == "pnpm":
        return " (before 7: script arguments follow --)"
    return ""


def _declared_manager(data: dict) -> Optional[tuple[str, str, str]]:
    """(manager, version, source field) from packageManager or devEngines."""
    field = data.get("packageManager")
    if isinstance(field, str) and field.strip():
        name, _, version = _RANGE_PREFIX.sub("", field.strip()).partition("@")
        return _known(name, "packageManager"), _plain_version(version), "packageManager"
    engines = data.get("devEngines")
    entry: Any = engines.get("packageManager") if isinstance(engines, dict) else None
    if isinstance(entry, list):
        entry = entry[0] if entry else None
    if isinstance(entry, dict) and isinstance(entry.get("name"), str):
        version = entry.get("version")
        return (
            _known(entry["name"], "devEngines.packageManager"),
            _plain_version(version if isinstance(version, str) else ""),
            "devEngines.packageManager",
        )
    return None


def _plain_version(text: str) -> str:
    """``8.6.0`` from ``8.6.0+sha512.…``, ``^8.0.0`` or ``>=8``; '' when there is none."""
    match = _VERSION.search(text.split("+")[0])
    return match.group() if match else ""


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
