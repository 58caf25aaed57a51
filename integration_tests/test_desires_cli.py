"""`dp desires` and `dp paths`: what was captured, newest first, and grouped by shape."""

from __future__ import annotations

import json
import sqlite3

import pytest
from capture_support import failure, run_capture, stored, success
from cli_assertions import assert_one_line_error


@pytest.fixture
def captured(dp, env, db_path):
    """Six real hook events in two sessions."""
    dp("aliases")
    events = [
        failure("python x.py", "Exit code 127\n/bin/bash: line 1: python: command not found", tool_use_id="t1"),
        success("python3 x.py", tool_use_id="t2"),
        failure("git comit -m x", "Exit code 1\ngit: 'comit' is not a git command.", tool_use_id="t3"),
        failure(tool="Read", tool_input={"file_path": "/nope"}, error="File does not exist.", tool_use_id="t4"),
        failure("python y.py --verbose", "Exit code 127\npython: command not found", session="s2", tool_use_id="t5"),
        failure("python z.py --verbose", "Exit code 127\npython: command not found", session="s3", tool_use_id="t6"),
    ]
    for event in events:
        assert run_capture(event, env=env).returncode == 0
    return db_path


def test_desires_json_lists_failures_newest_first(dp, captured):
    proc = dp("desires", "--json")
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    assert [item["tool_input"].get("command", item["tool_input"].get("file_path")) for item in found] == [
        "python z.py --verbose", "python y.py --verbose", "/nope", "git comit -m x", "python x.py"]
    first = found[0]
    assert {"tool_name", "tool_input", "error", "source", "session_id", "cwd", "timestamp"} <= set(first)
    assert (first["tool_name"], first["source"], first["session_id"], first["cwd"]) == ("Bash", "hook", "s3", "/work/app")
    assert first["error"] == "Exit code 127\npython: command not found"
    assert first["timestamp"].endswith("Z") and "T" in first["timestamp"]


def test_desires_filters(dp, captured):
    assert len(json.loads(dp("desires", "--json", "--tool", "Read").stdout)) == 1
    assert len(json.loads(dp("desires", "--json", "--limit", "2").stdout)) == 2
    assert len(json.loads(dp("desires", "--json", "--since", "1h").stdout)) == 5
    assert json.loads(dp("desires", "--json", "--since", "2999-01-01").stdout) == []


def test_desires_text_output(dp, captured):
    proc = dp("desires")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["TIME", "SOURCE", "TOOL", "CLASS", "INPUT", "ERROR"]
    assert "python z.py --verbose" in lines[1] and "python: command not found" in lines[1]


def test_desires_on_an_empty_store_says_how_to_capture(dp):
    proc = dp("desires")
    assert proc.returncode == 0 and proc.stdout == ""
    assert "dp init installs the capture hooks" in proc.stderr
    assert json.loads(dp("desires", "--json").stdout) == []


def test_purge_before_a_date_and_everything(dp, captured):
    conn = sqlite3.connect(captured)
    conn.execute("UPDATE desires SET timestamp = '2020-01-01T00:00:00.000000Z' WHERE event_key = 's1:t1'")
    conn.commit()
    conn.close()
    proc = dp("desires", "--purge", "--before", "2021-01-01", "--yes")
    assert (proc.returncode, proc.stdout.strip()) == (0, "Deleted 1 captured event from before 2021-01-01.")
    assert len(stored(captured)) == 5
    assert json.loads(dp("desires", "--purge", "--json", "-y").stdout) == {"deleted": 5, "before": None, "dry_run": False}
    assert stored(captured) == []


@pytest.mark.parametrize(
    "args, message",
    [
        (("--since", "yesterday"), "--since 'yesterday' is not a date or duration"),
        (("--before", "2021-01-01"), "--before goes with --purge"),
        (("--purge", "--tool", "Bash"), "--purge deletes by date only"),
        (("--purge", "--before", "soon"), "--before 'soon' is not a date"),
        (("--limit", "0"), "--limit"),
    ],
)
def test_bad_desires_options_are_one_line_errors(dp, captured, args, message):
    assert_one_line_error(dp("desires", *args), message)
    assert len(stored(captured)) == 6


def test_paths_group_by_shape_and_error_class(dp, captured):
    proc = dp("paths", "--json")
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    by_shape = {(p["shape"], p["error_class"]): p for p in found}
    # One cause, one path: python missing, whatever each call had after it (--verbose is the script's).
    python = by_shape[("python", "command not found")]
    assert (python["count"], python["sessions"]) == (3, 3)
    assert python["first_seen"] <= python["last_seen"]
    assert python["example"]["tool_input"]["command"] == "python z.py --verbose"
    assert python["covered_by"] is None
    assert not [shape for shape, _ in by_shape if shape.startswith("python -")]
    assert by_shape[("git comit -m", "unknown subcommand")]["subcommand"] == "comit"
    read = by_shape[("Read {file_path}", "no such file")]
    assert (read["tool_name"], read["input_keys"]) == ("Read", ["file_path"])
    assert found[0]["shape"] == "python"  # most worn first


def test_paths_name_the_rule_that_covers_a_shape(dp, captured):
    assert dp("alias", "--cmd", "python", "--replace", "python3").returncode == 0
    found = json.loads(dp("paths", "--json").stdout)
    python = [p for p in found if p["command"] == "python"]
    assert all(p["covered_by"]["match_kind"] == "command" and p["covered_by"]["to_name"] == "python3" for p in python)
    text = dp("paths").stdout
    assert "command python -> python3" in text and text.splitlines()[0].split()[:4] == ["COUNT", "SESSIONS", "TOOL", "SHAPE"]
