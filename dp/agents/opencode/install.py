"""Putting dp's OpenCode plugin in place and taking it out again.

OpenCode 1.18.33 loads every ``*.ts``/``*.js`` file in the ``plugin/`` and
``plugins/`` directories of each config directory it reads (observed in the
binary: ``{plugin,plugins}/*.{ts,js}``), among them ``~/.config/opencode``
(``$XDG_CONFIG_HOME/opencode``) for the user and ``.opencode`` in the project.
So dp's install is two files of dp's own, and no file of the user's changes:

* ``plugins/dp.ts``, byte for byte the shipped plugin (``plugin/dp.ts``);
* for a user install, ``plugins/dp-opencode.json`` beside it: the absolute
  ``pave-check`` and ``dp-capture`` commands (with ``--db`` for a store other
  than the default), which OpenCode does not load as a plugin. A project
  install, committed for a team, has none: each person's own dp is found on
  PATH.

Directories dp had to create are recorded and removed again by ``dp
uninstall`` once empty; a ``dp.ts`` that is not dp's is never overwritten.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from dp.errors import DpError

PLUGIN_NAME = "dp.ts"
CONFIG_NAME = "dp-opencode.json"
PLUGIN_DIR = "plugins"
SHIPPED = Path(__file__).parent / "plugin" / PLUGIN_NAME
# The plugin's hooks that ask pave-check and dp-capture, and its time limits (PAVE_TIMEOUT_MS, CAPTURE_TIMEOUT_MS).
EVENTS = ("tool.execute.before", "experimental.chat.system.transform")
CAPTURE_EVENTS = ("tool.execute.after", "event (failed calls)")
PAVE_TIMEOUT_SECONDS = 5
CAPTURE_TIMEOUT_SECONDS = 10


def config_home(home=None) -> Path:
    """OpenCode's user config directory: ``$XDG_CONFIG_HOME/opencode``, else ``~/.config/opencode``."""
    if home is None and os.path.isabs(os.environ.get("XDG_CONFIG_HOME") or ""):
        return Path(os.environ["XDG_CONFIG_HOME"]) / "opencode"
    return (home or Path.home()) / ".config" / "opencode"


def plugin_path(scope: str, home=None, project_dir=None) -> Path:
    if scope == "user":
        return config_home(home) / PLUGIN_DIR / PLUGIN_NAME
    if scope == "project":
        return (project_dir or Path.cwd()) / ".opencode" / PLUGIN_DIR / PLUGIN_NAME
    raise DpError(f"unknown scope {scope!r} for OpenCode: use user or project")


# The hook's word scan and the front door's decision, carried as they are from dp's Claude Code mod
# (one port of dp.shell.words in TypeScript): the block between these lines, appended to the plugin.
MOD = Path(__file__).parent.parent / "claude" / "mod" / "register.ts"
SCAN_START = "// -- the hook's word scan:"
SCAN_END = "// -- end of the word scan --"


def shipped_text() -> bytes:
    """The plugin as installed: ``plugin/dp.ts`` and, after it, the mod's word scan (its functions not
    exported: OpenCode would take an exported function for a plugin)."""
    mod = MOD.read_text(encoding="utf-8")
    start = mod.index(SCAN_START)
    scan = mod[start:mod.index(SCAN_END, start) + len(SCAN_END)].replace("\nexport function ", "\nfunction ")
    return SHIPPED.read_bytes() + b"\n" + scan.encode() + b"\n"


def install(path: Path, scope: str, pave_command: str, capture_command: str | None) -> dict:
    """Write the plugin (and, for a user, its commands) at ``path``; the report.

    ``created`` lists the directories dp made, outermost first, for ``uninstall``.
    """
    from dp.files import read_bytes, replace_file

    plugin = shipped_text()
    existing = read_bytes(path)
    if existing is not None and existing != plugin and not _is_dps(existing):
        raise DpError(f"{path} exists and is not dp's plugin; move it away or install with the other --scope "
                      "(nothing was changed)")
    created = _make_parents(path.parent, scope)
    status = "already_configured" if existing == plugin else ("updated" if existing is not None else "configured")
    if existing != plugin:
        replace_file(path, plugin, expected=existing)
    config = path.with_name(CONFIG_NAME)
    if scope == "user":
        wanted = _config(pave_command, capture_command)
        current = read_bytes(config)
        if current != wanted:
            replace_file(config, wanted, expected=current)
            status = "updated" if status == "already_configured" else status
    capture = None
    if capture_command:
        capture = {"status": status, "events": list(CAPTURE_EVENTS), "command": capture_command, "async": [],
                   "timeout": CAPTURE_TIMEOUT_SECONDS}
    return {"status": status, "scope": scope, "settings": str(path), "plugin": str(path),
            "config": str(config) if scope == "user" else None, "created": [str(d) for d in created],
            "command": pave_command, "timeout": PAVE_TIMEOUT_SECONDS, "events": list(EVENTS), "capture": capture}


def files(path: Path, scope: str, pave_command: str, capture_command: str | None) -> dict:
    """What ``install`` writes: the plugin, and for a user its commands (path → content)."""
    wanted = {path: shipped_text()}
    if scope == "user":
        wanted[path.with_name(CONFIG_NAME)] = _config(pave_command, capture_command)
    return wanted


def _is_dps(data: bytes) -> bool:
    """A dp plugin of another dp version (its first line names dp), which an install may replace."""
    return data.startswith(b"// dp (desire paths) in OpenCode")


def _config(pave_command: str, capture_command: str | None) -> bytes:
    """The commands the plugin runs; without capture, a dp-capture that records nothing is still named
    so the plugin's argv is complete (``--help`` prints and exits 0)."""
    capture = shlex.split(capture_command) if capture_command else ["true"]
    return (json.dumps({"pave": shlex.split(pave_command), "capture": capture}, indent=2) + "\n").encode()


def _make_parents(directory: Path, scope: str) -> list[Path]:
    """Create ``directory`` and the missing directories above it, up to the config or project directory."""
    missing: list[Path] = []
    current = directory
    limit = 3 if scope == "project" else 2  # .opencode/plugins, or opencode/plugins (and ~/.config)
    while not current.exists() and len(missing) < limit + 1:
        missing.append(current)
        current = current.parent
    from dp.files import make_directory

    for made in reversed(missing):
        make_directory(made)
    return list(reversed(missing))


def uninstall(path: Path, details: dict) -> dict:
    """Remove dp's plugin files at ``path`` and the directories dp created that are empty now."""
    from dp.files import read_bytes, remove_empty_directory, remove_file

    removed = 0
    for target in (path, path.with_name(CONFIG_NAME)):
        data = read_bytes(target)
        if data is None:
            continue
        if target == path and not (data == shipped_text() or _is_dps(data)):
            raise DpError(f"{path} is no longer dp's plugin; remove it by hand if it should go")
        remove_file(target, expected=data)
        removed += 1
    for directory in reversed([Path(d) for d in details.get("created", ())]):
        if not remove_empty_directory(directory):
            break  # not empty (the user's files), or already gone
    return {"status": "removed" if removed else "not_installed", "removed": removed, "deleted": removed > 0}


def state(path: Path) -> str:
    """What is at ``path``: ``current``, ``outdated`` (another dp version's plugin), ``missing``, ``not dp's``."""
    from dp.files import read_bytes

    try:
        data = read_bytes(path)
    except DpError:
        return "not dp's"
    if data is None:
        return "missing"
    if data == shipped_text():
        return "current"
    return "outdated" if _is_dps(data) else "not dp's"
