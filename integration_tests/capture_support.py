"""Helpers for the capture tests: real hook payloads, the real dp-capture process, the rows it stored."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

CAPTURE_BIN = Path(sys.executable).parent / "dp-capture"


def failure(command=None, error="Exit code 1", tool="Bash", tool_input=None, session="s1", tool_use_id="toolu_1",
            cwd="/work/app") -> dict:
    """A PostToolUseFailure payload as Claude Code 2.1.330 sends it."""
    return {
        "session_id": session,
        "transcript_path": f"/home/u/.claude/projects/-work-app/{session}.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PostToolUseFailure",
        "tool_name": tool,
        "tool_input": tool_input if tool_input is not None else {"command": command, "description": "run it"},
        "tool_use_id": tool_use_id,
        "error": error,
        "is_interrupt": False,
    }


def success(command=None, tool="Bash", tool_input=None, session="s1", tool_use_id="toolu_2", cwd="/work/app") -> dict:
    """A PostToolUse payload (with the tool's whole output, which is never stored)."""
    return {
        "session_id": session,
        "transcript_path": f"/home/u/.claude/projects/-work-app/{session}.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": tool_input if tool_input is not None else {"command": command},
        "tool_response": {"stdout": "OUTPUT NEVER STORED", "stderr": "", "interrupted": False},
        "tool_use_id": tool_use_id,
    }


def run_capture(payload, *args, env=None, timeout=60) -> subprocess.CompletedProcess:
    if isinstance(payload, dict):
        payload = json.dumps(payload)
    data = payload.encode() if isinstance(payload, str) else payload
    return subprocess.run([str(CAPTURE_BIN), *map(str, args)], input=data, capture_output=True, env=env,
                          timeout=timeout)


def stored(db_path: Path, where: str = "1") -> list[dict]:
    conn = sqlite3.connect(db_path)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(row) for row in conn.execute(f"SELECT * FROM desires WHERE {where} ORDER BY id")]
    finally:
        conn.close()


def transcript_lines(session: str, calls, cwd: str = "/work/app", start_second: int = 0) -> str:
    """JSONL in the shape the real 2.1.330 writes (see tests/fixtures/claude-2.1.330-session.jsonl).

    ``calls`` are ``(tool_name, tool_input, result_text, is_error)``; each becomes an assistant
    line with its tool_use block and a user line with the tool_result, between client entries.
    """
    lines = [{"type": "queue-operation", "operation": "enqueue", "sessionId": session,
              "timestamp": "2026-11-20T10:00:00.000Z", "content": "Do the task."}]
    for index, (name, tool_input, text, is_error) in enumerate(calls):
        when = f"2026-11-20T10:{(start_second + index) // 60:02d}:{(start_second + index) % 60:02d}.500Z"
        tool_id = f"toolu_{session}_{index:03d}"
        common = {"isSidechain": False, "userType": "external", "entrypoint": "sdk-cli", "cwd": cwd,
                  "sessionId": session, "version": "2.1.330", "gitBranch": "main", "timestamp": when,
                  "uuid": f"{session}-{index}"}
        lines.append({**common, "type": "assistant", "message": {
            "id": f"msg_{session}_{index}", "type": "message", "role": "assistant", "model": "claude-opus-5-5",
            "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}],
            "stop_reason": "tool_use"}})
        lines.append({"type": "api-request", "sessionId": session, "timestamp": when, "id": f"req-{index}"})
        lines.append({**common, "type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "content": text, "is_error": is_error, "tool_use_id": tool_id}]},
            "sourceToolAssistantUUID": f"{session}-{index}"})
    return "".join(json.dumps(line) + "\n" for line in lines)


def no_such_tool(name: str) -> str:
    """What Claude Code answers a call to a tool it does not have (2.1.330)."""
    return f"<tool_use_error>Error: No such tool available: {name}</tool_use_error>"
