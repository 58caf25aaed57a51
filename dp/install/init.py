"""``dp init``: the store, the hook and the live demonstration, as one report.

Every step is idempotent (an existing store is opened, not replaced; an
installed hook is left as it is), so running it again is always safe.
"""

from __future__ import annotations

from pathlib import Path

from dp.install import demo, hook


def ensure_store(db_path: Path) -> dict:
    """Create (or open and migrate) the store; what it holds now."""
    from dp.store import Store

    existed = db_path.exists()
    with Store.open(db_path) as store:
        return {
            "path": str(db_path),
            "status": "exists" if existed else "created",
            "schema_version": store.schema_version,
            "rules": len(store.list_rules()),
        }


def init(
    db_path: Path,
    scope: str | None = None,
    explicit: Path | None = None,
    permission: str = "none",
    mode: str = "rewrite",
    mcp: bool = False,
    capture: bool = True,
    agent=None,
    plugin: bool = False,
) -> dict:
    """Set dp up; ``demo.ok`` says whether the installed hook really works.

    With ``mcp`` the MCP server is registered too, in the same scope as the
    hook (user unless ``scope`` is project). ``capture`` also installs the
    dp-capture entries (PostToolUse and PostToolUseFailure) that record what
    agents get wrong.
    """
    from dp.install import mcp as pave_mcp

    if plugin:
        return _init_plugin(db_path, scope, explicit, permission, mode, capture)
    label, path = hook.target(scope, explicit, agent)  # bad options fail before anything is created
    from dp.install.plugin import refuse_settings_hooks

    refuse_settings_hooks(db_path, label, agent)
    command = hook.command_for(db_path, permission, mode, agent)
    capture_command = hook.capture_command_for(db_path, agent) if capture else None
    if mcp:
        pave_mcp.target(scope)
        pave_mcp.server_command()
    store = ensure_store(db_path)
    installed = hook.with_stability_warning(
        hook.install(path, command, label, db_path, capture_command=capture_command, agent=agent))
    from dp.paving.switch import globally_enabled

    paving = {"enabled": globally_enabled(str(db_path.parent))}
    report = {"store": store, "hook": installed, "paving": paving, "demo": demo.run(command, agent)}
    if mcp:
        report["mcp"] = pave_mcp.install(scope, db_path)
    if agent is None or agent.name == "claude":
        from dp.install.plugin import register_committed

        team = register_committed(Path.cwd())
        if team is not None:
            report["team_plugin"] = team
    return report


def _init_plugin(db_path: Path, scope: str | None, explicit: Path | None, permission: str, mode: str,
                 capture: bool) -> dict:
    """``dp init --plugin``: the store, the plugin (hooks, MCP and the mod), and the demo of its hook."""
    from dp.errors import DpError
    from dp.install import plugin

    if explicit is not None:
        raise DpError("--settings goes with the settings hook; --plugin takes --scope user|project")
    plugin.check_scope(scope)
    command = hook.command_for(db_path, permission, mode)
    store = ensure_store(db_path)
    report = plugin.install(scope, db_path, Path.cwd(), permission, mode, capture)
    from dp.paving.switch import globally_enabled

    return {"store": store, "plugin": report, "paving": {"enabled": globally_enabled(str(db_path.parent))},
            "demo": demo.run(command)}
