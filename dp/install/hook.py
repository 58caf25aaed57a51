"""Installing, syncing, removing and calling dp's hook entries, in every agent.

The agent's adapter (dp/agents/) names its settings file per scope and the
entries dp wants there; everything else is the same for every agent: one
lossless writer (``dp.agents.settings``: their hook objects share one shape),
the same backups, symlink rules and install records. The settings file
changes only when dp's entry has to (so a second install is a no-op that
touches nothing), always atomically, with the previous content kept in
``~/.dp/backups/`` (several generations, never beside the file).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from dp import agents
from dp.agents.settings import (
    EVENT,
    command_words,
    dp_hooks,
    dump_settings,
    is_capture_hook,
    parse_settings,
    remove_entries,
    sync_entries,
)
from dp.errors import DpError, did_you_mean
from dp.files import backups_of, missing_directories, read_bytes, remove_empty_directory, remove_file, replace_file
from dp.hook import HOOK_TIMEOUT_SECONDS, gate
from dp.store import DEFAULT_DB, Store, installs, read_rules


def agent_named(name: str | None):
    """The adapter for ``--agent NAME`` (Claude Code when None), or a DpError naming the choices."""
    try:
        return agents.get(name)
    except agents.UnknownAgent as exc:
        raise DpError(str(exc)) from None


def target(scope: str | None, explicit: Path | None, agent=None) -> tuple[str, Path]:
    """(scope label, settings file) for ``--scope`` / ``--settings`` of ``agent`` (Claude Code when None)."""
    agent = agent or agents.get()
    if scope is not None and explicit is not None:
        raise DpError("use --scope or --settings, not both")
    if scope is not None and scope not in agent.scopes:
        raise DpError(f"unknown scope {scope!r}{_for(agent)}{did_you_mean(scope, agent.scopes)}: "
                      f"use one of {', '.join(agent.scopes)} (or --settings PATH)")
    if explicit is not None:
        return "custom", Path(explicit).expanduser().absolute()
    scope = scope or "user"
    return scope, agent.hooks().config_path(scope)


def _for(agent) -> str:
    return "" if agent.name == agents.DEFAULT else f" for {agent.display}"


def _agent_option(agent) -> str | None:
    """The ``--agent`` value dp's commands carry (none for Claude Code, whose commands predate agents)."""
    return None if agent is None or agent.name == agents.DEFAULT else agent.name


def change(
    install_hook: bool,
    scope: str | None,
    explicit: Path | None,
    db_path: Path,
    permission: str = "none",
    mode: str = "rewrite",
    agent=None,
    *,
    plugin_of,
) -> dict:
    """``dp pave --hook`` / ``--unhook`` (and the hook step of ``dp init``); returns the report (``plugin_of``:
    ``refuse_beside_plugin``)."""
    label, path = target(scope, explicit, agent)
    if not install_hook:
        return uninstall(path, label, db_path)
    refuse_beside_plugin(db_path, label, agent, plugin_of)
    return with_stability_warning(install(path, command_for(db_path, permission, mode, agent), label, db_path,
                                          agent=agent))


def with_stability_warning(report: dict) -> dict:
    """An install report, plus ``warning`` when its program may not last (see ``stability_warning``)."""
    import shlex

    from dp.agents.executable import stability_warning

    warning = stability_warning(Path(shlex.split(report["command"])[0])) if report.get("command") else None
    return {**report, "warning": warning} if warning else report


def check_agent_permission(agent, permission: str) -> None:
    """Refuse a ``--permission`` the agent cannot honour without widening (Copilot CLI: ``allow``)."""
    if agent is not None and permission not in agent.permissions:
        raise DpError(f"--permission {permission} is not available for {agent.display}"
                      f"{did_you_mean(permission, agent.permissions)}: use "
                      f"{' or '.join(agent.permissions)} (an allow would make {agent.display} skip its own approval "
                      "of the rewritten command)")


def command_for(db_path: Path, permission: str = "none", mode: str = "rewrite", agent=None) -> str:
    """The hook entry's command: the real installed pave-check and the options that differ from its defaults."""
    from dp.agents.executable import find_pave_check, hook_command

    check_agent_permission(agent, permission)
    return hook_command(find_pave_check(), db_option(db_path), permission, mode, _agent_option(agent))


