"""Where Claude Code looks for MCP servers, and the entry ``claude mcp add`` writes.

Observed with Claude Code 2.1.330 (``claude mcp add --scope user|project dp -- DP mcp``
under an isolated HOME): user scope is the top-level ``mcpServers`` object of
``~/.claude.json`` (a file Claude Code also keeps its own state in, mode 0600);
project scope is ``mcpServers`` in ``.mcp.json`` at the project root. Both get
``{"type": "stdio", "command": …, "args": […], "env": {}}``, and
``claude mcp remove`` leaves an empty ``mcpServers`` behind.
"""

from __future__ import annotations

import os
from pathlib import Path

SERVER_NAME = "dp"
MCP_SCOPES = ("user", "project")
SERVERS_KEY = "mcpServers"


def config_path(scope: str, home: Path | None = None, project_dir: Path | None = None) -> Path:
    """The file a scope's MCP servers live in."""
    if scope == "user":
        return Path(home or Path.home()) / ".claude.json"
    return Path(project_dir or os.getcwd()) / ".mcp.json"


def server_entry(command: str, args: list[str]) -> dict:
    """The entry for a stdio server, key for key as ``claude mcp add`` writes it."""
    return {"type": "stdio", "command": command, "args": list(args), "env": {}}


def dp_entry(config: dict):
    """dp's server entry in a parsed config file, or None."""
    servers = config.get(SERVERS_KEY)
    if isinstance(servers, dict):
        return servers.get(SERVER_NAME)
    return None


def entry_argv(entry) -> list[str] | None:
    """A stdio entry's command and args as one argv, or None when it is not one."""
    if not isinstance(entry, dict) or entry.get("type", "stdio") != "stdio":
        return None
    command, args = entry.get("command"), entry.get("args", [])
    if not isinstance(command, str) or not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return None
    return [command, *args]
