"""Hook entries that run a dp program which is gone, found and repointed (``dp doctor``, ``dp doctor --fix``).

``pip uninstall desire-paths`` (or deleting the virtualenv dp was in) without ``dp uninstall`` leaves
every agent's settings running a ``pave-check`` and a ``dp-capture`` that no longer exist: each tool
call then starts a missing program, and nothing of dp's is left to say so. The next dp installed on
the machine finds those entries here, in every settings file of every agent dp writes (each scope of
this directory, and each file the store recorded), and ``--fix`` points them at its own programs,
keeping every option and everything else in the file (``dp.files``: atomic, with a backup).
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from dp.agents.settings import command_words, is_capture_hook, is_dp_hook, iter_hooks, parse_settings
from dp.doctor.findings import ERROR, Finding
from dp.errors import DpError
from dp.files import read_bytes

FIX = "dp doctor --fix (points them at this dp), or dp uninstall (takes them out)"


def places(db_path: Path, cwd: Path) -> list[tuple[str, Path]]:
    """(scope, settings file) of every agent's scopes here and every hook file the store recorded, each once."""
    from dp.agents import all_agents
    from dp.store import installs

    found = [(scope, agent.hooks().config_path(scope, project_dir=cwd))
             for agent in all_agents() if not agent.plugin for scope in agent.scopes]
    found += [(entry.scope or "custom", Path(entry.path)) for entry in installs.read(db_path, installs.HOOK)]
    unique, seen = [], set()
    for scope, path in found:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            unique.append((scope, Path(path)))
    return unique


def gone_programs(settings: dict) -> list[str]:
    """The programs dp's entries in ``settings`` run (pave-check, dp-capture) that do not exist, in file order."""
    gone = []
    for _, _, hook in iter_hooks(settings):
        if not (is_dp_hook(hook) or is_capture_hook(hook)):
            continue
        program = _program(hook.get("command"))
        if program and os.path.isabs(program) and not os.path.exists(program) and program not in gone:
            gone.append(program)
    return gone


def _program(command) -> str:
    words = command_words(command)
    return os.path.expanduser(os.path.expandvars(words[0])) if words else ""


def dangling(db_path: Path, cwd: Path) -> list[tuple[str, Path, list[str]]]:
    """(scope, file, its gone programs) of every settings file whose dp entries run a program that is gone."""
    found = []
    for scope, path in places(db_path, cwd):
        try:
            gone = gone_programs(parse_settings(read_bytes(path), path))
        except DpError:
            continue  # unreadable settings: the settings and agents checks report them
        if gone:
            found.append((scope, path, gone))
    return found


def check_dangling(db_path: Path, cwd: Path) -> list[Finding]:
    return [Finding("dangling", ERROR, f"{scope} scope ({path}): dp's hook entries run {_listed(gone)}, "
                                       f"{'which is' if len(gone) == 1 else 'which are'} gone (dp was uninstalled or "
                                       "moved): every tool call starts a missing program", FIX)
            for scope, path, gone in dangling(db_path, cwd)]


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def repoint(db_path: Path, cwd: Path) -> list[str]:
    """Point every dangling entry at this dp's own program of the same name; one line per file changed."""
    from dp.agents.executable import find_program
    from dp.agents.settings import dump_settings
    from dp.files import replace_file

    changed = []
    for scope, path, gone in dangling(db_path, cwd):
        original = read_bytes(path)
        settings = parse_settings(original, path)
        ours = {program: str(find_program(os.path.basename(program))) for program in gone}
        for _, _, hook in iter_hooks(settings):
            program = _program(hook.get("command")) if is_dp_hook(hook) or is_capture_hook(hook) else ""
            if program in ours:
                hook["command"] = _swap(hook["command"], program, ours[program])
        replace_file(path, dump_settings(settings, original), expected=original, backup=True)
        _record(db_path, path, ours)
        names = sorted({os.path.basename(program) for program in gone})
        changed.append(f"{scope} scope ({path}): dp's hook entries ran {_listed(gone)}; they run this dp's "
                       f"{_listed(names)} now")
    return changed


def _record(db_path: Path, path: Path, ours: dict) -> None:
    """The store's record of the file names the command it now runs: every rule change rewrites the
    entries from it (``dp.install.hook.sync_installed``), which would bring the gone program back."""
    from dp.store import Store, installs

    if not Path(db_path).exists():
        return
    for entry in installs.read(db_path, installs.HOOK):
        if entry.path != installs.key_path(path) or not entry.details.get("command"):
            continue
        details = dict(entry.details)
        for program, replacement in ours.items():
            details["command"] = _swap(details["command"], program, replacement)
        with Store.open(db_path) as store:
            installs.record(store, entry.path, installs.HOOK, entry.scope, entry.created_file, details)


def _swap(command: str, program: str, ours: str) -> str:
    """``command`` with its program word ``program`` (as written: quoted or not) replaced by ``ours``; the
    rest (options, a ``VAR=`` prefix, Copilot CLI's ``|| true``) stays as it was."""
    for written in dict.fromkeys((shlex.quote(program), program)):
        if written in command:
            return command.replace(written, shlex.quote(ours), 1)
    return command
