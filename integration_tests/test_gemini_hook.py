"""pave-check and dp-capture with ``--agent gemini``: Gemini CLI 0.61's hook JSON in, its contract out.

Payloads are shaped like the ones the real binary sends (BeforeTool / AfterTool / SessionStart,
``tool_response`` with ``llmContent`` wrapped in ``<untrusted_context>``); the real-client
harness proves them in the binary.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from capture_support import run_capture, stored
from cli_assertions import assert_one_line_error
from hook_support import BIN, build_store

RULES = [
    ["read_file", "Read"],  # meant for Claude Code: in Gemini CLI read_file is the real Read
    # Blocks a real tool of Gemini CLI's on purpose: --force.
    ["list_directory", "Glob", "--message", "dp: list files with glob, not list_directory", "--force"],
    ["Shell", "Bash"],
    ["--cmd", "grep", "--replace", "rg"],
]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return build_store(tmp_path_factory.mktemp("gemini-hook"), RULES)


def pave_check(env, payload, *args):
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run([str(BIN / "pave-check"), "--agent", "gemini", *args], input=data, capture_output=True,
                          text=True, env=env, timeout=60)


def before(tool, tool_input, cwd="/tmp"):
    return {"session_id": "g1", "transcript_path": "", "cwd": cwd, "hook_event_name": "BeforeTool",
            "timestamp": "2026-11-26T10:00:00.000Z", "tool_name": tool, "tool_input": tool_input}


def after(command, content, error=None):
    return {"session_id": "g1", "transcript_path": "", "cwd": "/work/app", "hook_event_name": "AfterTool",
            "timestamp": "2026-11-26T10:00:01.000Z", "tool_name": "run_shell_command",
            "tool_input": {"command": command},
            "tool_response": {"llmContent": f"<untrusted_context>\n{content}\n</untrusted_context>",
                              "returnDisplay": "", "error": error}}


def test_a_shell_command_is_rewritten_through_tool_input(env):
    proc = pave_check(env, before("run_shell_command", {"command": "grep -rn TODO src", "description": "find"}))
    assert proc.returncode == 0 and proc.stderr == ""
    output = json.loads(proc.stdout)
    assert output == {"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {
        "command": "rg -n --hidden --no-ignore TODO src", "description": "find"}}}


def test_advise_mode_denies_with_the_corrected_command(env):
    proc = pave_check(env, before("run_shell_command", {"command": "grep -rn TODO src"}), "--mode", "advise")
    output = json.loads(proc.stdout)
    assert output["decision"] == "deny"
    assert output["reason"].endswith("Run this instead:\nrg -n --hidden --no-ignore TODO src")


def test_a_known_tool_alias_blocks_with_dps_message(env):
    proc = pave_check(env, before("list_directory", {"dir_path": "."}))
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == {"decision": "deny", "reason": "dp: list files with glob, not list_directory"}


def test_an_alias_naming_geminis_own_tool_does_not_block_it(env):
    proc = pave_check(env, before("read_file", {"file_path": "README.md"}))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_session_start_carries_the_tool_name_corrections_in_geminis_names(env):
    proc = pave_check(env, {"session_id": "g1", "cwd": "/tmp", "hook_event_name": "SessionStart", "source": "startup"})
    context = json.loads(proc.stdout)["hookSpecificOutput"]
    assert context["hookEventName"] == "SessionStart"
    text = context["additionalContext"]
    assert "Do NOT call `Shell`. Use `run_shell_command` instead." in text
    assert "`list_directory`" in text and "Use `glob` instead" in text
    assert "read_file" not in text  # Gemini's real tool: no correction here
    assert "Use `rg` instead of `grep`" in text


@pytest.mark.parametrize("payload", [
    "not json", "[]", json.dumps({"hook_event_name": "BeforeTool"}),
    json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "grep x"}}),
])
def test_malformed_or_foreign_payloads_pass_silently(env, payload):
    proc = pave_check(env, payload)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_a_corrupt_store_fails_open(env, tmp_path):
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"this is not a database" * 100)
    proc = pave_check(env, before("run_shell_command", {"command": "grep -rn TODO src"}), "--db", str(broken))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_capture_records_a_non_zero_exit_code_as_a_failure(env, tmp_path):
    db = tmp_path / "capture.db"
    content = "Output: bash: line 1: pnmp: command not found\nExit Code: 127\nProcess Group PGID: 4242"
    assert run_capture(after("pnmp install", content), "--agent", "gemini", "--db", db, env=env).returncode == 0
    run_capture(after("ls", "Output: Exit Code: 1\nProcess Group PGID: 4243"), "--agent", "gemini", "--db", db,
                env=env)
    failures = stored(db, "outcome = 'failure'")
    assert len(failures) == 1
    row = failures[0]
    assert (row["source"], row["tool_name"], row["command"], row["error_class"]) == (
        "gemini", "Bash", "pnmp", "command not found")
    assert "Exit Code: 127" in row["error"]
    successes = stored(db, "outcome = 'success'")
    assert [(row["source"], row["command"]) for row in successes] == [("gemini", "ls")]


def test_capture_records_a_tool_error(env, tmp_path):
    db = tmp_path / "capture.db"
    payload = {**after("x", "File not found."), "tool_name": "read_file", "tool_input": {"file_path": "/nope"},
               "tool_response": {"llmContent": "File not found.", "returnDisplay": "",
                                 "error": {"message": "File not found: /nope", "type": "file_not_found"}}}
    run_capture(payload, "--agent", "gemini", "--db", db, env=env)
    [row] = stored(db)
    assert (row["outcome"], row["tool_name"], row["error"], row["error_class"]) == (
        "failure", "Read", "File not found: /nope", "no such file")


def dp(env, *args, cwd=None):
    return subprocess.run([str(BIN / "dp"), *args], capture_output=True, text=True, env=env, timeout=120, cwd=cwd)


def test_install_and_uninstall_round_trip_in_geminis_settings(env, tmp_path):
    project = tmp_path / "app"
    (project / ".gemini").mkdir(parents=True)
    settings = project / ".gemini" / "settings.json"
    original = b'{\n    "model": {"name": "gemini-2.5-pro"},\n    "hooks": {"BeforeTool": [\n      {"matcher": "write_file", "hooks": [{"type": "command", "command": "./lint.sh", "timeout": 900}]}\n    ]}\n}\n'
    settings.write_bytes(original)
    proc = dp(env, "pave", "--hook", "--agent", "gemini", "--scope", "project", "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    written = json.loads(settings.read_text())
    assert written["model"] == {"name": "gemini-2.5-pro"}
    before_tool = written["hooks"]["BeforeTool"]
    assert before_tool[0]["hooks"][0]["command"] == "./lint.sh"
    dp_handler = before_tool[1]["hooks"][0]
    # the shell and the names RULES' aliases correct; read_file is Gemini's own Read, no correction (issue 52)
    assert before_tool[1]["matcher"] == "^(Shell|list_directory|run_shell_command)$"
    assert "pave-check" in dp_handler["command"] and "--agent gemini" in dp_handler["command"]
    assert dp_handler["timeout"] == 5000
    assert written["hooks"]["SessionStart"][0]["hooks"][0]["command"] == dp_handler["command"]
    again = dp(env, "pave", "--hook", "--agent", "gemini", "--scope", "project", "--json", cwd=project)
    assert json.loads(again.stdout)["status"] == "already_configured"
    removed = dp(env, "uninstall", cwd=project)
    assert removed.returncode == 0, removed.stderr
    assert settings.read_bytes() == original


def test_the_gemini_scopes_are_user_and_project(env, tmp_path):
    proc = dp(env, "pave", "--hook", "--agent", "gemini", "--scope", "local", cwd=tmp_path)
    assert_one_line_error(proc, "unknown scope 'local' for Gemini CLI: use one of user, project")


def test_dp_init_for_gemini_installs_in_its_user_settings_and_proves_the_hook(tmp_path):
    env = build_store(tmp_path, [])
    proc = dp(env, "init", "--agent", "gemini", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["demo"]["ok"], report["demo"]
    assert report["demo"]["block"]["tool_name"] == "Read"  # Claude Code's name: the mistake models make in Gemini
    assert report["demo"]["block"]["message"] == "Read is not a valid tool. Use read_file instead."
    assert report["demo"]["rewrite"]["rewritten"].startswith("rg ")
    settings = json.loads((tmp_path / "home" / ".gemini" / "settings.json").read_text())
    assert sorted(settings["hooks"]) == ["AfterTool", "BeforeTool", "SessionStart"]
    after_tool = [group["hooks"][0]["command"] for group in settings["hooks"]["AfterTool"]]
    assert len(after_tool) == 2 and "pave-check --agent gemini" in after_tool[0]
    assert "dp-capture --agent gemini" in after_tool[1]
    text = dp(env, "init", "--agent", "gemini", cwd=tmp_path).stdout
    assert "The dp BeforeTool hook is already installed" in text
    assert "also on AfterTool and SessionStart: the corrections the model reads" in text
    assert not (tmp_path / "home" / ".claude").exists()


def test_dp_init_for_gemini_refuses_mcp(tmp_path):
    env = build_store(tmp_path, [])
    assert_one_line_error(dp(env, "init", "--agent", "gemini", "--mcp", cwd=tmp_path),
                          "--mcp registers dp's MCP server with Claude Code, not Gemini CLI")


def test_a_gemini_alias_of_claudes_name_corrects_gemini_and_leaves_claude_code_alone(tmp_path):
    env = build_store(tmp_path, [["Bash", "run_shell_command", "--force"], ["read_file", "Read"]])
    claude = subprocess.run([str(BIN / "pave-check")], input=json.dumps(
        {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
        capture_output=True, text=True, env=env, timeout=60)
    assert (claude.returncode, claude.stdout, claude.stderr) == (0, "", "")
    gemini = pave_check(env, {"session_id": "g", "cwd": "/tmp", "hook_event_name": "SessionStart"})
    text = json.loads(gemini.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Do NOT call `Bash`. Use `run_shell_command` instead." in text and "read_file" not in text
    instructions = dp(env, "pave", "--agents-md", "--agent", "gemini", cwd=tmp_path).stdout
    assert "Do NOT call `Bash`. Use `run_shell_command` instead." in instructions
    assert "read_file" not in instructions
    for_claude = dp(env, "pave", "--agents-md", "--agent", "claude", cwd=tmp_path).stdout
    assert "Do NOT call `read_file`. Use `Read` instead." in for_claude and "`Bash`" not in for_claude
    every_agent = dp(env, "pave", "--agents-md", cwd=tmp_path).stdout  # AGENTS.md: read by many agents, all rules
    assert "`Bash`" in every_agent and "`read_file`" in every_agent


def test_doctor_checks_the_gemini_install_and_says_how_tool_name_aliases_reach_it(tmp_path):
    env = build_store(tmp_path, [["Bash", "run_shell_command", "--force"], ["read_file", "Read"]])
    assert dp(env, "pave", "--hook", "--agent", "gemini", cwd=tmp_path).returncode == 0
    proc = dp(env, "doctor", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout  # Claude Code not set up is a warning when another agent is
    checks = json.loads(proc.stdout)["checks"]
    agents = [check for check in checks if check["check"] == "agents"]
    assert agents[0]["status"] == "ok" and "installed in Gemini CLI, user scope" in agents[0]["message"]
    # which calls start dp there, read from the entries (issue 52): the shell and the name an alias corrects
    assert agents[1]["message"].endswith(
        "dp starts pave-check for BeforeTool calls of Bash, run_shell_command only; pave-check for AfterTool "
        "calls of Bash, run_shell_command only; pave-check once a session (SessionStart)")
    assert "Gemini CLI rejects a tool name it does not know before any hook runs, so 1 tool-name alias" \
        in agents[2]["message"]
    assert agents[2]["status"] == "ok" and agents[2]["fix"] is None  # advice, not a problem: no fix beside ok
    assert agents[2]["message"].endswith("dp pave --agents-md --agent gemini --include-personal --output GEMINI.md)")
    [hook] = [check for check in checks if check["check"] == "hook"]  # no Claude Code on this machine: nothing to fix
    assert hook["status"] == "ok" and hook["message"].startswith("no Claude Code found")
    assert "dp is installed for Gemini CLI" in hook["message"]
    [shadow] = [check for check in checks if "Bash → run_shell_command" in check["message"]]
    assert shadow["status"] == "ok" and "Claude Code's own Bash is not blocked" in shadow["message"]


def test_doctor_finds_a_gemini_entry_that_reads_claude_codes_json(tmp_path):
    env = build_store(tmp_path, [])
    assert dp(env, "pave", "--hook", "--agent", "gemini", cwd=tmp_path).returncode == 0
    settings_file = tmp_path / "home" / ".gemini" / "settings.json"
    settings_file.write_text(settings_file.read_text().replace(" --agent gemini", ""))
    proc = dp(env, "doctor", "--json", cwd=tmp_path)
    assert proc.returncode == 1
    [problem] = [check for check in json.loads(proc.stdout)["checks"] if check["check"] == "agents"
                 and check["status"] == "error"]
    assert "reads Claude Code's JSON, not Gemini CLI's" in problem["message"]
    assert problem["fix"] == "dp pave --hook --agent gemini --scope user"
