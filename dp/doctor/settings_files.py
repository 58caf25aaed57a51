"""The Claude Code settings files doctor reads, and the ``settings`` check on them.

Each file is parsed once here (never written); the hook, entries, collision,
latency and capture checks all look at the same ``SettingsFile`` objects.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from dp.agents import settings as hook_settings
from dp.doctor.findings import ERROR, Finding
from dp.errors import DpError
from dp.files import read_bytes


class SettingsFile:
    """One Claude Code settings file as doctor sees it."""

    def __init__(self, scope: str, path: Path):
        self.scope = scope
        self.path = path
        self.data: dict = {}
        self.error = ""
        self.exists = False
        try:
            raw = read_bytes(path)
            self.exists = raw is not None
            self.data = hook_settings.parse_settings(raw, path)
        except DpError as exc:
            self.error = exc.message

    @property
    def where(self) -> str:
        return f"{self.scope} scope ({self.path})"


def settings_files(cwd: Path, extra: Path | None = None) -> list[SettingsFile]:
    """Every settings file Claude Code reads here, each once.

    Run from the home directory, the project scope's ``.claude/settings.json``
    is the user's file: counting it twice would report the hook as installed
    in two scopes and suggest removing it from one, which removes it from both.
    """
    places = [(scope, hook_settings.settings_path(scope, project_dir=cwd)) for scope in hook_settings.SCOPES]
    places += [("managed", path) for path in hook_settings.managed_settings_paths() if path.exists()]
    if extra is not None:
        places.append(("custom", Path(extra).expanduser().absolute()))
    files, seen = [], set()
    for scope, path in places:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            files.append(SettingsFile(scope, path))
    return files


def installed(files: list[SettingsFile]):
    """(file, event, group, hook) of every dp hook entry, user scope first."""
    return [(file, event, group, hook) for file in files for event, group, hook in hook_settings.dp_hooks(file.data)]


def scope_option(file: SettingsFile) -> str:
    """The ``dp pave`` option that names this file's scope ('' for the user scope, the default)."""
    if file.scope == "user":
        return ""
    if file.scope in hook_settings.SCOPES:
        return f" --scope {file.scope}"
    return f" --settings {shlex.quote(str(file.path))}"


def reinstall_command(file: SettingsFile) -> str:
    """The command that writes dp's hook entries into this file afresh."""
    return f"dp pave --hook{scope_option(file)}"


def check_settings(files: list[SettingsFile]) -> list[Finding]:
    """Settings files Claude Code cannot read, or that switch every hook off."""
    findings = []
    for file in files:
        if file.scope == "custom" and not file.exists and not file.error:
            # Named on the command line: a typo must not pass as "no problems".
            findings.append(
                Finding("settings", ERROR, f"{file.path} does not exist", "check the path given to --settings")
            )
        elif file.error:
            findings.append(
                Finding(
                    "settings",
                    ERROR,
                    f"{file.where}: {file.error}",
                    f"fix {file.path} by hand; Claude Code cannot read it either",
                )
            )
        elif file.data.get("disableAllHooks") is True:
            findings.append(
                Finding(
                    "settings",
                    ERROR,
                    f"{file.where} sets disableAllHooks: no hook runs, dp's included",
                    f'remove "disableAllHooks" from {file.path}',
                )
            )
    return findings
