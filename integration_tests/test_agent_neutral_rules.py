"""Rules about tools are written once and fit every agent dp serves.

A tool-name alias between two agents' names for one tool (`Bash → run_shell_command`) is a
correction where the first name is not a real tool and nothing where it is: `dp alias` takes it
without --force. An alias that would block a real tool of *any* agent still needs --force. A
rule on a tool's argument (`--tool Read --param file_path`) acts on that argument however the
agent names the tool and the argument (Copilot CLI's `view` and `path`, Gemini CLI's `glob` and
`dir_path`), and its answer keeps the agent's names.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from hook_support import BIN, dp_alias, isolated_env


@pytest.fixture
def env(tmp_path):
    return isolated_env(tmp_path)


def aliases(env) -> list[dict]:
    proc = subprocess.run([str(BIN / "dp"), "aliases", "--json"], capture_output=True, text=True, env=env, timeout=60)
    return json.loads(proc.stdout)


@pytest.mark.parametrize("names", [
    ("Bash", "run_shell_command"),  # Claude Code's name → Gemini CLI's, for Gemini sessions
    ("run_shell_command", "Bash"),
    ("Read", "view"),  # → Copilot CLI's
    ("view", "read_file"),
    ("grep_search", "Grep"),
])
def test_an_alias_between_names_of_one_tool_needs_no_force(env, names):
    proc = dp_alias(env, *names)
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    assert [(rule["from_name"], rule["to_name"]) for rule in aliases(env)] == [names]


@pytest.mark.parametrize("names, agent", [
    (("Read", "Write"), "Claude Code"),
    (("read_file", "Bash"), "Gemini CLI"),
    (("create", "edit"), "Copilot CLI"),
])
def test_an_alias_that_blocks_a_real_tool_of_any_agent_needs_force(env, names, agent):
    proc = dp_alias(env, *names)
    assert proc.returncode != 0 and aliases(env) == []
    assert f"{names[0]} is a real {agent} tool" in proc.stderr and "--force" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert dp_alias(env, *names, "--force").returncode == 0


@pytest.mark.parametrize("given, stored", [
    (("view", "path"), ("Read", "file_path")),  # Copilot CLI's names
    (("create", "file_text"), ("Write", "content")),
    (("glob", "dir_path"), ("Glob", "path")),  # Gemini CLI's (glob is Copilot's too, with `paths`)
    (("grep_search", "include_pattern"), ("Grep", "glob")),
    (("read_file", "file_path"), ("Read", "file_path")),
    (("Read", "file_path"), ("Read", "file_path")),
])
def test_a_parameter_rule_is_stored_under_dps_names_whichever_agent_named_it(env, given, stored):
    proc = dp_alias(env, "--tool", given[0], "--param", given[1], "/srv/old/", "/srv/new/")
    assert proc.returncode == 0, proc.stderr
    assert [(rule["tool"], rule["param"]) for rule in aliases(env)] == [stored]


def test_a_tool_no_agent_has_is_still_refused(env):
    proc = dp_alias(env, "--tool", "frobnicate", "--param", "x", "a", "b")
    assert proc.returncode != 0 and "frobnicate" in proc.stderr and aliases(env) == []


# -- the hook, in each agent's words -------------------------------------------------------------


def hook(env, agent: str, payload: dict) -> dict:
    proc = subprocess.run([str(BIN / "pave-check"), "--agent", agent], input=json.dumps(payload),
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return json.loads(proc.stdout) if proc.stdout else {}


def copilot(tool: str, args: dict) -> dict:
    return {"sessionId": "c1", "timestamp": 1795688689893, "cwd": "/work/app", "toolName": tool, "toolArgs": args}


def gemini(tool: str, tool_input: dict) -> dict:
    return {"session_id": "g1", "transcript_path": "", "cwd": "/work/app", "hook_event_name": "BeforeTool",
            "tool_name": tool, "tool_input": tool_input}


@pytest.fixture
def moved(env):
    """The repository moved from /srv/old to /srv/new: one rule on Read's file_path, one on Write's content."""
    for rule in (["--tool", "Read", "--param", "file_path", "/srv/old/", "/srv/new/"],
                 ["--tool", "Write", "--param", "content", "http://old.example", "https://new.example"],
                 ["--tool", "Glob", "--param", "path", "/srv/old", "/srv/new"]):
        assert dp_alias(env, *rule).returncode == 0
    return env


def test_claude_codes_read(moved):
    payload = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Read",
               "tool_input": {"file_path": "/srv/old/a.py", "limit": 10}}
    specific = hook(moved, "claude", payload)["hookSpecificOutput"]
    assert specific["updatedInput"] == {"file_path": "/srv/new/a.py", "limit": 10}


def test_copilots_view_path(moved):
    output = hook(moved, "copilot", copilot("view", {"path": "/srv/old/a.py", "view_range": [1, 5]}))
    assert output["modifiedArgs"] == {"path": "/srv/new/a.py", "view_range": [1, 5]}
    assert "path: '/srv/old/' → '/srv/new/'" in output["additionalContext"]  # in Copilot's words


def test_copilots_create_file_text(moved):
    output = hook(moved, "copilot", copilot("create", {"path": "/tmp/x", "file_text": "see http://old.example"}))
    assert output["modifiedArgs"] == {"path": "/tmp/x", "file_text": "see https://new.example"}


def test_geminis_glob_dir_path(moved):
    output = hook(moved, "gemini", gemini("glob", {"pattern": "*.py", "dir_path": "/srv/old/src"}))
    assert output["hookSpecificOutput"]["tool_input"] == {"pattern": "*.py", "dir_path": "/srv/new/src"}


def opencode(tool: str, args: dict) -> dict:
    return {"hook_event_name": "tool.execute.before", "tool": tool, "args": args, "session_id": "ses_1",
            "call_id": "call_1", "cwd": "/tmp"}


def test_opencodes_read_file_path(moved):
    """OpenCode 1.18.33 calls Read's file_path `filePath` (its read, write and edit schemas)."""
    output = hook(moved, "opencode", opencode("read", {"filePath": "/srv/old/a.py", "offset": 3}))
    assert output["args"] == {"filePath": "/srv/new/a.py", "offset": 3}
    output = hook(moved, "opencode", opencode("write", {"filePath": "/tmp/x", "content": "see http://old.example"}))
    assert output["args"] == {"filePath": "/tmp/x", "content": "see https://new.example"}


