"""``pave-check --agent copilot`` and ``dp-capture --agent copilot`` on the payloads Copilot CLI 1.0.102
sends (recorded from the real binary): every answer in Copilot's contract, never an ``allow``, and
exit 0 with nothing printed on every path where dp cannot act — Copilot denies a call whose
preToolUse hook errors."""

from __future__ import annotations

import json
import subprocess

import pytest
from capture_support import run_capture, stored
from hook_support import BIN, build_store

RULES = [
    ["read_file", "Read"],
    # Spelled as Copilot names its tools; it blocks a real tool of Copilot's, so it takes --force.
    ["create", "edit", "--message", "edit files in place here", "--force"],
    ["--cmd", "grep", "--replace", "rg"],
    ["--cmd", "scp", "--flag", "r", "R"],
]
SESSION = "4f1c2a9e-0b7d-4c1e-9a55-3d2f8e6b7a10"


def pre(tool: str, args, cwd="/work/app") -> dict:
    """A camelCase preToolUse payload as Copilot CLI 1.0.102 sends it."""
    return {"sessionId": SESSION, "timestamp": 1795688689893, "cwd": cwd, "toolName": tool, "toolArgs": args}


def shell(command: str) -> dict:
    return pre("bash", {"command": command, "description": "Run it"})


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return build_store(tmp_path_factory.mktemp("copilot-hook"), RULES)


def hook(env, payload, *args):
    data = payload if isinstance(payload, (str, bytes)) else json.dumps(payload)
    return subprocess.run([str(BIN / "pave-check"), "--agent", "copilot", *args],
                          input=data if isinstance(data, bytes) else data.encode(), capture_output=True, env=env,
                          timeout=60)


def answer(proc) -> dict:
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
    return json.loads(proc.stdout)


def test_a_rewrite_is_modified_args_with_the_note_and_no_permission_decision(env):
    output = answer(hook(env, shell("grep -rn TODO src")))
    assert output == {
        "modifiedArgs": {"command": "rg -n --hidden --no-ignore TODO src", "description": "Run it"},
        "additionalContext": output["additionalContext"],
    }
    assert output["additionalContext"].startswith("dp: grep → rg: dropped -r")


def test_toolargs_sent_as_a_json_string_are_read_too(env):
    payload = pre("bash", json.dumps({"command": "scp -r a host:b", "description": "Copy"}))
    assert answer(hook(env, payload))["modifiedArgs"] == {"command": "scp -R a host:b", "description": "Copy"}


@pytest.mark.parametrize("permission, decision", [("allow", None), ("ask", "ask"), ("none", None)])
def test_a_rewrite_never_says_allow_whatever_the_permission_option(env, permission, decision):
    output = answer(hook(env, shell("grep -rn TODO src"), "--permission", permission))
    assert output.get("permissionDecision") == decision
    assert output["modifiedArgs"]["command"].startswith("rg ")


def test_advise_mode_denies_with_the_corrected_command(env):
    output = answer(hook(env, shell("scp -r a host:b"), "--mode", "advise"))
    assert output["permissionDecision"] == "deny"
    assert output["permissionDecisionReason"].endswith("Run this instead:\nscp -R a host:b")
    assert "modifiedArgs" not in output


def test_a_hallucinated_tool_is_denied_naming_copilots_tool(env):
    output = answer(hook(env, pre("read_file", {"path": "README.md"})))
    assert output == {"permissionDecision": "deny",
                      "permissionDecisionReason": "read_file is not a valid tool. Use view instead."}


def test_an_alias_of_one_of_copilots_own_tools_blocks_it(env):
    output = answer(hook(env, pre("create", {"path": "a.txt", "file_text": "x"})))
    assert output == {"permissionDecision": "deny", "permissionDecisionReason": "edit files in place here"}


def test_session_start_carries_the_corrections(env):
    payload = {"sessionId": SESSION, "timestamp": 1, "cwd": "/work/app", "source": "new", "initialPrompt": "Go"}
    context = answer(hook(env, payload))["additionalContext"]
    assert context.startswith("dp (desire paths) corrections on this machine; follow them:\n")
    assert "Do NOT call `read_file`. Use `view` instead." in context


@pytest.mark.parametrize("payload", [
    shell("echo nothing to do"),
    pre("view", {"path": "/etc/hostname"}),
    pre("bash", None),
    pre("bash", "not json {"),
    {"sessionId": SESSION, "prompt": "a userPromptSubmitted payload"},
    {"hook_event_name": "PreToolUse", "tool_name": "read_file", "tool_input": {}},  # a Claude-style entry
    {"sessionId": SESSION, "toolName": "bash", "toolArgs": {"command": "grep x"}, "toolResult": {
        "resultType": "success", "textResultForLlm": "x\n<shellId: 0 completed with exit code 0>"}},
    [1, 2],
    "",
], ids=["no-rule", "other-tool", "no-args", "bad-args", "other-event", "pascal-case", "post-tool", "list", "empty"])
def test_nothing_to_do_is_exit_0_and_silence(env, payload):
    proc = hook(env, payload)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


@pytest.mark.parametrize("data", [b"{not json", b"\xff\xfe", b"{" * 100_000, b"x" * (17 << 20)],
                         ids=["invalid", "not-utf8", "deep", "huge"])
def test_unreadable_input_fails_open_with_no_output(env, data):
    proc = hook(env, data)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


def test_a_corrupt_store_fails_open_with_no_output(tmp_path):
    env = build_store(tmp_path, [["--cmd", "grep", "--replace", "rg"]])
    with open(env["DP_DB"], "r+b") as db:
        db.write(b"this is not a database" * 50)
    proc = hook(env, shell("grep -rn TODO src"))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


def _post(command: str, output: str, code: int) -> dict:
    return {"sessionId": SESSION, "timestamp": 1, "cwd": "/work/app", "toolName": "bash",
            "toolArgs": {"command": command, "description": "Run it"},
            "toolResult": {"resultType": "success",
                           "textResultForLlm": f"{output}\n<shellId: 3 completed with exit code {code}>"}}


def test_capture_stores_a_non_zero_exit_and_a_tool_error_as_copilots(env):
    run_capture(_post("pyton -m pytest --token ghp_abcdefghijklmnopqrstuvwxyz012345",
                      "bash: pyton: command not found", 127), "--agent", "copilot", env=env)
    run_capture(_post("python3 -m pytest -q", "3 passed", 0), "--agent", "copilot", env=env)
    run_capture({"sessionId": SESSION, "timestamp": 2, "cwd": "/work/app", "toolName": "read_file",
                 "toolArgs": {"path": "x"}, "error": "Tool 'read_file' does not exist."}, "--agent", "copilot",
                env=env)
    rows = stored(env["DP_DB"], f"session_id = '{SESSION}'")
    assert [(row["source"], row["outcome"], row["tool_name"]) for row in rows] == [
        ("copilot", "failure", "Bash"), ("copilot", "success", "Bash"), ("copilot", "failure", "read_file")]
    failure, shape, tool_error = rows
    assert json.loads(failure["tool_input"]) == {"command": "pyton -m pytest --token [redacted]",
                                                 "description": "Run it"}
    assert failure["error_class"] == "command not found" and failure["cwd"] == "/work/app"
    # right after a failure the success keeps its command (redacted): what dp.learn learns from
    assert shape["command"] == "python3 -m pytest" and json.loads(shape["tool_input"]) == {"command": "python3 -m pytest -q"}
    assert tool_error["error"] == "Tool 'read_file' does not exist."