def capture_command_for(db_path: Path, agent=None) -> str:
    """The capture entries' command: the real installed dp-capture, with ``--db`` for a non-default store."""
    import shlex

    from dp.agents.executable import find_program
    from dp.agents.settings import CAPTURE_PROGRAM

    db, name = db_option(db_path), _agent_option(agent)
    return shlex.join([str(find_program(CAPTURE_PROGRAM)), *(["--agent", name] if name else []),
                       *(["--db", str(db)] if db else [])])


def db_option(db_path: Path) -> Path | None:
    """The store the hook must be told about: None for the default store.

    Claude Code starts the hook without the user's DP_DB, so any other store
    has to be named in the hook command itself.
    """
    chosen = Path(db_path).expanduser().absolute()
    return None if chosen == DEFAULT_DB.expanduser().absolute() else chosen


def install(path: Path, command: str, scope: str, db_path: Path, support: dict | None = None,
            capture_command: str | None = None, agent=None) -> dict:
    """Put dp's entries running ``command`` into ``agent``'s settings at ``path`` and record the install.

    The entries follow the rules now in the store (for Claude Code, ``if``
    filters when the installed client has them, see dp/agents/claude/filters.py);
    with ``capture_command`` the dp-capture entries go in too. The file is
    written only on a change. The record names the agent (Claude Code's
    records, older than agents, name none), so a rule change re-syncs each
    file with its own agent's entries.
    """
    agent = agent or agents.get()
    support = support or agent.hooks().filter_support()
    installs.require_recordable(path)
    existed = path.exists()
    created = [str(directory) for directory in missing_directories(path)]
    report = _apply(path, scope, command, support["filtered"], db_path, capture_command, agent)
    report["filters"] = {key: support[key] for key in ("filtered", "version", "reason")}
    starts = hook_starts(command, support["filtered"], db_path, agent)
    if starts:
        report["filters"]["starts"] = starts
    details = {"command": command, "filtered": support["filtered"], **_created(db_path, path, created)}
    if _agent_option(agent):
        details["agent"] = agent.name
    with Store.open(db_path) as store:
        installs.record(store, path, installs.HOOK, scope, created_file=not existed, details=details)
    gate.write(db_path)
    return report


def _created(db_path: Path, path: Path, created: list[str]) -> dict:
    """``{"created": directories}``: the ones this install made for ``path`` and the ones an earlier install
    of it recorded (a second ``dp init`` makes none, and must not forget that the first made ``~/.codex``)."""
    earlier: list = next((entry.details.get("created", []) for entry in installs.read(db_path, installs.HOOK)
                    if entry.path == installs.key_path(path)), [])
    made = list(dict.fromkeys([*earlier, *created]))
    return {"created": made} if made else {}


def planned(path: Path, command: str, db_path: Path, capture_command: str | None = None,
            agent=None) -> tuple[bytes | None, bytes]:
    """What ``install`` would leave in the settings file at ``path``: (its bytes now, its bytes then).
    Nothing is written (``dp init --dry-run``)."""
    agent = agent or agents.get()
    original = read_bytes(path)
    settings = parse_settings(original, path)
    _synced(settings, path, command, agent.hooks().filter_support()["filtered"], db_path, capture_command, agent)
    return original, dump_settings(settings, original)


def _synced(settings: dict, path: Path, command: str, filtered: bool, db_path: Path, capture_command: str | None,
            agent) -> tuple:
    """dp's entries (and the capture entries, when given) synced into ``settings``:
    (wanted, status, capture entries, capture status)."""
    capture_wanted = agent.hooks().capture_entries(capture_command) if capture_command else None
    try:
        wanted = wanted_entries(command, filtered, db_path, agent)
        status = sync_entries(settings, wanted)
        capture = sync_entries(settings, capture_wanted, is_capture_hook) if capture_wanted else None
    except DpError as exc:
        raise DpError(f"{path}: {exc.message}") from None
    return wanted, status, capture_wanted, capture


