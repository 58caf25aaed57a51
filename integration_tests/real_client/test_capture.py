"""Desire capture in the real Claude Code: the async hooks record failures and success shapes,
the transcript holds the hallucinated tool name, and the loop ends in an applied alias."""

from __future__ import annotations

import json
import sqlite3

from dp.agents.claude.fake_api import bash, tool_use


def _rows(client) -> list[dict]:
    """The captured rows (the session ended with ``client.captured``: every row it waited for is there)."""
    conn = sqlite3.connect(client.store)
    conn.row_factory = sqlite3.Row
    rows = [dict(row) for row in conn.execute("SELECT * FROM desires ORDER BY id")]
    conn.close()
    return rows


def test_capture_hooks_record_a_failing_bash_call_and_a_success_shape(client):
    client.init()
    client.program("python3", 'echo "tests passed"')
    failing = bash("pyton manage.py test --token ghp_abcdefghijklmnopqrstuvwxyz012345")
    working = bash("python3 manage.py test -v")
    session = client.run([[failing], [working], [client.captured([failing, working])]])
    assert session.result["is_error"] is False
    assert session.tool_result(failing["id"])["is_error"] is True
    rows = _rows(client)
    [failure] = [row for row in rows if row["outcome"] == "failure"]
    assert failure["source"] == "hook" and failure["tool_name"] == "Bash"
    assert json.loads(failure["tool_input"]) == {"command": "pyton manage.py test --token [redacted]"}
    assert "pyton: command not found" in failure["error"] and failure["error_class"] == "command not found"
    assert failure["event_key"] == f"{session.result['session_id']}:{failing['id']}"
    shape = next(row for row in rows if row["outcome"] == "success" and row["command"] == "python3")
    # right after a failure, the success keeps its command too (redacted): the answer dp.learn learns
    assert json.loads(shape["flags"]) == []  # `-v` after the script is the script's, not python3's
    assert json.loads(shape["tool_input"]) == {"command": "python3 manage.py test -v"}
    assert shape["session_id"] == session.result["session_id"]


def test_a_hallucinated_tool_reaches_dp_only_through_the_transcript(client):
    client.init()
    hallucinated = tool_use("read_file", {"path": "README.md"})
    after = bash("true")
    session = client.run([[hallucinated], [after], [client.captured([after])]])
    assert "No such tool available: read_file" in session.tool_result(hallucinated["id"])["text"]
    assert not [row for row in _rows(client) if row["tool_name"] == "read_file"]  # no hook fired
    report = json.loads(client.dp("ingest", "--claude-transcripts", "--json").stdout)["claude_transcripts"]
    assert report["failures"] == 1
    [item] = json.loads(client.dp("suggest", "--json").stdout)
    assert item["alias"] == ["read_file", "Read"]
    assert client.dp("suggest", "--apply", item["id"]).stdout == "Alias set: read_file -> Read\n"
    # The client rejects unknown tools before PreToolUse, so the rule reaches the agent up front:
    assert "Do NOT call `read_file`. Use `Read` instead." in client.dp("pave", "--agents-md").stdout
