"""Registering ``dp mcp`` with Claude Code (``dp pave --mcp``, ``dp init --mcp``) and removing it.

Like the hook install: the file changes only when dp's entry has to (a second
install touches nothing), everything else in it survives in value and order,
and the write is atomic through ``dp.files`` (the previous content kept as
``<file>.dp-backup``). ``uninstall`` is what ``dp uninstall`` calls.
"""

from __future__ import annotations

from pathlib import Path

from dp.claude.mcp_config import MCP_SCOPES, SERVER_NAME, SERVERS_KEY, config_path, dp_entry, server_entry
from dp.claude.settings import dump_settings, parse_settings
from dp.errors import DpError
from dp.files import read_bytes, replace_file


def target(scope: str | None) -> tuple[str, Path]:
    """(scope, config file) for ``--scope`` (default: user, like the hook: every project)."""
    scope = scope or "user"
    if scope not in MCP_SCOPES:
        raise DpError(f"unknown scope {scope!r} for --mcp: use user (~/.claude.json) or project (.mcp.json)")
    return scope, config_path(scope)


def server_command() -> tuple[str, list[str]]:
    """The installed ``dp`` (real path, never a shim) and the arguments that start the server."""
    from dp.claude.executable import find_program

    return str(find_program("dp")), ["mcp"]


def install(scope: str | None = None, path: Path | None = None) -> dict:
    """Register dp's MCP server; returns the report (status configured/updated/already_configured)."""
    label, default_path = target(scope)
    path = path or default_path
    command, args = server_command()
    wanted = server_entry(command, args)
    original = read_bytes(path)
    config = parse_settings(original, path)
    servers = config.setdefault(SERVERS_KEY, {})
    if not isinstance(servers, dict):
        raise DpError(f"{path}: {SERVERS_KEY} is not a JSON object; fix it by hand (nothing was changed)")
    current = servers.get(SERVER_NAME)
    report = {"scope": label, "config": str(path), "server": SERVER_NAME, "command": command, "args": args}
    if current == wanted:
        return {"status": "already_configured", **report}
    servers[SERVER_NAME] = wanted
    backup = replace_file(path, dump_settings(config, original), expected=original, backup=True)
    status = "configured" if current is None else "updated"
    return {"status": status, **report, **({"backup": str(backup)} if backup else {})}


def uninstall(scope: str | None = None, path: Path | None = None) -> dict:
    """Remove dp's entry (and nothing else); status removed or not_installed."""
    label, default_path = target(scope)
    path = path or default_path
    original = read_bytes(path)
    report = {"scope": label, "config": str(path), "server": SERVER_NAME}
    if original is None:
        return {"status": "not_installed", **report}
    config = parse_settings(original, path)
    if dp_entry(config) is None:
        return {"status": "not_installed", **report}
    del config[SERVERS_KEY][SERVER_NAME]
    backup = replace_file(path, dump_settings(config, original), expected=original, backup=True)
    return {"status": "removed", **report, **({"backup": str(backup)} if backup else {})}


def registrations(home: Path | None = None, project_dir: Path | None = None) -> list[dict]:
    """Where dp's server is registered: [{scope, config, entry}] (unreadable files: {scope, config, error})."""
    found = []
    for scope in MCP_SCOPES:
        path = config_path(scope, home, project_dir)
        try:
            config = parse_settings(read_bytes(path), path)
        except DpError as exc:
            found.append({"scope": scope, "config": str(path), "error": exc.message})
            continue
        entry = dp_entry(config)
        if entry is not None:
            found.append({"scope": scope, "config": str(path), "entry": entry})
    return found
