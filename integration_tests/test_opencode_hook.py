"""pave-check and dp-capture with ``--agent opencode``: the JSON dp's OpenCode plugin sends, its answers.

The payloads are the ones ``dp/agents/opencode/plugin/dp.ts`` builds from OpenCode 1.18.33's hooks
(``tool.execute.before``'s input and ``output.args``, an ``invalid`` call for a made-up tool name,
``tool.execute.after`` with ``metadata.exit``, a failed tool part from the ``event`` hook); the
real-client harness (``integration_tests/real_client_opencode/``) proves them in the binary.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from capture_support import run_capture, stored
from hook_support import BIN, build_store

RULES = [
    ["read_file", "Read", "--message", "read takes filePath"],
    ["run_shell_command", "Bash"],  # a correction in Gemini CLI; OpenCode's bash is Bash, and run_shell_command
    ["bash", "Bash", "--force"],  # is no tool of its own, so only the second is no correction here
    ["--cmd", "grep", "--replace", "rg"],
]
UNAVAILABLE = "Model tried to call unavailable tool 'read_file'. Available tools: bash, edit, glob, grep, read."


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return build_store(tmp_path_factory.mktemp("opencode-hook"), RULES)


def pave_check(env, payload, *args):
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run([str(BIN / "pave-check"), "--agent", "opencode", *args], input=data, capture_output=True,
                          text=True, env=env, timeout=60)


def before(tool, args, call="call_1"):
    return {"hook_event_name": "tool.execute.before", "tool": tool, "args": args, "session_id": "ses_1",
            "call_id": call, "cwd": "/tmp"}


def answer(proc) -> dict:
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return json.loads(proc.stdout) if proc.stdout else {}


def test_a_rewrite_replaces_the_args_and_says_what_changed(env):
    got = answer(pave_check(env, before("bash", {"command": "grep -n TODO a.txt", "description": "Find TODOs",
                                                 "workdir": "/tmp"})))
    assert got["args"] == {"command": "rg -n TODO a.txt", "description": "Find TODOs", "workdir": "/tmp"}
    assert got["note"].startswith("dp: grep → rg")


def test_advise_mode_refuses_with_the_corrected_command(env):
    got = answer(pave_check(env, before("bash", {"command": "grep -n TODO a.txt"}), "--mode", "advise"))
    assert set(got) == {"error"} and "rg -n TODO a.txt" in got["error"]


def test_a_made_up_tool_name_arrives_as_the_invalid_tool_and_is_blocked(env):
    got = answer(pave_check(env, before("invalid", {"tool": "read_file", "error": UNAVAILABLE})))
    assert got == {"error": "read takes filePath"}


def test_an_alias_between_two_names_of_opencodes_own_tool_is_no_correction_here(env):
    assert answer(pave_check(env, before("bash", {"command": "git status"}))) == {}


def test_the_corrections_up_front_go_into_the_system_prompt(env):
    got = answer(pave_check(env, {"hook_event_name": "session.start", "session_id": "ses_1", "cwd": "/tmp"}))
    assert "Do NOT call `read_file`. Use `read` instead. (read takes filePath)" in got["system"]
    assert "Do NOT call `run_shell_command`. Use `bash` instead." in got["system"]
    assert "Do NOT call `bash`" not in got["system"]


@pytest.mark.parametrize("payload", ["", "not json", "[]", json.dumps({"tool": "bash"}),
                                     json.dumps({"hook_event_name": "tool.execute.before", "args": {}})])
def test_anything_else_is_left_alone(env, payload):
    proc = pave_check(env, payload)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def capture(env, payload) -> list[dict]:
    proc = run_capture(payload, "--agent", "opencode", env=env)
    assert proc.returncode == 0 and proc.stdout == b""
    return stored(Path(env["DP_DB"]), "source = 'opencode'")


def test_capture_stores_a_command_that_exited_non_zero_and_the_shape_of_one_that_did_not(env):
    common = {"hook_event_name": "tool.execute.after", "tool": "bash", "session_id": "ses_c", "cwd": "/tmp"}
    capture(env, {**common, "call_id": "c1", "args": {"command": "git status"}, "output": "clean", "exit": 0})
    rows = capture(env, {**common, "call_id": "c2", "args": {"command": "pnmp install"},
                         "output": "bash: pnmp: command not found", "exit": 127})
    failure = [row for row in rows if row["outcome"] == "failure"]
    assert [row["command"] for row in rows if row["outcome"] == "success"] == ["git"]
    assert len(failure) == 1 and failure[0]["tool_name"] == "Bash"
    assert failure[0]["error_class"] == "command not found" and failure[0]["event_key"] == "ses_c:c2"


def test_capture_stores_a_failed_tool_and_a_made_up_tool_name(env):
    common = {"session_id": "ses_d", "cwd": "/tmp"}
    capture(env, {**common, "hook_event_name": "tool.error", "tool": "read", "call_id": "d1",
                  "args": {"filePath": "/tmp/missing.txt"}, "error": "File not found: /tmp/missing.txt"})
    rows = capture(env, {**common, "hook_event_name": "tool.execute.after", "tool": "invalid", "call_id": "d2",
                         "args": {"tool": "read_file", "error": UNAVAILABLE}, "output": "…", "exit": None})
    by_tool = {row["tool_name"]: row for row in rows if row["session_id"] == "ses_d"}
    assert by_tool["Read"]["error_class"] == "no such file"
    assert by_tool["read_file"]["error_class"] == "unknown tool"
