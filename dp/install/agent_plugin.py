"""Installing an agent's plugin file: for agents whose extension point is code dp ships, not hook entries.

The agent's "hooks" role names the file per scope (``config_path``), and its "install" role
(``Agent.plugin``) writes and removes it (``install`` / ``uninstall``, ``dp/agents/roles.py``); here is
what is the same for every such agent: the commands the plugin runs (the
real installed pave-check and dp-capture, as the settings hooks get them),
the install record ``dp uninstall`` and ``dp doctor`` read, and the report.
"""

from __future__ import annotations

from pathlib import Path

from dp.errors import DpError
from dp.store import Store, installs


def install(agent, scope: str | None, explicit: Path | None, db_path: Path, permission: str = "none",
            mode: str = "rewrite", capture: bool = True) -> dict:
    """Put ``agent``'s plugin in place for ``scope`` and record it; the report."""
    from dp.install import hook

    if explicit is not None:
        raise DpError(f"{agent.display} takes dp as a plugin file, not settings entries: use --scope "
                      f"{' or '.join(agent.scopes)}, not --settings")
    label, path = hook.target(scope, None, agent)
    command = hook.command_for(db_path, permission, mode, agent)
    capture_command = hook.capture_command_for(db_path, agent) if capture else None
    installs.require_recordable(path)
    existed = path.exists()
    report = agent.role("install").install(path, label, command, capture_command)
    details = {"agent": agent.name, "command": command, "created": report.get("created", [])}
    with Store.open(db_path) as store:
        installs.record(store, path, installs.AGENT_PLUGIN, label, created_file=not existed, details=details)
    return {**report, "agent": agent.display, "hook": agent.pre_tool_hook}


def remove(path: Path, entry: installs.Install) -> dict:
    """``dp uninstall``'s remover for an ``agent-plugin`` record."""
    from dp.install.hook import agent_named

    return agent_named(entry.details.get("agent")).role("install").uninstall(path, entry.details)


def uninstall(agent, path: Path, scope: str, db_path: Path) -> dict:
    """``dp pave --unhook --agent NAME``: the plugin at ``path`` out, and its record forgotten."""
    recorded = {entry.path: entry for entry in installs.read(db_path, installs.AGENT_PLUGIN)}
    entry = recorded.get(installs.key_path(path))
    report = agent.role("install").uninstall(path, entry.details if entry else {})
    if entry is not None and Path(db_path).exists():
        with Store.open(db_path) as store:
            installs.forget(store, path, installs.AGENT_PLUGIN)
    return {**report, "scope": scope, "settings": str(path), "hook": agent.pre_tool_hook, "agent": agent.display}


def planned(agent, path: Path, scope: str, db_path: Path, permission: str = "none", mode: str = "rewrite",
            capture: bool = True) -> dict:
    """The files an install would write (path → content), for ``dp init --dry-run``; nothing is written."""
    from dp.install import hook

    command = hook.command_for(db_path, permission, mode, agent)
    capture_command = hook.capture_command_for(db_path, agent) if capture else None
    return agent.role("install").files(path, scope, command, capture_command)


def change(install_plugin: bool, scope: str | None, explicit: Path | None, db_path: Path, permission: str = "none",
           mode: str = "rewrite", agent=None) -> dict:
    """``dp pave --hook`` / ``--unhook`` for an agent dp reaches through a plugin file; the report."""
    from dp.install import hook

    if install_plugin:
        return hook.with_stability_warning(install(agent, scope, explicit, db_path, permission, mode))
    label, path = hook.target(scope, explicit, agent)
    return uninstall(agent, path, label, db_path)
