"""``dp doctor`` for Codex CLI: dp's entries in Codex's hooks files, and whether Codex will run them.

Codex skips a hook nobody trusted without a word, so an installed hook can be
silently dead. For each hooks file holding dp's entries (the user's
``$CODEX_HOME/hooks.json``, the project's ``.codex/hooks.json``) this says:
which of dp's events are there and run with ``--agent codex``; whether each
handler is trusted, changed since it was trusted, disabled or never trusted
(``dp/agents/codex/trust.py`` computes the hash Codex records); and, for a project
file, whether the project itself is trusted (Codex loads ``.codex/`` only
then). Nothing is reported when dp is not installed for Codex at all.
"""

from __future__ import annotations

import os
from pathlib import Path

from dp.agents.codex import trust
from dp.agents.settings import is_capture_hook, is_dp_hook, parse_settings
from dp.doctor.findings import OK, WARNING, Finding
from dp.errors import DpError
from dp.files import read_bytes

CHECK = "codex"
HOOK_EVENTS = ("PreToolUse", "SessionStart")  # pave-check's; PostToolUse is dp-capture's (dp init)
HOW_TO_TRUST = ("open `codex`, type /hooks and trust dp's hooks (automation that vets its hooks can run "
                "`codex exec --dangerously-bypass-hook-trust` instead)")


def check(db_path: Path, cwd: Path, rules) -> list[Finding]:
    from dp.agents import get

    agent = get("codex")
    config, config_error = _user_config()
    findings = []
    for scope, path in _places(agent, cwd):
        entries = _dp_entries(path)
        if not entries:  # none of dp's, or a file dp cannot read (the install commands say why)
            continue
        findings += _entries_findings(scope, path, entries)
        if config_error:
            findings.append(Finding(CHECK, WARNING, config_error, "fix or move the file aside, then run dp doctor"))
            continue
        findings.append(_trust_finding(scope, path, entries, config))
        if scope == "project":
            findings.append(_project_trust(path.parent.parent, config))
    return findings


def _places(agent, cwd: Path) -> list[tuple[str, Path]]:
    """Codex's hooks files for this directory: the user's, and the project's (at the git root, or here)."""
    from dp.paths import find_upwards

    root = find_upwards(cwd.resolve(), ".git") or cwd
    hooks = agent.hooks()
    places = [("user", hooks.config_path("user")), ("project", hooks.config_path("project", project_dir=root))]
    seen, unique = set(), []
    for scope, path in places:
        if os.path.realpath(path) not in seen:
            seen.add(os.path.realpath(path))
            unique.append((scope, path))
    return unique


def _dp_entries(path: Path):
    """[(event, group index, handler index, matcher, handler)] of dp's handlers in a hooks file; None if unreadable."""
    try:
        settings = parse_settings(read_bytes(path), path)
    except DpError:
        return None
    found = []
    hooks = settings.get("hooks")
    hooks = hooks if isinstance(hooks, dict) else {}
    for event, groups in hooks.items():
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if is_dp_hook(handler) or is_capture_hook(handler):
                    found.append((event, g, h, group.get("matcher"), handler))
    return found


def _entries_findings(scope: str, path: Path, entries) -> list[Finding]:
    where = f"Codex CLI {scope} scope ({path})"
    fix = f"dp pave --hook --agent codex --scope {scope}"
    events = {event for event, *_ in entries}
    missing = [event for event in HOOK_EVENTS if event not in events]
    wrong = sorted({event for event, _, _, _, handler in entries if "--agent codex" not in str(handler.get("command"))
                    and "--agent=codex" not in str(handler.get("command"))})
    findings = []
    if wrong:
        findings.append(Finding(CHECK, WARNING, f"{where}: dp's {', '.join(wrong)} hook runs without `--agent codex` "
                                                "and answers in Claude Code's format, which Codex misreads", fix))
    if missing:
        findings.append(Finding(CHECK, WARNING, f"{where}: dp's {', '.join(missing)} entr"
                                                f"{'ies are' if len(missing) > 1 else 'y is'} missing", fix))
    if not findings:
        findings.append(Finding(CHECK, OK, f"{where}: dp's PreToolUse and SessionStart hooks installed"))
    if not any(is_capture_hook(handler) for *_, handler in entries):
        findings.append(Finding(CHECK, WARNING, f"{where}: the capture hook is not installed (failed calls are not "
                                           "recorded)", f"dp init --agent codex --scope {scope} "
                                                        "(dp ingest --codex-sessions reads past sessions)"))
    return findings


def _trust_finding(scope: str, path: Path, entries, config: dict) -> Finding:
    where = f"Codex CLI {scope} scope ({path})"
    states: dict[str, list[str]] = {}
    for event, g, h, matcher, handler in entries:
        states.setdefault(trust.status(config, path, event, g, h, matcher, handler), []).append(event)
    if set(states) == {trust.TRUSTED}:
        return Finding(CHECK, OK, f"{where}: Codex trusts dp's hooks (they run in every session)")
    parts = [f"{state}: {', '.join(events)}" for state, events in sorted(states.items()) if state != trust.TRUSTED]
    message = (f"{where}: dp's hooks are installed but Codex skips them silently until you trust them "
               f"({'; '.join(parts)})")
    return Finding(CHECK, WARNING, message, HOW_TO_TRUST, trust={state: events for state, events in states.items()})


def _project_trust(project: Path, config: dict) -> Finding:
    projects = config.get("projects")
    projects = projects if isinstance(projects, dict) else {}
    level = next((value.get("trust_level") for key, value in projects.items()
                  if isinstance(value, dict) and os.path.realpath(key) == os.path.realpath(project)), None)
    if level == "trusted":
        return Finding(CHECK, OK, f"Codex CLI trusts the project {project} (it loads its .codex/ hooks)")
    return Finding(CHECK, WARNING, f"Codex CLI loads {project}/.codex/hooks.json only in a trusted project, "
                                   f"and {project} is {'marked ' + str(level) if level else 'not trusted'}",
                   f"run `codex` in {project} and trust it when asked (or `codex exec --trust` once)")


def _user_config() -> tuple[dict, str]:
    """Codex's user ``config.toml`` (``{}`` when absent) and, when it cannot be read, why."""
    home = os.environ.get("CODEX_HOME")
    path = (Path(home).expanduser() if home else Path.home() / ".codex") / "config.toml"
    try:
        data = read_bytes(path)
    except DpError as exc:
        return {}, exc.message
    if data is None:
        return {}, ""
    from dp.rules.fast_toml import tomllib

    try:
        return tomllib.loads(data.decode("utf-8")), ""
    except (UnicodeDecodeError, ValueError) as exc:
        return {}, f"{path} cannot be read as TOML ({exc}); dp cannot tell whether Codex trusts its hooks"
