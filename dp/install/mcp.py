"""Registering ``dp mcp`` with Claude Code (``dp pave --mcp``, ``dp init --mcp``) and removing it.

Like the hook install: the file changes only when dp's entry has to (a second
install touches nothing), everything else in it survives in value and order,
and the write is atomic through ``dp.files`` (the previous content kept as
``<file>.dp-backup``). ``uninstall`` is what ``dp uninstall`` calls.
"""

from __future__ import annotations

from pathlib import Path

from dp.agents.settings import dump_settings, parse_settings
from dp.errors import DpError
from dp.files import read_bytes, replace_file


def _config():
    """Where MCP servers are registered and in what entry: the default agent's "mcp_config" part."""
    from dp.agents import get

    return get().role("mcp_config")

def target(scope: str | None) -> tuple[str, Path]:
    """(scope, config file) for ``--scope`` (default: user, like the hook: every project)."""
    scope = scope or "user"
    if scope not in _config().MCP_SCOPES:
        raise DpError(f"unknown scope {scope!r} for --mcp: use user (~/.claude.json) or project (.mcp.json)")
    return scope, _config().config_path(scope)


def server_command() -> tuple[str, list[str]]:
    """The installed ``dp`` (real path, never a shim) and the arguments that start the server."""
    from dp.agents.executable import find_program

    return str(find_program("dp")), ["mcp"]


def install(scope: str | None = None, db_path: Path | None = None, *, path: Path | None = None) -> dict:
    """Register dp's MCP server; returns the report (status configured/updated/already_configured).

    With ``db_path`` the registration is recorded in that store's installs record.
    """
    label, default_path = target(scope)
    path = path or default_path
    command, args = server_command()
    wanted = _config().server_entry(command, args)
    original = read_bytes(path)
    config = parse_settings(original, path)
    servers = config.setdefault(_config().SERVERS_KEY, {})
    if not isinstance(servers, dict):
        raise DpError(f"{path}: {_config().SERVERS_KEY} is not a JSON object; fix it by hand (nothing was changed)")
    current = servers.get(_config().SERVER_NAME)
    report = {"scope": label, "config": str(path), "server": _config().SERVER_NAME, "command": command, "args": args}
    if current == wanted:
        _record(db_path, path, label, created=False, details={"command": command, "args": args})
        return {"status": "already_configured", **report}
    servers[_config().SERVER_NAME] = wanted
    backup = replace_file(path, dump_settings(config, original), expected=original, backup=True)
    _record(db_path, path, label, created=original is None, details={"command": command, "args": args})
    status = "configured" if current is None else "updated"
    return {"status": status, **report, **({"backup": str(backup)} if backup else {})}


def uninstall(scope: str | None = None, db_path: Path | None = None, *, path: Path | None = None) -> dict:
    """Remove dp's entry (and nothing else); status removed or not_installed.

    ``path`` (a recorded install's file) overrides the scope's usual file; with
    ``db_path`` the install is forgotten in that store's record.
    """
    label, default_path = target(scope)
    path = path or default_path
    original = read_bytes(path)
    report = {"scope": label, "config": str(path), "server": _config().SERVER_NAME}
    config = parse_settings(original, path) if original is not None else {}
    if _config().dp_entry(config) is None:
        _forget(db_path, path)
        return {"status": "not_installed", **report}
    del config[_config().SERVERS_KEY][_config().SERVER_NAME]
    if not config[_config().SERVERS_KEY]:
        del config[_config().SERVERS_KEY]  # the object dp's entry needed, now empty: no residue
    backup = replace_file(path, dump_settings(config, original), expected=original, backup=True)
    _forget(db_path, path)
    return {"status": "removed", **report, **({"backup": str(backup)} if backup else {})}


def _record(db_path: Path | None, path: Path, scope: str, created: bool, details: dict) -> None:
    if db_path is None:
        return
    from dp.store import Store
    from dp.store.installs import MCP, record

    with Store.open(db_path) as store:
        record(store, path, MCP, scope, created_file=created, details=details)


def _forget(db_path: Path | None, path: Path) -> None:
    """Drop the record (a missing store has nothing to forget, and is not created for it)."""
    if db_path is None or not Path(db_path).expanduser().is_file():
        return
    from dp.store import Store
    from dp.store.installs import MCP, forget

    with Store.open(db_path) as store:
        forget(store, path, MCP)


def registrations(home: Path | None = None, project_dir: Path | None = None) -> list[dict]:
    """Where dp's server is registered: [{scope, config, entry}] (unreadable files: {scope, config, error})."""
    found = []
    for scope in _config().MCP_SCOPES:
        path = _config().config_path(scope, home, project_dir)
        try:
            config = parse_settings(read_bytes(path), path)
        except DpError as exc:
            found.append({"scope": scope, "config": str(path), "error": exc.message})
            continue
        entry = _config().dp_entry(config)
        if entry is not None:
            found.append({"scope": scope, "config": str(path), "entry": entry})
    return found
