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
