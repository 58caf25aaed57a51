"""Driving ``dp mcp`` through the MCP SDK's own client over real stdio.

Each helper starts the installed ``dp mcp`` as a child process in a project
directory, does the MCP handshake with ``mcp.ClientSession`` and runs the
given coroutine against the live session.
"""

from __future__ import annotations

import json
import os
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

DP_BIN = Path(sys.executable).parent / "dp"
INVALID_PARAMS = -32602


@asynccontextmanager
async def session(cwd: Path, env: dict, *options: str):
    params = StdioServerParameters(command=str(DP_BIN), args=["mcp", *options], cwd=str(cwd), env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()
            yield client


def with_session(cwd: Path, env: dict, body, *options: str):
    """Run ``await body(client)`` against a fresh server; returns what it returns."""

    async def main():
        async with session(cwd, env, *options) as client:
            return await body(client)

    return anyio.run(main)


def call(cwd: Path, env: dict, name: str, arguments: dict, *options: str):
    """One tool call on a fresh server: the CallToolResult, or the MCPError it raised."""

    async def body(client):
        try:
            return await client.call_tool(name, arguments)
        except MCPError as exc:
            return exc

    return with_session(cwd, env, body, *options)


def text(result) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text", result
    return result.content[0].text


def structured(result) -> dict:
    """The structured result, checked to be the same as the JSON text the model reads."""
    assert not result.is_error, text(result)
    assert json.loads(text(result)) == result.structured_content
    return result.structured_content


def refusal(result) -> str:
    """The message of an ``isError`` result."""
    assert result.is_error, result
    return text(result)


def write_package(root: Path, scripts: dict, lockfile: bool = True) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "package.json").write_text(json.dumps({"name": "fixture", "version": "1.0.0", "scripts": scripts}))
    if lockfile:
        (root / "package-lock.json").write_text(json.dumps({"name": "fixture", "lockfileVersion": 3}))
    return root


def tree_script(root: Path) -> str:
    """A shell script that starts a grandchild, records both pids, and waits forever."""
    return f"sleep 300 & echo $! > {root}/grandchild.pid; echo $$ > {root}/child.pid; echo started; wait"


def wait_for_file(path: Path, seconds: float = 20) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie nobody reaped yet counts as dead)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != b"Z"


def assert_dead_soon(*pids: int, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(pid) for pid in pids):
        time.sleep(0.05)
    assert not [pid for pid in pids if alive(pid)], "processes survived"


def kill_leftovers(*pid_files: Path) -> None:
    for path in pid_files:
        if path.exists() and path.read_text().strip():
            try:
                os.kill(int(path.read_text()), 9)
            except OSError:
                pass
