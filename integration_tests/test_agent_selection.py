"""``--agent`` on the hooks and the install commands: Claude Code is the default and answers
exactly as before; an agent dp has no adapter for fails open in the hooks and is one error line
in the CLI."""

from __future__ import annotations

import json
import subprocess

import pytest
from capture_support import failure, run_capture, stored
from cli_assertions import assert_one_line_error
from hook_support import BIN, build_store

RULES = [["read_file", "Read"], ["--cmd", "grep", "--replace", "rg"]]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return build_store(tmp_path_factory.mktemp("agent-selection"), RULES)


def pave_check(env, payload, *args):
    return subprocess.run([str(BIN / "pave-check"), *args], input=json.dumps(payload), capture_output=True,
                          text=True, env=env, timeout=60)


PAYLOADS = [
    {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "grep -rn TODO src"},
     "cwd": "/tmp", "session_id": "s"},
    {"hook_event_name": "PreToolUse", "tool_name": "read_file", "tool_input": {"file_path": "a"}},
    {"hook_event_name": "SessionStart", "source": "startup", "session_id": "s"},
    {"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": "a"}},
]


@pytest.mark.parametrize("payload", PAYLOADS, ids=["rewrite", "alias", "session", "nothing"])
def test_agent_claude_answers_byte_for_byte_as_the_default(env, payload):
    default = pave_check(env, payload)
    named = pave_check(env, payload, "--agent", "claude")
    assert (named.returncode, named.stdout, named.stderr) == (default.returncode, default.stdout, default.stderr)


def test_the_default_answers_are_claude_codes(env):
    rewrite = json.loads(pave_check(env, PAYLOADS[0]).stdout)["hookSpecificOutput"]
    assert rewrite["hookEventName"] == "PreToolUse"
    assert rewrite["updatedInput"] == {"command": "rg -n --hidden --no-ignore TODO src"}
    alias = pave_check(env, PAYLOADS[1])
    assert alias.returncode == 2 and alias.stdout == "" and "Read" in alias.stderr


@pytest.mark.parametrize("name", ["nosuch", "", "../claude"])
def test_an_agent_without_an_adapter_fails_open(env, name):
    proc = pave_check(env, PAYLOADS[1], "--agent", name)
    if name == "":  # an empty value is ignored like every other malformed option: the default agent
        assert proc.returncode == 2
        return
    # The call goes ahead; the hook command's mistake is said on stderr (test_hook_verbose.py).
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr.startswith(f"pave-check: unknown agent {name!r}") and proc.stderr.count("\n") == 1


def test_capture_with_agent_claude_stores_what_the_default_stores(env, tmp_path):
    db = tmp_path / "capture.db"
    run_capture(failure("grep -P x", tool_use_id="toolu_a"), "--db", db, env=env)
    run_capture(failure("grep -P x", tool_use_id="toolu_b"), "--db", db, "--agent", "claude", env=env)
    rows = stored(db)
    assert len(rows) == 2
    same = ("source", "outcome", "tool_name", "tool_input", "error", "command", "error_class")
    assert [rows[0][key] for key in same] == [rows[1][key] for key in same]
    assert rows[0]["source"] == "hook"


def test_capture_with_an_unknown_agent_stores_nothing_and_says_nothing(env, tmp_path):
    db = tmp_path / "capture.db"
    proc = run_capture(failure("grep -P x"), "--db", db, "--agent", "nosuch", env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    assert not db.exists()


@pytest.mark.parametrize("command", [["pave", "--hook"], ["pave", "--unhook"], ["init"]])
def test_the_cli_refuses_an_unknown_agent_in_one_line_and_changes_nothing(env, command):  # noqa: D103
    proc = subprocess.run([str(BIN / "dp"), *command, "--agent", "nosuch"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert_one_line_error(proc, "unknown agent 'nosuch': use one of claude, gemini")
    home = env["HOME"]
    assert not (subprocess.run(["find", home, "-name", "settings.json"], capture_output=True, text=True).stdout)


def test_agent_goes_with_the_hook_options_only(env):
    proc = subprocess.run([str(BIN / "dp"), "pave", "--mcp", "--agent", "claude"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert_one_line_error(proc, "--agent goes with --hook")
