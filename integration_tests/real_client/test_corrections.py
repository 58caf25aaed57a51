"""Tool-name corrections reach the model in the real client, through the channels that work."""

from __future__ import annotations

from dp.agents.claude.fake_api import bash, tool_use


def test_read_file_alias_reaches_the_model_at_start_and_after_the_rejected_call(client):
    client.init()
    client.dp("alias", "read_file", "Read")
    client.dp("alias", "--cmd", "oldtool", "--replace", "newtool", "--message", "newtool is the one we use")
    client.program("newtool")  # a rewrite is taught only where its program is there (issue 49, finding 3)
    wrong = tool_use("read_file", {"file_path": "notes.txt"})
    session = client.run([[wrong]])
    result = session.tool_result(wrong["id"])
    # The client rejects the unknown name itself: no PreToolUse hook could block it…
    assert "No such tool available: read_file" in result["text"] and result["is_error"]
    # …but PostToolBatch tells the model the right name, next to the error.
    assert "dp: read_file is not a valid tool. Use Read instead." in result["context"]
    # And SessionStart said it up front, with the command corrections.
    opening = session.opening
    assert "Do NOT call `read_file`. Use `Read` instead." in opening
    assert "oldtool: Use `newtool` instead of `oldtool` (newtool is the one we use)" in opening


def test_no_rules_no_context(client):
    client.init()
    wrong = tool_use("read_file", {"file_path": "notes.txt"})
    session = client.run([[wrong]])
    assert "dp" not in session.tool_result(wrong["id"])["context"]
    assert "desire paths" not in session.all_text


def test_a_known_tool_name_is_still_blocked_by_pre_tool_use(client):
    client.init()
    client.dp("alias", "Write", "Edit", "--message", "edit files in place here", "--force")  # a real tool: --force
    call = tool_use("Write", {"file_path": str(client.project / "a.txt"), "content": "x"})
    session = client.run([[call]])
    result = session.tool_result(call["id"])
    assert result["is_error"] and "edit files in place here" in result["text"]
    assert not (client.project / "a.txt").exists()


def test_a_bash_command_that_fails_gets_no_tool_name_note(client):
    client.init()
    client.dp("alias", "read_file", "Read")
    failing = bash("exit 3")
    session = client.run([[failing]])
    assert "read_file" not in session.tool_result(failing["id"])["context"]


def test_agents_md_reaches_the_model_through_the_claude_md_import(client):
    client.init()
    client.dp("alias", "read_file", "Read", "--message", "Read is the file tool here")
    (client.project / "CLAUDE.md").write_text("Project rules follow.\n")
    client.dp("pave", "--agents-md", "--include-personal", "--output", "AGENTS.md")
    client.dp("pave", "--claude-md")
    session = client.run([])
    assert "Project rules follow." in session.opening
    assert "# Tool Name Corrections" in session.opening  # AGENTS.md, through @AGENTS.md
