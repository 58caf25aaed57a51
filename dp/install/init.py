"""``dp init``: the store, the hook and the live demonstration, as one report.

Every step is idempotent (an existing store is opened, not replaced; an
installed hook is left as it is), so running it again is always safe.
"""

from __future__ import annotations

from pathlib import Path

from dp.agents import get
from dp.files import describe_change
from dp.install import demo, hook


def ensure_store(db_path: Path) -> dict:
    """Create (or open and migrate) the store, and the hook's gate beside it (dp.hook.gate: the
    first call of a new install is answered from it); what the store holds now."""
    from dp.hook import gate
    from dp.store import Store

    existed = db_path.exists()
    with Store.open(db_path) as store:
        report = {
            "path": str(db_path),
            "status": "exists" if existed else "created",
            "schema_version": store.schema_version,
            "rules": len(store.list_rules()),
        }
    gate.write(db_path)
    return report


def init(
    db_path: Path,
    scope: str | None = None,
    explicit: Path | None = None,
    permission: str = "none",
    mode: str = "rewrite",
    mcp: bool = False,
    capture: bool = True,
    agent=None,
    plugin: bool | None = None,
    dry_run: bool = False,
    *,
    plugin_of,
) -> dict:
    """Set dp up; ``demo.ok`` says whether the installed hook really works.

    With ``dry_run`` nothing is written, created or run: the report says what
    would be (``plan``).

    With ``mcp`` the MCP server is registered too, in the same scope as the
    hook (user unless ``scope`` is project). ``capture`` also installs the
    dp-capture entries (PostToolUse and PostToolUseFailure) that record what
    agents get wrong. ``plugin`` None chooses (``plugin_by_default``): Claude Code's plugin where
    the client loads its mod, the settings hooks elsewhere. ``plugin_of(agent)`` is an agent's ``plugin`` role
    or None, handed in by the command line (``dp.cli.common.plugin_of``): the plugin builds on dp.install.
    """
    from dp.install import mcp as pave_mcp

    chosen = plugin_by_default(agent, scope, explicit, plugin_of) if plugin is None else None
    if plugin or chosen:
        report = _init_plugin(plugin_of(get()), db_path, scope, explicit, permission, mode, capture, dry_run)
        return {**report, "chosen": chosen} if chosen else report
    if agent is not None and agent.plugin:
        return _init_agent_plugin(agent, db_path, scope, explicit, permission, mode, capture, dry_run)
    label, path = hook.target(scope, explicit, agent)  # bad options fail before anything is created
    hook.refuse_beside_plugin(db_path, label, agent, plugin_of)
    command = hook.command_for(db_path, permission, mode, agent)
    capture_command = hook.capture_command_for(db_path, agent) if capture else None
    if mcp:
        pave_mcp.target(scope)
        pave_mcp.server_command()
    if dry_run:
        original, after = hook.planned(path, command, db_path, capture_command, agent)
        report = plan(db_path, [describe_change(path, original, after)],
                      [f"register dp's MCP server in {pave_mcp.target(scope)[1]}"] if mcp else [],
                      _team_commands(plugin_of(agent or get()), db_path))
        warning = hook.with_stability_warning({"command": command}).get("warning")
        return {**report, "warning": warning} if warning else report
    store = ensure_store(db_path)
    installed = hook.with_stability_warning(
        hook.install(path, command, label, db_path, capture_command=capture_command, agent=agent))
    from dp.paving.switch import globally_enabled

    paving = {"enabled": globally_enabled(str(db_path.parent))}
    report = {"store": store, "hook": installed, "paving": paving, "demo": demo.run(command, agent),
              **_lacks(agent, (installed.get("filters") or {}).get("version"))}
    if mcp:
        report["mcp"] = pave_mcp.install(scope, db_path)
    plugins = plugin_of(agent or get())
    if plugins is not None:  # a project's committed plugin of this agent, registered for this person if trusted
        team = plugins.register_committed(Path.cwd(), db_path)
        if team is not None:
            report["team_plugin"] = team
    return report


