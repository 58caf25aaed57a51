"""The ``hook`` lines of ``dp doctor``: is pave-check installed, runnable, fast to start and free to act?

One entry speaks for each settings file (the others share its command); its
program must exist, be executable and not be a version-manager shim or the
whole ``dp`` CLI, and the entry must not be ``async`` or time out absurdly.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from dp.agents import NAME_YOUR_AGENT
from dp.agents import settings as hook_settings
from dp.agents.executable import hook_options, shim_reason
from dp.doctor.findings import ERROR, OK, WARNING, Finding
from dp.doctor.settings_files import SettingsFile, installed, reinstall_command, scope_option

MAX_SANE_TIMEOUT = 60


def check_hook(files: list[SettingsFile], db_path: Path, other_agents=()) -> list[Finding]:
    """``other_agents``: the agents dp is installed for besides Claude Code (then its absence is no error)."""
    entries = installed(files)
    if not entries:
        from dp.store import installs

        plugins = installs.read(db_path, installs.PLUGIN)
        if plugins:
            carried = ", ".join(entry.details.get("plugin", "dp") for entry in plugins)
            return [Finding("hook", OK, f"dp's hooks come with the Claude Code plugin {carried} (see plugin)")]
        if not default_agent_present():
            return [_no_default_agent(other_agents)]
        if other_agents:
            return [Finding("hook", WARNING, "the dp hook is not installed in any Claude Code settings "
                            f"(dp is installed for {', '.join(other_agents)})", "dp pave --hook")]
        return [Finding("hook", ERROR, "the dp hook is not installed in any Claude Code settings", "dp pave --hook")]
    findings = []
    for file, _, _, hook in _one_per_file(entries):
        findings += _check_entry(file, hook, db_path)
    findings += _misplaced(entries)
    return findings + _managed_only(files, entries) + _more_than_one_scope(entries)


NO_DEFAULT_AGENT = "no Claude Code found (no claude on PATH, no ~/.claude)"


def default_agent_present() -> bool:
    """Whether this machine has Claude Code (``dp init`` writes its settings only then)."""
    from dp.agents import get

    return get().is_present()


def init_command() -> str:
    """The ``dp init`` that works here: without Claude Code, it must name the agent."""
    return "dp init" if default_agent_present() else "dp init --agent NAME (see dp init --help)"


def _no_default_agent(other_agents) -> Finding:
    """No Claude Code and no dp entries for it: nothing to install or check there, which is no error; without
    any other agent either, the fix says how to name one (``dp init --help`` lists them all)."""
    if other_agents:
        return Finding("hook", OK, f"{NO_DEFAULT_AGENT}: nothing to check for it; dp is installed for "
                                   f"{', '.join(other_agents)}")
    return Finding("hook", WARNING, f"{NO_DEFAULT_AGENT}, and dp is installed for no other agent",
                   f"install Claude Code and run dp init, or name your agent: {NAME_YOUR_AGENT}")


def _check_entry(file: SettingsFile, hook: dict, db_path: Path) -> list[Finding]:
    where, reinstall = file.where, reinstall_command(file)
    command = hook.get("command", "")
    words = hook_settings.command_words(command)
    program = os.path.expanduser(os.path.expandvars(words[0]))  # as the shell would
    if os.path.basename(program) == "dp":
        message = f"{where} runs '{command}': dp is looked up on PATH and loads its whole CLI on every tool call"
        return [Finding("hook", WARNING, message, reinstall)]
    if os.path.isabs(program) and not os.path.exists(program):
        return []  # a program that is gone: the dangling check reports it, with the fix (dp doctor --fix)
    resolved = program if os.path.isabs(program) else shutil.which(program)
    if not resolved or not os.path.exists(resolved):
        return [Finding("hook", ERROR, f"{where}: hook program {program} does not exist", reinstall)]
    if not os.access(resolved, os.X_OK) or os.path.isdir(resolved):
        return [Finding("hook", ERROR, f"{where}: hook program {resolved} is not executable", reinstall)]
    findings = [Finding("hook", OK, f"installed in {where}: {command}")]
    for status, problem in _slow_program(program, resolved) + _entry_problems(hook):
        findings.append(Finding("hook", status, f"{where}: {problem}", reinstall))
    hook_db = hook_options(words).get("db")
    expected = Path(db_path).expanduser().absolute()
    actual = Path(hook_db).expanduser().absolute() if hook_db else _default_db()
    if actual != expected:
        findings.append(
            Finding(
                "hook",
                WARNING,
                f"{where}: the hook reads {actual} but dp here uses {expected}",
                f"{reinstall} (with the --db / DP_DB you want the hook to use)",
            )
        )
    return findings


def _slow_program(program: str, resolved: str) -> list[tuple[str, str]]:
    """What makes every call of this program slower than it needs to be."""
    problems = []
    if not os.path.isabs(program):
        problems.append((WARNING, f"hook program '{program}' is looked up on PATH at every call"))
    reason = shim_reason(resolved)
    if reason:
        problems.append((WARNING, f"{reason}; it adds ~100 ms to every tool call"))
    return problems


def _entry_problems(hook: dict) -> list[tuple[str, str]]:
    """Fields of the entry that stop the hook from acting, or let a stuck one stall the agent."""
    problems = []
    disabling = [key for key in hook_settings.DISABLING_FIELDS if hook.get(key)]
    if disabling:
        problems.append((ERROR, f"the dp hook has {disabling[0]!r} set, so it cannot block or rewrite tool calls"))
    timeout = hook.get("timeout")
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 < timeout <= MAX_SANE_TIMEOUT:
        shown = "missing (Claude Code waits up to 600 s)" if timeout is None else f"{timeout!r} s"
        problems.append((WARNING, f"hook timeout is {shown}; a stuck hook would stall the agent"))
    return problems


def _one_per_file(entries):
    """The entry that speaks for each file: its first PreToolUse handler, else its first dp entry
    (the others share its command; whether they are the right set is the ``entries`` check)."""
    chosen = {}
    for entry in entries:
        file, event = entry[0], entry[1]
        if id(file) not in chosen or (event == hook_settings.EVENT and chosen[id(file)][1] != event):
            chosen[id(file)] = entry
    return list(chosen.values())


def _misplaced(entries) -> list[Finding]:
    """pave-check registered for an event it does not answer."""
    from dp.agents import get

    answered = get().answered_events()
    return [
        Finding(
            "hook",
            WARNING,
            f"pave-check is registered for {event} in {file.where}, where it does nothing",
            f"dp pave --unhook{scope_option(file)} && {reinstall_command(file)}",
        )
        for file, event, _, _ in entries
        if event not in answered
    ]


def _managed_only(files: list[SettingsFile], entries) -> list[Finding]:
    """Managed settings that allow only managed hooks, while dp's is elsewhere."""
    locked = [file for file in files if file.scope == "managed" and file.data.get("allowManagedHooksOnly") is True]
    if not locked or any(file.scope == "managed" for file, _, _, _ in entries):
        return []
    return [
        Finding(
            "hook",
            ERROR,
            f"{locked[0].path} sets allowManagedHooksOnly: hooks from user and "
            "project settings, dp's included, do not run",
            "ask your administrator to add the pave-check hook to the managed settings",
        )
    ]


def _more_than_one_scope(entries) -> list[Finding]:
    scopes = sorted({file.scope for file, _, _, _ in entries})
    if len(scopes) < 2:
        return []
    extra = [scope for scope in scopes if scope != "user"] or scopes[1:]
    return [
        Finding(
            "hook",
            WARNING,
            f"the dp hook is installed in {len(scopes)} scopes "
            f"({', '.join(scopes)}): it runs more than once per tool call",
            f"dp pave --unhook --scope {extra[0]}" if extra[0] in hook_settings.SCOPES else "remove the extra entry",
        )
    ]


def _default_db() -> Path:
    from dp.store import DEFAULT_DB

    return DEFAULT_DB.expanduser().absolute()
