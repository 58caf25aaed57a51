"""`dp ingest`: Claude Code transcripts (real 2.1.330 lines) and the Go desire-path tool's desires.db."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from capture_support import failure, run_capture, stored
from cli_assertions import assert_one_line_error

# Recorded from the real Claude Code 2.1.330 (see integration_tests/real_client): a session with a
# failing `python`, a working `python3`, a hallucinated `read_file`, `git comit`, a Read of a
# missing file, plus the client's own entry types (queue-operation, attachment, api-request …).
REAL_SESSION = Path(__file__).parent.parent / "tests" / "fixtures" / "claude-2.1.330-session.jsonl"
SESSION_ID = "19abf8d4-c804-4e5b-bf98-8adf826fff44"


@pytest.fixture
def projects(tmp_path) -> Path:
    directory = tmp_path / "projects" / "-tmp-realcap-project"
    directory.mkdir(parents=True)
    shutil.copy(REAL_SESSION, directory / f"{SESSION_ID}.jsonl")
    return directory.parent


def _ingest(dp, *args):
    proc = dp("ingest", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_every_failed_call_of_a_real_transcript_is_recorded(dp, db_path, projects):
    report = _ingest(dp, "--claude-transcripts", projects)["claude_transcripts"]
    assert (report["files"], report["failures"], report["successes"]) == (1, 4, 3)
    failures = {row["tool_name"]: row for row in stored(db_path, "outcome = 'failure'")}
    assert set(failures) == {"Bash", "read_file", "Read"} and len(stored(db_path, "outcome = 'failure'")) == 4
    hallucinated = failures["read_file"]
    assert hallucinated["error"] == "Error: No such tool available: read_file"
    assert (hallucinated["error_class"], json.loads(hallucinated["tool_input"])) == ("unknown tool", {"path": "hello.py"})
    assert hallucinated["event_key"] == f"{SESSION_ID}:toolu_dp000003" and hallucinated["source"] == "transcript"
    assert hallucinated["cwd"] == "/tmp/realcap/project" and hallucinated["timestamp"].startswith("2026-")
    # redacted on the way in, like every capture
    bash = stored(db_path, "command = 'python'")[0]
    assert json.loads(bash["tool_input"])["command"] == "python hello.py --token [redacted]"
    # successes as shapes; a Bash call right after a failure keeps its command too, redacted (dp.learn's answer)
    shapes = {(r["tool_name"], r["command"]) for r in stored(db_path, "outcome = 'success'")}
    assert ("Bash", "python3") in shapes and ("Read", "") in shapes
    kept = [json.loads(r["tool_input"]) for r in stored(db_path, "outcome = 'success' AND tool_input IS NOT NULL")]
    assert kept and all(set(item) == {"command"} for item in kept)
    assert all("[redacted]" in item["command"] for item in kept if "--token" in item["command"])
    assert all(r["tool_input"] is None for r in stored(db_path, "outcome = 'success' AND tool_name != 'Bash'"))


def test_ingest_twice_adds_nothing(dp, db_path, projects):
    first = _ingest(dp, "--claude-transcripts", projects)["claude_transcripts"]["added"]
    second = _ingest(dp, "--claude-transcripts", projects)["claude_transcripts"]["added"]
    assert first > 0 and second == 0
    assert len(stored(db_path)) == first


def test_a_call_the_hook_already_recorded_is_not_added_again(dp, db_path, projects, env):
    dp("aliases")
    payload = failure("python hello.py", "Exit code 127", session=SESSION_ID, tool_use_id="toolu_dp000001")
    assert run_capture(payload, env=env).returncode == 0
    _ingest(dp, "--claude-transcripts", projects)
    rows = stored(db_path, "event_key = ?".replace("?", f"'{SESSION_ID}:toolu_dp000001'"))
    assert [row["source"] for row in rows] == ["hook"]


def test_truncated_and_malformed_lines_are_skipped(dp, db_path, projects):
    path = projects / "-tmp-realcap-project" / f"{SESSION_ID}.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    broken = ["{not json\n", "[1, 2]\n", "\xff garbage\n", '{"type": "user", "message": "not blocks"}\n',
              '{"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "nope", "is_error": true}]}}\n']
    path.write_text("".join(broken + lines) + lines[-1][: len(lines[-1]) // 2])  # ends mid-line: a live session
    report = _ingest(dp, "--claude-transcripts", projects)["claude_transcripts"]
    assert report["failures"] == 4 and report["skipped_lines"] >= 4


def test_progress_is_shown_on_large_directories(dp, projects):
    source = projects / "-tmp-realcap-project" / f"{SESSION_ID}.jsonl"
    for n in range(25):
        target = projects / f"-p{n}"
        target.mkdir()
        text = source.read_text().replace(SESSION_ID, f"session-{n}")
        (target / f"session-{n}.jsonl").write_text(text)
    proc = dp("ingest", "--claude-transcripts", projects)
    assert proc.returncode == 0, proc.stderr
    assert "dp: read 26/26 transcript files" in proc.stderr
    assert proc.stderr.count("transcript files") >= 5
    assert "26 transcript files" in proc.stdout and "104 failed calls" in proc.stdout


def test_default_directory_is_claude_projects_under_home(dp, home, projects):
    shutil.copytree(projects, home / ".claude" / "projects")
    report = _ingest(dp, "--claude-transcripts")["claude_transcripts"]
    assert report["directory"] == str(home / ".claude" / "projects") and report["failures"] == 4


@pytest.mark.parametrize(
    "args, message",
    [
        ((), "say what to ingest"),
        (("--claude-transcripts", "/nonexistent/dir"), "is not a directory"),
        (("somedir",), "a directory goes with --claude-transcripts"),
        (("--desire-path-db", "/nonexistent.db"), "no such file"),
    ],
)
def test_bad_ingest_arguments_are_one_line_errors(dp, args, message):
    proc = dp("ingest", *args)
    assert_one_line_error(proc, message)


# -- the Go desire-path tool's database ---------------------------------------------------------------

# The Go tool's schema (github.com/scbrown/desire-path, internal/store/sqlite.go): version 1 created
# `desires`, version 4 added `category`; versions 2-7 added other tables dp does not need.
GO_V1 = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE desires (id TEXT PRIMARY KEY, tool_name TEXT NOT NULL, tool_input TEXT, error TEXT NOT NULL,
                      source TEXT, session_id TEXT, cwd TEXT, timestamp TEXT NOT NULL, metadata TEXT);
CREATE TABLE aliases (from_name TEXT PRIMARY KEY, to_name TEXT NOT NULL, created_at TEXT NOT NULL);
INSERT INTO schema_version VALUES (1);
"""
GO_V7_EXTRA = """
ALTER TABLE desires ADD COLUMN category TEXT;
CREATE TABLE invocations (id TEXT PRIMARY KEY, source TEXT NOT NULL, tool_name TEXT NOT NULL, is_error INTEGER);
UPDATE schema_version SET version = 7;
"""
GO_ROWS = [
    ("d1", "read_file", '{"path": "a.go", "token": "ghp_abcdefghijklmnopqrstuvwxyz012345"}',
     "Error: No such tool available: read_file", "claude-code", "sess-1", "/src", "2025-06-01T10:00:00.123456789Z"),
    ("d2", "Bash", '{"command": "python x.py"}', "Exit code 127\npython: command not found", "claude-code", "sess-1",
     "/src", "2025-06-01T10:00:05+02:00"),
    ("d3", "Bash", None, "Exit code 1", None, None, None, "2025-06-02T08:00:00Z"),
]