def plugin_by_default(agent, scope: str | None, explicit: Path | None, plugin_of) -> str | None:
    """The Claude Code release a plain ``dp init`` installs the plugin for (None: the settings hooks).

    Where the client loads mods the plugin's mod is the front door: an ordinary call starts no dp
    process, where the settings hooks start pave-check, PostToolBatch's and dp-capture's. The
    plugin is one person's (user scope), so a project or ``--settings`` install keeps the hooks;
    ``--no-plugin`` keeps them too. In a clone that commits the team's plugin, that plugin is the
    one to run (``dp init`` registers it once trusted): a second dp plugin would run every hook twice.
    """
    if explicit is not None or scope not in (None, "user") or (agent is not None and agent.name != get().name):
        return None
    plugin = plugin_of(get())
    if plugin is None or plugin.committed_plugin(Path.cwd()) is not None:
        return None
    return plugin.mods_load()


def _lacks(agent, version: str | None) -> dict:
    """``{"lacks": …}`` when the installed release of the agent lacks something dp can do (``Agent.lacks``):
    what works is installed all the same, and the line says what an upgrade adds."""
    missing = (agent or get()).lacks(version)
    return {"lacks": missing} if missing else {}


def _team_commands(plugin, db_path: Path) -> list[str]:
    """The ``claude plugin`` commands that would register this clone's committed plugin for this
    person (none while they have not trusted it as it is), ``plugin`` being the agent's plugin role."""
    if plugin is None:
        return []
    team = plugin.register_committed(Path.cwd(), db_path, dry_run=True)
    return team.get("commands", []) if team else []


def plan(db_path: Path, files: list[dict], actions: list[str], commands: list[str]) -> dict:
    """What ``dp init`` would do, for ``--dry-run``: the store, each file and its diff, what it would run."""
    store = "exists" if db_path.exists() else "would be created"
    return {"dry_run": True, "store": {"path": str(db_path), "status": store}, "files": files,
            "actions": actions, "commands": commands}


def _init_plugin(plugin, db_path: Path, scope: str | None, explicit: Path | None, permission: str, mode: str,
                 capture: bool, dry_run: bool = False) -> dict:
    """``dp init --plugin``: the store, the ``plugin`` role's plugin (hooks, MCP and the mod), and the demo of its
    hook."""
    from dp.errors import DpError
    from dp.files import read_bytes

    if explicit is not None:
        raise DpError("--settings goes with the settings hook; --plugin takes --scope user|project")
    scope = plugin.check_scope(scope)
    command = hook.command_for(db_path, permission, mode)
    if dry_run:
        directory = plugin.market_dir(scope, db_path, Path.cwd())
        wanted = plugin.files(scope, db_path, permission, mode, capture)
        files = [describe_change(directory / relative, read_bytes(directory / relative), data)
                 for relative, data in wanted.items()]
        commands = ["claude plugin " + " ".join(step) for step in plugin.client_steps(scope, directory)]
        return plan(db_path, files, ["take dp's hook entries out of the settings the plugin replaces",
                                     "write the mod's alias snapshot and the plugin's options in your settings"],
                    commands)
    store = ensure_store(db_path)
    report = plugin.install(scope, db_path, Path.cwd(), permission, mode, capture)
    from dp.paving.switch import globally_enabled

    return {"store": store, "plugin": report, "paving": {"enabled": globally_enabled(str(db_path.parent))},
            "demo": demo.run(command), "mods_since": plugin.MODS_FROM, **_lacks(get(), get().installed_version())}


def _init_agent_plugin(agent, db_path: Path, scope: str | None, explicit: Path | None, permission: str, mode: str,
                       capture: bool, dry_run: bool = False) -> dict:
    """``dp init --agent NAME`` for an agent dp reaches through a plugin file of its own (``Agent.plugin``)."""
    from dp.install import agent_plugin

    label, path = hook.target(scope, None, agent)  # a bad scope fails before anything is created
    if dry_run:
        from dp.files import read_bytes

        wanted = agent_plugin.planned(agent, path, label, db_path, permission, mode, capture)
        return plan(db_path, [describe_change(target, read_bytes(target), data) for target, data in wanted.items()],
                    [], [])
    store = ensure_store(db_path)
    installed = hook.with_stability_warning(agent_plugin.install(agent, scope, explicit, db_path, permission, mode,
                                                                 capture))
    from dp.paving.switch import globally_enabled

    return {"store": store, "hook": installed, "paving": {"enabled": globally_enabled(str(db_path.parent))},
            "demo": demo.run(installed["command"], agent)}