def _apply(path: Path, scope: str, command: str, filtered: bool, db_path: Path,
           capture_command: str | None = None, agent=None) -> dict:
    """Sync dp's entries in one settings file with the rules (and the capture entries, when given); the report."""
    agent = agent or agents.get()
    original = read_bytes(path)
    settings = parse_settings(original, path)
    wanted, status, capture_wanted, capture = _synced(settings, path, command, filtered, db_path, capture_command,
                                                      agent)
    backup = None
    if status != "already_configured" or capture not in (None, "already_configured"):
        backup = replace_file(path, dump_settings(settings, original), expected=original, backup=True)
    report = _report(status, scope, path, backup, agent, command=command, timeout=HOOK_TIMEOUT_SECONDS)
    if _agent_option(agent):  # Claude Code's report keeps the shape it always had
        report.update(agent=agent.display, events=[event for event, groups in wanted.items() if groups])
    if capture_wanted:
        handlers = {event: groups[0]["hooks"][0] for event, groups in capture_wanted.items()}
        report["capture"] = {"status": capture, "events": list(capture_wanted), "command": capture_command,
                             "async": [event for event, handler in handlers.items() if handler.get("async")],
                             "timeout": next(iter(handlers.values())).get("timeout")}
    return report


def wanted_entries(command: str, filtered: bool, db_path: Path, agent=None) -> dict:
    """dp's entries for the rules in the store and in the project files this user trusts
    (settings are per user, so the filters hold every trusted project's words), dp's own name
    (the hook asks the person about dp's commands that widen what it does, dp.widening) and,
    while project paving is on, its command words."""
    agent = agent or agents.get()
    return agent.hooks().hook_entries(command, entry_rules(db_path), hook_words(db_path), filtered)


def entry_rules(db_path: Path) -> list:
    """The rules dp's entries follow: the store's, every trusted project file's, and the shadow rules
    (they record, so the hook must see their calls)."""
    from dp.store.readers import read_shadow_rules

    return read_rules(db_path) + trusted_project_rules(db_path) + read_shadow_rules(db_path)


def hook_words(db_path: Path) -> frozenset:
    """The command words the hook acts on with no rule: dp's own name (its commands that widen what dp
    does are the person's, dp.widening) and, while project paving is on, paving's."""
    from dp.paving import filter_words
    from dp.widening import MENTION

    return filter_words(str(Path(db_path).parent)) | {MENTION}


def hook_starts(command: str, filtered: bool, db_path: Path, agent=None) -> str | None:
    """Which calls start pave-check under the entries ``wanted_entries`` writes, in words (None when
    the agent does not say): init and doctor say this, read from the same rules and words."""
    agent = agent or agents.get()
    return agent.hooks().hook_starts(command, entry_rules(db_path), hook_words(db_path), filtered)


def trusted_project_rules(db_path: Path) -> list:
    """The rules of every trusted project file whose content is still the trusted one."""
    from dp.layers.trusting import trusted_rules
    from dp.store.read import read_or_empty

    return read_or_empty(db_path, trusted_rules)


def sync_installed(db_path: Path, parts=None) -> list[dict]:
    """After a rule change: bring dp's entries in every recorded settings file in line with the rules.

    ``parts(db_path)`` keeps what the agents hold beside their entries in line too (their ``sync`` roles,
    which build on dp.install: ``dp.refresh.agents_sync`` passes them in, so install looks no agent up).

    Returns one report per file that changed or could not be synced
    (``{"settings", "status", "error"?}``); a file whose dp entries the user
    removed by hand is left alone (and reported by ``dp doctor``).
    """
    gate.write(db_path)
    changes = list(parts(db_path)) if parts is not None else []
    for entry in installs.read(db_path, installs.HOOK):
        path = Path(entry.path)
        gone = _gone_program(entry.details.get("command", ""))
        if gone:  # dp's entries would be rewritten to a program that is not there: say so instead
            changes.append({"settings": str(path), "status": "error",
                            "error": f"{path} runs {gone}, which is gone (dp was uninstalled or moved): run "
                                     "dp doctor --fix"})
            continue
        try:
            settings = parse_settings(read_bytes(path), path)
            if not dp_hooks(settings):
                continue
            report = _apply(path, entry.scope, entry.details.get("command", ""), bool(entry.details.get("filtered")),
                            db_path, agent=recorded_agent(entry))
        except DpError as exc:
            changes.append({"settings": str(path), "status": "error", "error": exc.message})
            continue
        if report["status"] != "already_configured":
            changes.append(report)
    if not any(change["status"] == "error" for change in changes):
        _record_layers(db_path)
    return changes


