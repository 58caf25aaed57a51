"""The ``plugin`` lines of ``dp doctor``: is dp's Claude Code plugin there, and which path fixes a
hallucinated tool name — the mod, or the SessionStart/PostToolBatch corrections?

That is decided from evidence, not from the client's version: mods stay off
on releases without them, where ``CLAUDE_CODE_ENABLE_FUNCTION_HOOKS=0`` turns
them off (2.1.286), under ``disableAllHooks``, ``allowManagedHooksOnly`` or
``--safe-mode``, or when the client's rollout switch reads off. The mod writes
its own record when it loads (``claude-mod/loaded.json``: the session's id);
the latest session is the newest transcript. Same id: the mod is in effect.
"""

from __future__ import annotations

from pathlib import Path

from dp.doctor.findings import OK, WARNING, Finding

FALLBACK = ("the SessionStart and PostToolBatch corrections are what reach the model (the client refuses the "
            "name, then dp tells it the right one)")


def check(db_path: Path, cwd: Path, rules) -> list[Finding]:
    """The plugin lines (``rules`` and ``cwd`` do not matter to them)."""
    from dp.agents.claude import mod_snapshot
    from dp.store import installs

    findings = []
    for entry in installs.read(db_path, installs.PLUGIN):
        plugin = entry.details.get("plugin", "dp")
        if not Path(entry.path).is_dir():
            findings.append(Finding("plugin", WARNING, f"{plugin}: its marketplace {entry.path} is gone",
                                    f"dp pave --plugin --scope {entry.scope}"))
            continue
        findings.append(Finding("plugin", OK, f"{plugin} ({entry.scope} scope) from the marketplace {entry.path}"))
        record = mod_snapshot.load_record(db_path)
        findings.append(_path_in_effect(record))
        if entry.scope == "user":
            findings.append(_bash_path(record))
    return findings


def _path_in_effect(record: dict | None) -> Finding:
    latest = latest_session()
    if latest is None:
        return Finding("plugin", OK, "no Claude Code session yet: the next one shows whether the mod loads")
    loaded = record.get("session_id") if record else None
    if loaded == latest:
        return Finding("plugin", OK, f"the mod loaded in the latest session ({latest}): a hallucinated tool name "
                                     "a rule maps runs as the real tool")
    return Finding("plugin", WARNING, f"the mod did not load in the latest session ({latest}): {FALLBACK}", _why_no_mod())


def _why_no_mod() -> str:
    """The fix for a mod that did not load: an upgrade when the installed client is too old for mods
    (``client.MODS_SINCE``), else what else keeps them off."""
    from dp.agents import get
    from dp.agents.claude.client import MODS_SINCE, spelled

    too_old = get().lacks(get().installed_version())
    if too_old:
        return too_old
    return (f"mods need Claude Code {spelled(MODS_SINCE)} or later, and no CLAUDE_CODE_ENABLE_FUNCTION_HOOKS=0 "
            f"({spelled(MODS_SINCE)}), disableAllHooks, allowManagedHooksOnly or --safe-mode")


def _bash_path(record: dict | None) -> Finding:
    """Which path the latest session's Bash calls took: the mod's front door (pave-check only for a
    command with a word dp can act on) or the classic handler (pave-check for every call)."""
    latest = latest_session()
    if latest is not None and record and record.get("session_id") == latest and record.get("front_door"):
        capture = ("; dp-capture only after a failure, for the calls just after it and for a call the mod fixed"
                   if record.get("capture") else "")
        return Finding("plugin", OK, f"Bash went through the mod's front door in the latest session ({latest}): "
                                     f"pave-check started only for commands a rule or paving can act on{capture}")
    where = f"in the latest session ({latest})" if latest else "until a session loads the mod"
    return Finding("plugin", OK, f"Bash went to the classic hook {where}: pave-check started for every call")


def latest_session(directory: Path | None = None) -> str | None:
    """The id of the newest Claude Code session on this machine (its newest transcript's name)."""
    from dp.agents.claude.sessions import DEFAULT_DIR

    root = (directory or DEFAULT_DIR).expanduser()
    newest, when = None, -1.0
    try:
        projects = list(root.iterdir())
    except OSError:
        return None
    for project in projects:
        try:
            for path in project.glob("*.jsonl"):
                mtime = path.stat().st_mtime
                if mtime > when:
                    newest, when = path.stem, mtime
        except OSError:
            continue
    return newest
