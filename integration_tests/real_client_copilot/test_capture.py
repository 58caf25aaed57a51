"""Desire capture in the real Copilot CLI: a shell command that exits non-zero (a success for Copilot's
hooks) and a tool error (postToolUseFailure) are both stored, redacted, with ``source`` naming the agent."""

from __future__ import annotations

import json
import sqlite3

from dp.agents.claude.fake_api import shell, tool_use


def _rows(copilot) -> list[dict]:
    conn = sqlite3.connect(copilot.store)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(row) for row in conn.execute("SELECT * FROM desires ORDER BY id")]
    finally:
        conn.close()


def test_a_failing_command_and_an_unknown_tool_are_captured_as_copilots(copilot):
    copilot.init("--agent", "copilot")
    copilot.program("python3", 'echo "tests passed"')
    failing = shell("pyton manage.py test --token ghp_abcdefghijklmnopqrstuvwxyz012345")
    working = shell("python3 manage.py test -v")
    unknown = tool_use("read_file", {"path": "README.md"})
    session = copilot.run([[failing], [working], [unknown]])  # Copilot's hooks are synchronous: no wait

    assert "exit code 127" in session.tool_result(failing["id"])["text"], session.output
    rows = _rows(copilot)
    assert {row["source"] for row in rows} == {"copilot"}
    [failure] = [row for row in rows if row["outcome"] == "failure" and row["tool_name"] == "Bash"]
    assert json.loads(failure["tool_input"]) == {"command": "pyton manage.py test --token [redacted]",
                                                 "description": "Run a command"}
    assert "pyton: command not found" in failure["error"] and failure["error_class"] == "command not found"
    assert failure["session_id"] and failure["cwd"] == str(copilot.project)
    [tool_error] = [row for row in rows if row["tool_name"] == "read_file"]
    assert tool_error["outcome"] == "failure" and tool_error["error"] == "Tool 'read_file' does not exist."
    shape = next(row for row in rows if row["outcome"] == "success" and row["command"] == "python3")
    assert json.loads(shape["flags"]) == []  # `-v` after the script is the script's, not python3's
    # The call right after a failure keeps its redacted command: what dp learns the answer from (dp/learn).
    assert json.loads(shape["tool_input"]) == {"command": "python3 manage.py test -v"}

    desires = copilot.dp("desires").stdout
    assert "pyton" in desires and "read_file" in desires