def _go_db(path: Path, version: int) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(GO_V1 + (GO_V7_EXTRA if version == 7 else ""))
    conn.executemany("INSERT INTO desires (id, tool_name, tool_input, error, source, session_id, cwd, timestamp)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", GO_ROWS)
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("version", [1, 7])
def test_go_desires_db_is_imported_redacted_and_idempotent(dp, db_path, tmp_path, version):
    go = _go_db(tmp_path / "desires.db", version)
    before = go.read_bytes()
    report = _ingest(dp, "--desire-path-db", go)["desire_path_db"]
    assert (report["read"], report["added"], report["schema_version"]) == (3, 3, version)
    rows = {row["event_key"]: row for row in stored(db_path)}
    assert set(rows) == {"desire-path:d1", "desire-path:d2", "desire-path:d3"}
    first = rows["desire-path:d1"]
    assert first["source"] == "desire-path" and first["error_class"] == "unknown tool"
    assert json.loads(first["tool_input"]) == {"path": "a.go", "token": "[redacted]"}
    assert first["timestamp"] == "2025-06-01T10:00:00.123456Z"
    assert rows["desire-path:d2"]["timestamp"] == "2025-06-01T08:00:05.000000Z"  # offsets become UTC
    assert rows["desire-path:d2"]["command"] == "python"
    assert _ingest(dp, "--desire-path-db", go)["desire_path_db"]["added"] == 0
    assert go.read_bytes() == before  # opened read-only


def test_a_database_that_is_not_the_go_tools_is_refused(dp, db_path, tmp_path):
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    assert_one_line_error(dp("ingest", "--desire-path-db", other), "is not a desire-path database")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not sqlite at all" * 100)
    assert_one_line_error(dp("ingest", "--desire-path-db", junk), "not a readable SQLite database")
