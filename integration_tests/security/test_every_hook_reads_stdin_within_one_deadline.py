"""Issue 46, finding 7: ``dp-capture`` waited on its stdin with no deadline.

``sleep 25 | dp-capture`` took 25 s, while pave-check stopped at 3 s: a writer
that never closes the pipe (a wedged agent, a hostile wrapper) held the hook,
and the agent's session behind it, for as long as it liked. Every dp hook now
reads its payload through one function (``dp.hook.read_stdin``) with one
deadline (``STDIN_SECONDS``); past it the hook gives its fail-open answer.

The tests hold the pipe's write end open themselves, with a whole, valid
payload already written, and check what the real hook did: it exited on its
own (the wait's bound is generous, many times the deadline), with status 0,
and answered as it answers when anything goes wrong — nothing rewritten,
nothing stored — while the same payload with the pipe closed is acted on.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from capture_support import CAPTURE_BIN, failure
from hook_support import BIN, build_store, isolated_env

from dp.hook import HOOK_TIMEOUT_SECONDS

# How long the test waits for a hook to end on its own: a bound (the agent would have killed it
# long before), not a measurement.
GENEROUS = HOOK_TIMEOUT_SECONDS * 4 + 10


def run_with_stdin_left_open(argv: list[str], payload: bytes, env: dict) -> subprocess.CompletedProcess:
    """Start the real hook with ``payload`` written to a pipe whose write end stays open until it exits."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(argv, stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    os.close(read_end)
    try:
        os.write(write_end, payload)
        try:
            stdout, stderr = proc.communicate(timeout=GENEROUS)
        except subprocess.TimeoutExpired:
            proc.kill()  # the process this test started, by its pid
            proc.communicate()
            pytest.fail(f"{Path(argv[0]).name} still waited on its open stdin after {GENEROUS} s")
    finally:
        os.close(write_end)
    return subprocess.CompletedProcess(argv, proc.returncode, stdout, stderr)


def rows(db: Path) -> list[tuple]:
    if not db.exists():
        return []
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT tool_name, command, error_class FROM desires").fetchall()
    except sqlite3.OperationalError:  # no table: nothing was ever stored
        return []
    finally:
        conn.close()


def test_dp_capture_with_its_stdin_left_open_exits_and_stores_nothing(tmp_path):
    env = isolated_env(tmp_path)
    db = Path(env["DP_DB"])
    payload = json.dumps(failure("pyhton -m pytest", error="Exit code 127\nbash: pyhton: command not found",
                                 cwd=str(tmp_path))).encode()

    held = run_with_stdin_left_open([str(CAPTURE_BIN)], payload, env)
    assert (held.returncode, held.stdout, held.stderr) == (0, b"", b"")
    assert rows(db) == []  # nothing half-read was stored

    closed = subprocess.run([str(CAPTURE_BIN)], input=payload, capture_output=True, env=env, timeout=60)
    assert closed.returncode == 0
    assert rows(db) == [("Bash", "pyhton", "command not found")]  # the same payload, the pipe closed: stored


def test_pave_check_with_its_stdin_left_open_lets_the_call_go_ahead_as_typed(tmp_path):
    from dp.hook import STDIN_SECONDS

    env = build_store(tmp_path, [["--cmd", "grep", "--replace", "rg"]])
    payload = json.dumps({"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                          "tool_input": {"command": "grep -n TODO src"}, "cwd": str(tmp_path)}).encode()

    held = run_with_stdin_left_open([str(BIN / "pave-check"), "--verbose"], payload, env)
    assert (held.returncode, held.stdout) == (0, b"")
    assert held.stderr.decode() == f"pave-check: stdin still open after {STDIN_SECONDS:g} s: the call goes ahead as typed\n"

    closed = subprocess.run([str(BIN / "pave-check")], input=payload, capture_output=True, env=env, timeout=60)
    assert closed.returncode == 0
    assert json.loads(closed.stdout)["hookSpecificOutput"]["updatedInput"]["command"] == "rg -n --max-depth 0 TODO src"


@pytest.mark.parametrize("hook", ["dp-capture", "pave-check"])
def test_a_writer_that_sends_nothing_and_never_closes_gets_the_fail_open_answer(tmp_path, hook):
    """``sleep 25 | dp-capture``: no byte at all, the pipe open."""
    env = isolated_env(tmp_path)
    held = run_with_stdin_left_open([str(BIN / hook)], b"", env)
    assert (held.returncode, held.stdout, held.stderr) == (0, b"", b"")
    assert not Path(env["DP_DB"]).exists()


def test_both_hooks_read_their_payload_through_the_one_deadline():
    """One function, one constant: pave-check and dp-capture both call ``dp.hook.read_stdin``, and
    nothing else in them reads stdin (read from their source, as the package-layers test reads imports)."""
    import ast

    import dp.capture.hook
    import dp.hook

    for module in (dp.hook, dp.capture.hook):
        tree = ast.parse(Path(module.__file__).read_text())
        calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        reads = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "stdin"]
        assert "read_stdin" in calls, module.__name__
        assert len(reads) == (1 if module is dp.hook else 0), module.__name__  # the one read, in read_stdin