def test_each_agent_has_its_own_name_for_the_argument(moved):
    """Copilot CLI calls Glob's path `paths`; Gemini CLI calls it `dir_path`, so a `path` key in
    Gemini's call is not that argument and stays as it is."""
    assert hook(moved, "copilot", copilot("glob", {"pattern": "*.py", "paths": "/srv/old/src"}))["modifiedArgs"] == {
        "pattern": "*.py", "paths": "/srv/new/src"}
    assert hook(moved, "gemini", gemini("glob", {"pattern": "*.py", "path": "/srv/old/src"})) == {}


def test_a_blocked_tool_name_says_the_arguments_in_the_agents_words(env):
    assert dp_alias(env, "read_file", "Read").returncode == 0
    output = hook(env, "copilot", copilot("read_file", {"file_path": "notes.txt"}))
    assert output == {"permissionDecision": "deny", "permissionDecisionReason":
                      "read_file is not a valid tool. Use view instead, with path (not file_path)."}
    # Arguments that already fit: the plain correction.
    output = hook(env, "copilot", copilot("read_file", {"path": "notes.txt"}))
    assert output["permissionDecisionReason"] == "read_file is not a valid tool. Use view instead."


def test_an_alias_for_other_agents_blocks_no_real_tool_anywhere(env):
    """`Bash → run_shell_command` is for Gemini CLI sessions: Codex's hooks see its shell tool as
    Bash, and Claude Code's Bash is Bash; neither is blocked."""
    assert dp_alias(env, "Bash", "run_shell_command").returncode == 0
    call = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": "/tmp",
            "tool_input": {"command": "ls"}, "permission_mode": "bypassPermissions", "tool_use_id": "t"}
    for agent in ("codex", "claude"):
        proc = subprocess.run([str(BIN / "pave-check"), "--agent", agent], input=json.dumps(call),
                              capture_output=True, text=True, env=env, timeout=60)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", ""), agent
    # Copilot's shell tool is `bash`; a model that calls `Bash` there is told Copilot's name.
    output = hook(env, "copilot", copilot("Bash", {"command": "ls"}))
    assert output["permissionDecisionReason"] == "Bash is not a valid tool. Use bash instead."
