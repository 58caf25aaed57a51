"""Start a registered MCP server and ask it for its tools, with the standard library only.

``dp doctor`` uses this to say whether the server Claude Code would start
really starts: the MCP handshake (``initialize``, ``notifications/initialized``)
and ``tools/list`` as newline-delimited JSON-RPC over the child's stdin and
stdout, bounded in time and size, then stdin is closed so the server exits.
It is an exchange, not a run-to-completion child, which is why it is not
``dp.process.run_process``; the child still gets its own session and is
killed with its group if it does not finish.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import time

PROTOCOL_VERSION = "2025-06-18"
MAX_LINE_BYTES = 1 << 20


class ProbeError(Exception):
    pass


def list_tools(argv: list[str], cwd, timeout: float = 20.0) -> list[str]:
    """The tool names the server started by ``argv`` in ``cwd`` offers; ProbeError says why not."""
    try:
        proc = subprocess.Popen(
            argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        raise ProbeError(f"cannot start {argv[0]}: {exc.strerror or exc}") from None
    deadline = time.monotonic() + timeout
    try:
        _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": {},
            "clientInfo": {"name": "dp-doctor", "version": "1"}}})
        _response(proc, 1, deadline)
        _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        tools = _response(proc, 2, deadline).get("tools", [])
        return [str(tool.get("name")) for tool in tools if isinstance(tool, dict)]
    finally:
        _stop(proc)


def _gone(proc: subprocess.Popen) -> ProbeError:
    """The server ended without answering: one sentence whether writing the request or reading the
    answer noticed first (which one does is a race between its exit and our write)."""
    return ProbeError(f"it exited without answering{_stderr_tail(proc)}")


def _send(proc: subprocess.Popen, message: dict) -> None:
    assert proc.stdin is not None  # started with stdin=PIPE
    try:
        proc.stdin.write(json.dumps(message).encode() + b"\n")
        proc.stdin.flush()
    except OSError:
        raise _gone(proc) from None


def _response(proc: subprocess.Popen, request_id: int, deadline: float) -> dict:
    buffer = b""
    assert proc.stdout is not None  # started with stdout=PIPE
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        while True:
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                message = _parse(line)
                if message.get("id") == request_id:
                    if "error" in message:
                        raise ProbeError(f"it answered with an error: {message['error'].get('message')}")
                    return message.get("result") or {}
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProbeError("it did not answer within the time limit")
            if not selector.select(left):
                continue
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                raise _gone(proc)
            buffer += chunk
            if len(buffer) > MAX_LINE_BYTES:
                raise ProbeError("it sent an oversized message")


def _parse(line: bytes) -> dict:
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        raise ProbeError(f"it printed something that is not JSON-RPC on stdout: {line[:80]!r}") from None
    return message if isinstance(message, dict) else {}


def _stderr_tail(proc: subprocess.Popen) -> str:
    assert proc.stderr is not None  # started with stderr=PIPE
    try:
        proc.wait(timeout=2)
        lines = proc.stderr.read(65536).decode("utf-8", "replace").strip().splitlines()
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return f": {lines[-1]}" if lines else ""


def _stop(proc: subprocess.Popen) -> None:
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        proc.wait()
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()

