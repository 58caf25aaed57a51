"""dp-capture, the PostToolUse/PostToolUseFailure hook: real payloads, a real store, real processes."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from capture_support import CAPTURE_BIN, failure, run_capture, stored, success


@pytest.fixture
def store(dp, db_path):
    assert dp("aliases").returncode == 0  # creates and migrates the store, as dp init does
    return db_path


def test_a_failure_is_stored_redacted_with_its_shape(store, env):
    payload = failure("python x.py --token s3cr3tvalue", "Exit code 127\n/bin/bash: line 1: python: command not found")
    proc = run_capture(payload, env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    [row] = stored(store)
    assert row["outcome"] == "failure" and row["source"] == "hook"
    assert json.loads(row["tool_input"]) == {"command": "python x.py --token [redacted]", "description": "run it"}
    # --token follows the script: the script's option, never python's (issue 49, finding 8)
    assert (row["command"], row["subcommand"], json.loads(row["flags"])) == ("python", "", [])
    assert row["error_class"] == "command not found"
    assert (row["session_id"], row["cwd"], row["event_key"]) == ("s1", "/work/app", "s1:toolu_1")
    assert row["timestamp"].endswith("Z") and len(row["timestamp"]) == 27


def test_a_success_is_stored_only_as_shapes(store, env):
    proc = run_capture(success("cd app && git -C . commit -m 'secret message' --amend | tee log.txt"), env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    rows = stored(store)
    assert [(r["command"], r["subcommand"], json.loads(r["flags"])) for r in rows] == [
        ("cd", "", []), ("git", "commit", ["-C", "-m", "--amend"]), ("tee", "", [])]
    assert all(r["outcome"] == "success" and r["tool_input"] is None and r["error"] is None for r in rows)
    text = json.dumps(rows)
    assert "secret message" not in text and "log.txt" not in text and "OUTPUT NEVER STORED" not in text


def test_a_non_bash_success_keeps_the_input_keys_only(store, env):
    run_capture(success(tool="Read", tool_input={"file_path": "/etc/passwd", "limit": 5}), env=env)
    [row] = stored(store)
    assert (row["tool_name"], json.loads(row["input_keys"]), row["tool_input"]) == ("Read", ["file_path", "limit"], None)


def test_write_and_edit_failures_never_store_contents(store, env):
    run_capture(failure(tool="Write", tool_input={"file_path": "/a", "content": "BODY"}, error="denied"), env=env)
    run_capture(failure(tool="Edit", tool_input={"file_path": "/a", "old_string": "OLD", "new_string": "NEW"},
                        error="String to replace not found", tool_use_id="toolu_9"), env=env)
    text = json.dumps(stored(store))
    assert "BODY" not in text and "OLD" not in text and "NEW" not in text


def test_the_same_call_twice_is_stored_once(store, env):
    for _ in range(2):
        run_capture(failure("python x.py", "Exit code 127"), env=env)
    assert len(stored(store)) == 1


def test_db_option_names_the_store(tmp_path, env):
    other = tmp_path / "elsewhere" / "dp.db"
    assert run_capture(failure("python x.py"), "--db", other, env=env).returncode == 0
    assert len(stored(other)) == 1  # a missing store is created and migrated


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"not json",
        b"\xff\xfe",
        b"[1, 2]",
        json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
        json.dumps({"hook_event_name": "PostToolUseFailure", "tool_name": 5}),
        json.dumps({**failure("ls"), "tool_input": "not an object", "session_id": None}),
        json.dumps({**failure("ls"), "error": {"nested": ["error"]}}),
    ],
)
def test_bad_input_is_silent_and_exits_0(store, env, payload):
    proc = run_capture(payload, env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


@pytest.mark.parametrize("damage", ["corrupt", "directory"])
def test_a_broken_store_is_silent_and_exits_0(tmp_path, env, damage):
    target = tmp_path / "broken.db"
    if damage == "corrupt":
        target.write_bytes(b"this is not a database" * 100)
    else:
        target.mkdir()
    proc = run_capture(failure("ls"), "--db", target, env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


def test_help_is_the_only_output_it_ever_prints(env):
    proc = subprocess.run([str(CAPTURE_BIN), "--help"], capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and proc.stdout.startswith("usage: dp-capture")


def test_fifty_concurrent_sessions_lose_no_event(store, env):
    """50 processes at once, each a different session, on one real SQLite file: every event lands."""
    payloads = [
        failure(f"python job{n}.py", "Exit code 127\npython: command not found", session=f"session-{n}",
                tool_use_id=f"toolu_f{n}") if n % 2 else
        success(f"python3 job{n}.py -v", session=f"session-{n}", tool_use_id=f"toolu_s{n}")
        for n in range(50)
    ]

    def feed(payload):
        # Started and fed at once, as an agent does: a hook waits for its payload no longer than
        # pave-check does (dp.hook.read_stdin), so the writer must not wait for 49 other starts first.
        proc = subprocess.Popen([str(CAPTURE_BIN)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env)
        out, err = proc.communicate(json.dumps(payload).encode(), timeout=120)
        return proc.returncode, out, err

    with ThreadPoolExecutor(max_workers=len(payloads)) as pool:
        results = list(pool.map(feed, payloads))
    assert all(result == (0, b"", b"") for result in results)
    rows = stored(store)
    assert len(rows) == 50
    assert {r["session_id"] for r in rows} == {f"session-{n}" for n in range(50)}
    assert sqlite3.connect(store).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# Run with -S (no site, no .pth import hooks), dp's own directory on sys.path:
# every module loaded is then one the hook itself needed.
PROBE = """
import io, json, sys
sys.path.insert(0, sys.argv[2])
before = set(sys.modules)
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
from dp.capture.hook import main
status = main([])
loaded = set(sys.modules) - before
stdlib = set(sys.stdlib_module_names)
third_party = sorted(name for name in loaded if name.split(".")[0] not in stdlib and name.split(".")[0] != "dp")
print(json.dumps({"status": status, "third_party": third_party}))
"""


@pytest.mark.parametrize("payload", [
    failure("python x.py", "Exit code 127\npython: command not found"),
    success("git commit -m x && ls -la"),
    failure("curl -H 'Authorization: Bearer abc' x"),
])
def test_the_import_path_is_stdlib_only(store, env, payload):
    import dp

    root = str(Path(dp.__file__).resolve().parent.parent)
    proc = subprocess.run([sys.executable, "-S", "-c", PROBE, json.dumps(payload), root], capture_output=True,
                          text=True, env=env, timeout=60)
    result = json.loads(proc.stdout.splitlines()[-1])
    assert result == {"status": 0, "third_party": []}
    assert len(stored(store)) >= 1


def test_an_array_of_payloads_is_stored_in_order_and_the_calls_after_a_failure_keep_their_commands(store, env):
    """The Claude Code mod hands a failure's followers over in one process (a JSON array)."""
    calls = [success("ls -la", tool_use_id="toolu_a"),
             failure("gradle -q test --token s3cr3tvalue", "Exit code 127\ngradle: command not found",
                     tool_use_id="toolu_b"),
             success("./gradlew -q test", tool_use_id="toolu_c"), "not a payload",
             success(tool="Read", tool_input={"file_path": "/a"}, tool_use_id="toolu_d")]
    proc = run_capture(json.dumps(calls), env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    rows = stored(store)
    assert [(r["event_key"], r["outcome"]) for r in rows] == [
        ("s1:toolu_a#0", "success"), ("s1:toolu_b", "failure"), ("s1:toolu_c#0", "success"), ("s1:toolu_d#0", "success")]
    assert rows[0]["tool_input"] is None  # before the failure: shapes only
    assert json.loads(rows[1]["tool_input"])["command"] == "gradle -q test --token [redacted]"
    assert json.loads(rows[2]["tool_input"]) == {"command": "./gradlew -q test"}  # the fix dp.learn reads


def test_an_array_is_bounded(store, env):
    calls = [success(f"echo {n}", tool_use_id=f"toolu_{n}") for n in range(40)]
    assert run_capture(json.dumps(calls), env=env).returncode == 0
    assert len(stored(store)) == 16
