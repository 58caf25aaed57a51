"""The lines of ``dp doctor`` for every agent other than Claude Code that has dp installed.

Claude Code has its own subjects (``hook``, ``entries``, ``latency`` …). For
another agent, each settings file of its scopes (and each recorded install)
that holds dp's entries is checked the same way whatever the agent: the file
must parse, dp's entries must be the ones its adapter wants (the before-tool
event, the session start), and the installed command must answer a sample
call in that agent's JSON within its timeout. Then what the agent's contract
cannot do is said where it matters: a tool-name alias cannot block a name the
agent does not know, so doctor says how the corrections reach it instead.
"""

from __future__ import annotations

import os
from pathlib import Path

from dp.doctor.findings import ERROR, OK, WARNING, Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dp.agents.base import Agent

CHECK = "agents"


def installed_files(cwd: Path, db_path: Path) -> list[tuple[Agent, str, Path, dict | None, str]]:
    """(agent, scope, settings file, parsed settings, error) of every non-default agent's file holding
    dp's entries; a file that cannot be read comes with None and why."""
    from dp.agents import DEFAULT, all_agents
    from dp.agents.settings import dp_hooks, is_capture_hook, iter_hooks, parse_settings
    from dp.errors import DpError
    from dp.files import read_bytes
    from dp.install.hook import recorded_agent
    from dp.store import installs

    places = [(agent, scope, agent.hooks().config_path(scope, project_dir=cwd))
              for agent in all_agents() if agent.name != DEFAULT and not agent.plugin for scope in agent.scopes]
    for entry in installs.read(db_path, installs.HOOK):
        try:
            agent = recorded_agent(entry)
        except DpError:
            continue
        if agent.name != DEFAULT:
            places.append((agent, entry.scope or "custom", Path(entry.path)))
    found: list[tuple[Agent, str, Path, dict | None, str]] = []
    seen = set()
    for agent, scope, path in places:
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        try:
            settings = parse_settings(read_bytes(path), path)
        except DpError as exc:
            found.append((agent, scope, path, None, exc.message))
            continue
        if dp_hooks(settings) or any(is_capture_hook(hook) for _, _, hook in iter_hooks(settings)):
            found.append((agent, scope, path, settings, ""))
    return found


def check_agents(db_path: Path, cwd: Path, rules) -> list[Finding]:
    findings, agents_seen = [], {}
    for agent, scope, path, settings, error in installed_files(cwd, db_path):
        where = f"{agent.display}, {scope} scope ({path})"
        if agent.has_role("doctor"):  # checked by its own doctor role (dp/agents/<agent>/doctor.py)
            findings += _stale(agent, scope, path, settings, db_path) + _starts(agent, where, settings)
            continue
        if settings is None:
            findings.append(Finding(CHECK, ERROR, f"{where}: {error}", "fix the file by hand"))
            continue
        agents_seen[agent.name] = agent
        findings += (_check_file(agent, scope, where, settings, cwd) + _stale(agent, scope, path, settings, db_path)
                     + _starts(agent, where, settings))
    for agent, scope, path, command in installed_plugins(cwd, db_path):
        agents_seen[agent.name] = agent
        findings += _check_plugin(agent, scope, path, command, cwd)
        findings.append(Finding(CHECK, OK, f"{agent.display}, {scope} scope ({path}): {_plugin_starts(db_path)}"))
    for agent in agents_seen.values():
        findings.append(_aliases(agent, rules))
    return findings


def _starts(agent, where: str, settings: dict | None) -> list[Finding]:
    """Which calls start a dp process under the agent's entries in ``settings``, read from the entries
    themselves (each group's matcher, dp.agents.matchers): pave-check and dp-capture, per event."""
    from dp.agents.matchers import starts
    from dp.agents.settings import dp_hooks, is_capture_hook, iter_hooks

    if settings is None:
        return []
    said = starts([(event, group) for event, group, _ in dp_hooks(settings)])
    said += starts([(event, group) for event, group, hook in iter_hooks(settings) if is_capture_hook(hook)],
                   "dp-capture")
    if not said:
        return []
    return [Finding(CHECK, OK, f"{where}: dp starts {'; '.join(said)}")]