def _gone_program(command: str) -> str:
    """The program of a recorded hook command when it does not exist ('' when it does, or is not a path)."""
    words = command_words(command)
    program = os.path.expanduser(words[0]) if words else ""
    return program if os.path.isabs(program) and not os.path.exists(program) else ""


def _record_layers(db_path: Path) -> None:
    """Remember which trusted project files the filters were synced with (dp.layers.synced),
    so a SessionStart can tell when one changed since."""
    import sqlite3

    from dp.layers import synced
    from dp.store import open_readonly

    try:
        conn = open_readonly(db_path)
    except sqlite3.Error:
        return
    try:
        synced.record(db_path, conn)
    except DpError:
        pass  # the next SessionStart syncs again; nothing is lost
    finally:
        if conn is not None:
            conn.close()


def recorded_agent(entry: installs.Install):
    """The agent a hook install record is for (Claude Code for records without one)."""
    return agent_named(entry.details.get("agent"))


def refuse_beside_plugin(db_path: Path, scope: str, agent, plugin_of) -> None:
    """Refuse settings entries that an installed plugin of the agent already brings (every hook would run twice).
    ``plugin_of(agent)`` is an agent's ``plugin`` role or None, handed in from above (``dp.cli.common.plugin_of``):
    the plugin builds on dp.install, which looks no agent's plugin up."""
    for owner in agents.all_agents():
        plugin = plugin_of(owner) if owner.has_role("plugin") else None
        if plugin is not None:
            plugin.refuse_settings_hooks(db_path, scope, agent)


def uninstall(path: Path, scope: str, db_path: Path | None = None, keep_file: bool = False) -> dict:
    """Take dp's entries out of the settings at ``path``; a file without them is not touched.

    When what is left is exactly what the file held before dp's entry went in
    (one of its backups), those bytes come back unchanged; otherwise the file
    is rewritten in its own style. A project or local settings file left
    empty is deleted (dp created it), with its ``.claude`` directory if that
    is then empty, so the repository keeps no trace — unless ``keep_file`` (git tracks it: the
    team's file stays, emptied of dp's entries only).
    """
    original = read_bytes(path)
    settings = parse_settings(original, path)
    removed = remove_entries(settings)
    if db_path is not None and Path(db_path).exists():
        with Store.open(db_path) as store:
            installs.forget(store, path, installs.HOOK)
    if not removed:
        return _report("not_installed", scope, path, None, removed=0)
    earlier = _earlier_form(path, settings)
    if earlier is None and original is not None and not settings and scope in ("project", "local") and not path.is_symlink() and not keep_file:
        backup = remove_file(path, expected=original)
        _remove_if_empty(path.parent)
        return _report("removed", scope, path, backup, removed=removed, deleted=True)
    backup = replace_file(path, earlier or dump_settings(settings, original), expected=original, backup=True)
    return _report("removed", scope, path, backup, removed=removed)


def _earlier_form(path: Path, settings: dict) -> bytes | None:
    """The newest backup of ``path`` holding exactly ``settings`` (same keys, order, values), if any.

    A backup's empty ``"hooks": {}`` counts as absent: removing dp's entry
    drops the object it leaves empty, and the backup puts the user's back.
    """
    wanted = json.dumps(settings)
    for candidate in backups_of(path):
        try:
            data = read_bytes(candidate)
            earlier = parse_settings(data, candidate)
        except DpError:
            continue
        if earlier.get("hooks") == {}:
            del earlier["hooks"]
        if json.dumps(earlier) == wanted:
            return data
    return None


def _remove_if_empty(directory: Path) -> None:
    """Remove the agent's config directory dp's file left empty: ``.claude/``, or ``.github/hooks/``
    and then ``.github/`` — up to and including the first dot-directory, never the project above it."""
    while True:
        if not remove_empty_directory(directory):
            return  # not empty, or not ours to remove: leave it
        if directory.name.startswith(".") or not directory.parent.name.startswith("."):
            return
        directory = directory.parent


def _report(status: str, scope: str, path: Path, backup: Path | None, agent=None, **extra) -> dict:
    return {
        "status": status,
        "hook": agent.pre_tool_hook if agent is not None else EVENT,
        "scope": scope,
        "settings": str(path),
        **extra,
        "backup": str(backup) if backup else None,
    }
