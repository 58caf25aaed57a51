"""``pave-check --agent codex`` and ``dp-capture --agent codex`` with Codex CLI 0.169.0's real hook JSON.

The payloads are the ones the real binary sent (integration_tests/real_client_codex shows the
same answers working in it); the session file in data/codex-sessions is a real rollout.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from capture_support import run_capture, stored
from cli_assertions import assert_one_line_error
from hook_support import BIN, build_store

RULES = [["read_file", "Read"], ["--cmd", "oldtool", "--replace", "newtool"], ["--cmd", "grep", "--flag", "P", "E"],
         ["--force", "Bash", "mcp__sandbox__run", "-m", "Use mcp__sandbox__run for shell commands."]]
SESSIONS = Path(__file__).parent / "data" / "codex-sessions"
ROLLOUT = next(SESSIONS.rglob("rollout-*.jsonl"))
SESSION_ID = "01a21770-0505-7ef1-9109-47d2a2ffbfdd"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return build_store(tmp_path_factory.mktemp("codex-hook"), RULES[:3])


def pre_tool_use(command: str, mode: str = "bypassPermissions") -> dict:
    return {"session_id": SESSION_ID, "turn_id": "01a21770-0521-7b40-9f6a-35b198bbffc3",
            "transcript_path": str(ROLLOUT), "cwd": "/work/app", "hook_event_name": "PreToolUse",
            "model": "gpt-5.5", "permission_mode": mode, "tool_name": "Bash", "tool_input": {"command": command},
            "tool_use_id": "call_dp000001"}


def post_tool_use(command: str, call_id: str, response: str, transcript=ROLLOUT) -> dict:
    return {**pre_tool_use(command), "hook_event_name": "PostToolUse", "tool_use_id": call_id,
            "tool_response": response, "transcript_path": str(transcript)}


def pave_check(env, payload, *args):
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run([str(BIN / "pave-check"), "--agent", "codex", *args], input=data, capture_output=True,
                          text=True, env=env, timeout=60)


def answer(proc) -> dict:
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return json.loads(proc.stdout)["hookSpecificOutput"]


def test_a_rewrite_is_approved_where_the_session_asks_for_nothing(env):
    output = answer(pave_check(env, pre_tool_use("oldtool -x a.txt")))
    assert output == {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                      "permissionDecisionReason": "dp: oldtool → newtool",
                      "updatedInput": {"command": "newtool -x a.txt"}, "additionalContext": "dp: oldtool → newtool"}


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "plan", "dontAsk", "", None])
def test_anywhere_else_the_rewrite_becomes_a_refusal_carrying_the_corrected_command(env, mode):
    payload = pre_tool_use("oldtool -x a.txt", mode)
    if mode is None:
        del payload["permission_mode"]
    output = answer(pave_check(env, payload))
    assert set(output) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    assert output["permissionDecision"] == "deny"
    assert output["permissionDecisionReason"].startswith("dp: oldtool → newtool. Run this instead:\nnewtool -x a.txt\n")
    assert not output["permissionDecisionReason"].endswith(".")  # Codex adds ". Command: <original>"


def test_permission_allow_is_the_users_explicit_choice_and_ask_has_no_codex_equivalent(env):
    allowed = answer(pave_check(env, pre_tool_use("oldtool a", "default"), "--permission", "allow"))
    assert allowed["permissionDecision"] == "allow" and allowed["updatedInput"] == {"command": "newtool a"}
    asked = answer(pave_check(env, pre_tool_use("oldtool a"), "--permission", "ask"))
    assert asked["permissionDecision"] == "deny" and "newtool a" in asked["permissionDecisionReason"]


def test_mode_advise_refuses_even_where_a_rewrite_would_be_allowed(env):
    output = answer(pave_check(env, pre_tool_use("grep -P x f"), "--mode", "advise"))
    assert output["permissionDecision"] == "deny"
    assert "Run this instead:\ngrep -E x f" in output["permissionDecisionReason"]


def test_a_call_no_rule_touches_gets_no_answer(env):
    proc = pave_check(env, pre_tool_use("ls -la"))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_session_start_states_the_corrections(env):
    payload = {"session_id": SESSION_ID, "transcript_path": str(ROLLOUT), "cwd": "/work/app",
               "hook_event_name": "SessionStart", "model": "gpt-5.5", "permission_mode": "bypassPermissions",
               "source": "startup"}
    output = answer(pave_check(env, payload))
    assert output["hookEventName"] == "SessionStart"
    assert "read_file" in output["additionalContext"] and "Use `newtool` instead of `oldtool`" in (
        output["additionalContext"])


def test_a_tool_name_alias_of_a_tool_codex_has_blocks_with_exit_2(tmp_path):
    env = build_store(tmp_path, RULES[3:])
    proc = pave_check(env, pre_tool_use("ls"))
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", "Use mcp__sandbox__run for shell commands\n")


@pytest.mark.parametrize("data", ["", "not json", "[1, 2]", '{"hook_event_name": "PreToolUse"}',
                                  '{"hook_event_name": "PostToolUse", "tool_name": "Bash"}',
                                  '{"hook_event_name": "Stop"}', json.dumps({"tool_name": "Bash", "tool_input": 3})])
def test_bad_or_foreign_input_fails_open(env, data):
    proc = pave_check(env, data)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


# -- capture ------------------------------------------------------------------


def capture(env, db, payload):
    proc = run_capture(payload, "--agent", "codex", "--db", db, env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


def test_a_command_that_exited_non_zero_is_a_failure_read_from_the_session_file(env, tmp_path):
    db = tmp_path / "dp.db"
    output = "ls: cannot access '/no-such-dir-for-dp': No such file or directory\n"
    capture(env, db, post_tool_use("ls /no-such-dir-for-dp", "call_dp000002", output))
    [row] = stored(db)
    assert (row["source"], row["outcome"], row["tool_name"], row["command"]) == ("codex", "failure", "Bash", "ls")
    assert json.loads(row["tool_input"]) == {"command": "ls /no-such-dir-for-dp"}
    assert row["error"] == "Exit code 2\n" + output.strip()
    assert row["error_class"] == "no such file"
    assert row["event_key"] == f"{SESSION_ID}:call_dp000002"


def test_a_command_that_exited_zero_or_without_a_session_file_is_stored_as_shapes_only(env, tmp_path):
    db = tmp_path / "dp.db"
    capture(env, db, post_tool_use("echo fine && git --version", "call_dp000003", "fine\ngit version 2.39.5\n"))
    capture(env, db, post_tool_use("false", "call_elsewhere", "", transcript=tmp_path / "missing.jsonl"))
    rows = stored(db)
    assert [(row["outcome"], row["command"]) for row in rows] == [("success", "echo"), ("success", "git"),
                                                                  ("success", "false")]
    assert all(row["tool_input"] is None and row["error"] is None for row in rows)


def test_a_huge_session_file_is_read_from_its_end_only(env, tmp_path):
    rollout = tmp_path / "rollout.jsonl"
    with open(rollout, "wb") as handle:
        handle.write(b'{"type": "event_msg", "payload": {"type": "noise", "text": "' + b"x" * (6 << 20) + b'"}}\n')
        handle.write(ROLLOUT.read_bytes())
    db = tmp_path / "dp.db"
    capture(env, db, post_tool_use("gti status", "call_dp000005", "", transcript=rollout))
    [row] = stored(db)
    assert row["outcome"] == "failure" and row["error"].startswith("Exit code 127")


# -- dp ingest --codex-sessions -----------------------------------------------


def dp(env, *args):
    return subprocess.run([str(BIN / "dp"), *map(str, args)], capture_output=True, text=True, env=env, timeout=60)


def test_ingest_reads_failures_and_made_up_tool_names_and_adds_nothing_twice(env, tmp_path):
    home = Path(env["HOME"])
    sessions = home / ".codex" / "sessions"
    shutil.copytree(SESSIONS, sessions, dirs_exist_ok=True)
    db = tmp_path / "dp.db"
    # The hook already recorded one of the calls: ingest must not add it again.
    capture(env, db, post_tool_use("ls /no-such-dir-for-dp", "call_dp000002", "ls: No such file or directory"))
    first = json.loads(dp(env, "ingest", "--codex-sessions", "--json", "--db", db).stdout)["codex_sessions"]
    assert first == {"directory": str(sessions), "files": 1, "lines": 35, "skipped_lines": 0, "failures": 3,
                     "successes": 1, "added": 4}
    again = json.loads(dp(env, "ingest", "--codex-sessions", "--json", "--db", db).stdout)["codex_sessions"]
    assert again["added"] == 0
    failures = {(row["source"], row["tool_name"], row["error_class"]) for row in stored(db, "outcome = 'failure'")}
    assert failures == {("codex", "Bash", "no such file"), ("codex-session", "read_file", "unknown tool"),
                        ("codex-session", "Bash", "command not found")}
    text = dp(env, "ingest", "--codex-sessions", sessions, "--db", db)
    assert text.returncode == 0
    assert text.stdout.startswith(f"{sessions}: 1 session file, 35 lines\n  3 failed calls, 1 successful ones; "
                                  "0 new events stored\n")


def test_ingest_of_a_missing_directory_or_one_directory_for_two_kinds_is_one_error_line(env, tmp_path):
    assert_one_line_error(dp(env, "ingest", "--codex-sessions", tmp_path / "nowhere", "--db", tmp_path / "x.db"),
                          "is not a directory (Codex CLI keeps sessions in ~/.codex/sessions")
    both = dp(env, "ingest", "--codex-sessions", "--claude-transcripts", tmp_path, "--db", tmp_path / "x.db")
    assert_one_line_error(both, "a directory goes with --claude-transcripts, ")  # …every agent's option, one of them
    assert "--codex-sessions" in both.stderr


def test_ingest_stores_the_command_that_ran_after_a_rewrite(env, tmp_path):
    """Codex CLI 0.169.0 keeps the model's call in its function_call and the command a PreToolUse hook rewrote
    it into in the CommandExecution item: the store holds what ran, as dp-capture stores it (issue 51: dp stats
    judges a rewritten call by the program that ran)."""
    lines = [line for line in ROLLOUT.read_text().splitlines() if '"session_meta"' in line]
    turn = {"timestamp": "2026-11-26T10:40:00.000Z", "type": "response_item",
            "payload": {"type": "function_call", "name": "exec_command", "arguments": json.dumps({"cmd": "cat x"}),
                        "call_id": "call_dp000042"}}
    done = {"timestamp": "2026-11-26T10:40:01.000Z", "type": "event_msg",
            "payload": {"type": "item_completed", "item": {
                "type": "CommandExecution", "id": "call_dp000042", "command": ["/bin/bash", "-lc", "false x"],
                "status": "failed", "aggregated_output": "", "exit_code": 1}}}
    sessions = tmp_path / "sessions" / "2026" / "11" / "26"
    sessions.mkdir(parents=True)
    (sessions / f"rollout-2026-11-26T10-40-00-{SESSION_ID}.jsonl").write_text(
        "\n".join([*lines, json.dumps(turn), json.dumps(done)]) + "\n")
    db = tmp_path / "dp.db"
    report = json.loads(dp(env, "ingest", "--codex-sessions", tmp_path / "sessions", "--json", "--db", db).stdout)
    assert report["codex_sessions"]["failures"] == 1
    [row] = stored(db, "outcome = 'failure'")
    assert (row["command"], json.loads(row["tool_input"])["command"]) == ("false", "false x")