def _stale(agent, scope: str, path: Path, settings: dict | None, db_path: Path) -> list[Finding]:
    """A warning when dp's entries in a file dp installed are not the ones the rules call for now (their
    matchers follow the rules: dp.agents.matchers), e.g. after a store another program wrote, whose sync
    never ran. The command is the one the install recorded (the file's may carry the agent's additions)."""
    import copy

    from dp.agents.settings import sync_entries
    from dp.install.hook import wanted_entries
    from dp.store import installs

    key = installs.key_path(path)
    command = next((entry.details.get("command") for entry in installs.read(db_path, installs.HOOK)
                    if entry.path == key), None)
    if settings is None or not isinstance(command, str):
        return []
    try:
        current = sync_entries(copy.deepcopy(settings), wanted_entries(command, False, db_path, agent))
    except Exception:  # noqa: BLE001 - a file or store doctor cannot read is reported by its own check
        return []
    if current == "already_configured":
        return []
    return [Finding(CHECK, WARNING, f"{agent.display}, {scope} scope ({path}): dp's hook entries are not the ones "
                                    "the rules call for (edited by hand, or a rule changed without a sync): a call a "
                                    "rule names may not reach dp",
                    _fix(agent, scope))]


def _plugin_starts(db_path: Path) -> str:
    """What the plugin starts dp for: it decides from the hook gate as JSON (dp.hook.gate ``door``)."""
    from dp.hook import gate

    state = gate.state(db_path)
    return ("the plugin starts pave-check only for a call a rule, alias or paving word can concern, and dp-capture "
            "only for a failure and the 5 Bash calls after it" + (
                "" if state == "fresh" else f"; the hook gate is {state}, so every call asks dp until a dp command "
                                            "writes it (dp doctor --fix, or any rule change)"))


def installed_plugins(cwd: Path, db_path: Path) -> list[tuple[Agent, str, Path, str]]:
    """(agent, scope, plugin file, recorded pave-check command) of every plugin file dp installed for an
    agent whose extension point is a plugin (``Agent.plugin``): the recorded ones, and one found in a scope
    of this directory without a record (its command then '')."""
    from dp.agents import all_agents
    from dp.errors import DpError
    from dp.install.hook import agent_named
    from dp.store import installs

    found, seen = [], set()
    for entry in installs.read(db_path, installs.AGENT_PLUGIN):
        try:
            agent = agent_named(entry.details.get("agent"))
        except DpError:
            continue
        seen.add(os.path.realpath(entry.path))
        found.append((agent, entry.scope, Path(entry.path), entry.details.get("command", "")))
    for agent in all_agents():
        for scope in agent.scopes if agent.plugin else ():
            path = agent.hooks().config_path(scope, project_dir=cwd)
            if os.path.realpath(path) not in seen and path.exists():
                seen.add(os.path.realpath(path))
                found.append((agent, scope, path, ""))
    return found


def _check_plugin(agent, scope: str, path: Path, command: str, cwd: Path) -> list[Finding]:
    """The plugin file is there and is the one this dp ships, and the command it runs answers."""
    where = f"{agent.display}, {scope} scope ({path})"
    state = agent.role("install").state(path)
    if state != "current":
        severity = WARNING if state == "outdated" else ERROR
        return [Finding(CHECK, severity, f"{where}: dp's plugin is {state}", _fix(agent, scope))]
    if not command:
        return [Finding(CHECK, OK, f"installed in {where}: the plugin runs the pave-check on PATH")]
    return [finding for finding in [_answers(agent, where, command, cwd, scope)] if finding is not None]


