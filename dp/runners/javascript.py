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
from typing import Any

from dp.errors import DpError, did_you_mean
from dp.paths import walk_up
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
    decision = decide_manager(manifest, project_root)
    manager, reason = decision.manager, decision.reason
    separator = "--" if manager == "npm" or decision.flavour == "pnpm-6" else None
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


class ManagerDecision:
    """Which manager a package uses, why, and whether that is really settled.

    ``ambiguity`` is non-empty when the project's own files disagree (two
    kinds of lockfile, a packageManager field that contradicts the lockfile):
    ``dp tasks`` still picks one to list the scripts, but says how to settle
    it, and the hook never rewrites an agent's command on such a guess.
    ``flavour`` tells apart the variants whose commands differ: ``yarn``
    (classic) / ``yarn-berry``, ``pnpm`` / ``pnpm-6`` (before 7, script
    arguments follow ``--``); ``where`` is the directory whose files decided.
    """

    __slots__ = ("manager", "reason", "version", "flavour", "ambiguity", "where")

    def __init__(self, manager, reason, version="", flavour="", ambiguity="", where=None):
        self.manager = manager
        self.reason = reason
        self.version = version
        self.flavour = flavour or manager
        self.ambiguity = ambiguity
        self.where = where


def choose_manager(manifest: Manifest, project_root: Path) -> tuple[str, str]:
    """(manager, why) for the package of ``manifest``."""
    decision = decide_manager(manifest, project_root)
    return decision.manager, decision.reason


def decide_manager(manifest: Manifest, project_root: Path) -> ManagerDecision:
    """The manager decision for the package of ``manifest``.

    A workspace member usually has neither lockfile nor packageManager field:
    both live in the workspace root. So the package's own directory is asked
    first, then each parent up to ``project_root``; the nearest that says
    anything decides.
    """
    package_dir = manifest.path.parent
    for folder in walk_up(package_dir, project_root):
        if folder == package_dir:
            data = manifest.data
        elif (folder / MANIFEST).is_file():
            data = Manifest(folder / MANIFEST).data
        else:
            data = {}
        decided = _manager_in(folder, data, _shown(folder, package_dir))
        if decided:
            return decided
    return ManagerDecision("npm", "package.json without a packageManager field or lockfile: npm")


def _shown(folder: Path, package_dir: Path) -> str:
    """How a reason names files of ``folder``: bare in the package, else relative."""
    if folder == package_dir:
        return ""
    return os.path.relpath(folder, package_dir) + "/"


def _manager_in(directory: Path, data: dict, prefix: str) -> ManagerDecision | None:
    """The decision from ``directory``'s package.json fields or lockfiles, if they say."""
    lockfiles = [(name, manager) for name, manager in LOCKFILES if (directory / name).is_file()]
    declared = _declared_manager(data)
    if declared:
        manager, version, source = declared
        flavour = _flavour(manager, version, directory)
        reason = f"{source} in {prefix}package.json says {manager}{'@' + version if version else ''}"
        reason += _flavour_note(flavour)
        others = [prefix + name for name, owner in lockfiles if owner != manager]
        ambiguity = ""
        if others:
            files = ", ".join(others)
            reason += f"; ignoring {files} (to settle it, delete {files} or change {source})"
            ambiguity = f"{source} says {manager} but {files} is another manager's; delete {files} or change {source}"
        return ManagerDecision(manager, reason, version, flavour, ambiguity, directory)
    if not lockfiles:
        return None
    name, manager = lockfiles[0]
    flavour = _flavour(manager, "", directory)
    reason = f"{prefix}{name} found: {manager}" + _flavour_note(flavour)
    conflicting = sorted({other for other_name, other in lockfiles[1:] if other != manager})
    ambiguity = ""
    if conflicting:
        files = ", ".join(prefix + other_name for other_name, _ in lockfiles)
        reason += (
            f"; conflicting lockfiles ({files}), chose {manager} by lockfile order "
            f"({LOCKFILE_ORDER}); set packageManager in package.json to decide"
        )
        ambiguity = (
            f"conflicting lockfiles ({files}); set packageManager in package.json "
            "or delete the lockfiles of the managers you do not use"
        )
    return ManagerDecision(manager, reason, "", flavour, ambiguity, directory)


def _flavour(manager: str, version: str, directory: Path) -> str:
    """The variant of ``manager`` whose commands apply: yarn/yarn-berry, pnpm/pnpm-6."""
    if manager == "yarn":
        return "yarn-berry" if _yarn_flavour(version, directory) == "berry" else "yarn"
    if manager == "pnpm" and _pnpm_before_7(version, directory):
        return "pnpm-6"
    return manager


def _flavour_note(flavour: str) -> str:
    """What of the manager's version changes how dp calls it, for the reason."""
    if flavour.startswith("yarn"):
        return " (berry)" if flavour == "yarn-berry" else " (classic)"
    if flavour == "pnpm-6":
        return " (before 7: script arguments follow --)"
    return ""


def _pnpm_before_7(version: str, directory: Path) -> bool:
    """pnpm 6 and older take options after ``run SCRIPT`` for themselves.

    Without a version in packageManager, the lockfile says: pnpm 6 wrote
    ``lockfileVersion: 5.3`` or lower, pnpm 7 ``5.4``, later ones ``6.0`` and up.
    """
    major = re.match(r"\d+", version or "")
    if major is not None:
        return int(major.group()) < 7
    try:
        with (directory / "pnpm-lock.yaml").open("rb") as lockfile:
            head = lockfile.read(4096)
    except OSError:
        return False
    found = re.search(rb"lockfileVersion: '?(\d+)\.(\d+)", head)
    return found is not None and (int(found.group(1)), int(found.group(2))) < (5, 4)


def _declared_manager(data: dict) -> tuple[str, str, str] | None:
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
        declared = entry.get("version")
        return (
            _known(entry["name"], "devEngines.packageManager"),
            _plain_version(declared if isinstance(declared, str) else ""),
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
            f'package.json {field} names "{name}", which dp does not know{did_you_mean(name, MANAGERS)}; '
            f"use one of {', '.join(MANAGERS)}"
        )
    return name


def _yarn_flavour(version: str | None, directory: Path) -> str:
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