def installed_agents(db_path: Path, cwd: Path) -> list[str]:
    """The display names of the non-default agents dp is installed for (for the Claude Code lines)."""
    names = []
    for agent, _, _, settings, _ in installed_files(cwd, db_path):
        if settings is not None and agent.display not in names:
            names.append(agent.display)
    return names


def _fix(agent, scope: str) -> str:
    return f"dp pave --hook --agent {agent.name}" + (f" --scope {scope}" if scope in agent.scopes else "")


def _check_file(agent, scope: str, where: str, settings: dict, cwd: Path) -> list[Finding]:
    from dp.agents.settings import dp_hooks

    hooks = dp_hooks(settings)
    events = {event for event, _, _ in hooks}
    # An agent whose SessionStart output never reaches the model gets no such entry (answered_events).
    wanted = [event for event in (agent.pre_tool_hook, "SessionStart") if event in agent.answered_events()]
    missing = [event for event in wanted if event not in events]
    if missing:
        return [Finding(CHECK, ERROR if agent.pre_tool_hook in missing else WARNING,
                        f"{where}: dp's {' and '.join(missing)} entr{'ies are' if len(missing) > 1 else 'y is'} "
                        "missing", _fix(agent, scope))]
    command = next(hook.get("command") for event, _, hook in hooks if event == agent.pre_tool_hook)
    return [finding for finding in [_answers(agent, where, command, cwd, scope)] if finding is not None]


def _answers(agent, where: str, command, cwd: Path, scope: str) -> Finding | None:
    """Run the installed command once with a sample call in the agent's JSON, as the agent would
    (None for a program that is gone: the dangling check reports it, with its fix)."""
    from dp.agents.executable import hook_argv
    from dp.install.hookcall import call

    argv = hook_argv(command)
    if argv is not None and os.path.isabs(argv[0]) and not os.path.exists(argv[0]):
        return None
    if argv is None:
        return Finding(CHECK, WARNING, f"{where}: the hook command {command!r} is not plain pave-check; not run",
                       _fix(agent, scope))
    if "--agent" not in argv or argv[argv.index("--agent") + 1:argv.index("--agent") + 2] != [agent.name]:
        return Finding(CHECK, ERROR, f"{where}: {command} reads Claude Code's JSON, not {agent.display}'s",
                       _fix(agent, scope))
    payload = agent.hooks().sample_payload(agent.agent_tool("Bash"), {"command": "git status"}, cwd)
    result = call(argv, payload, cwd)
    if result.error or result.returncode != 0:
        problem = result.error or f"exit {result.returncode}: {result.stderr.strip()[-200:]}"
        return Finding(CHECK, ERROR, f"{where}: {command} failed a sample call ({problem})", _fix(agent, scope))
    return Finding(CHECK, OK, f"installed in {where}: {command} (a sample call took {result.seconds * 1000:.0f} ms)",
                   milliseconds=round(result.seconds * 1000, 1))


def _aliases(agent, rules) -> Finding:
    """How tool-name aliases reach an agent whose contract keeps them from blocking."""
    from dp.rules.model import TOOL_ALIAS

    promise = next(p for p in agent.promises() if p.name == "tool_alias_block")
    spelled = [rule for rule in agent.spelled_rules(rules or []) if rule.match_kind == TOOL_ALIAS]
    if promise.kept or not spelled:
        return Finding(CHECK, OK, f"{agent.display}: {len(spelled)} tool-name alias(es) apply")
    count = f"{len(spelled)} tool-name alias{'es' if len(spelled) != 1 else ''}"
    return Finding(CHECK, OK,
                   f"{agent.display} rejects a tool name it does not know before any hook runs, so {count} "
                   f"cannot block there; they reach the model as context at session start (and from "
                   f"{agent.instructions_file} with dp pave --agents-md --agent {agent.name} "
                   f"--include-personal --output {agent.instructions_file})")
