"""Tool-name corrections in the real Copilot CLI: an unknown tool name reaches the pre-tool hook, so dp
blocks it with the right name and the model reissues the call; the corrections are also said up front."""

from __future__ import annotations

import pytest

from dp.agents.claude.fake_api import shell, tool_use


def test_a_hallucinated_tool_name_is_blocked_with_dps_correction_and_the_model_reissues_it(copilot):
    copilot.init("--agent", "copilot")
    copilot.dp("alias", "read_file", "Read")
    (copilot.project / "notes.txt").write_text("the notes\n")
    wrong = tool_use("read_file", {"path": "notes.txt"})
    right = tool_use("view", {"path": str(copilot.project / "notes.txt")})
    session = copilot.run([[wrong], [right]])

    # dp's message, in Copilot's name for the tool, is what the model reads for the wrong call …
    assert session.tool_result(wrong["id"])["text"] == (
        "Denied by preToolUse hook: read_file is not a valid tool. Use view instead.")
    # … and the call it reissues under that name runs.
    assert "the notes" in session.tool_result(right["id"])["text"]


def test_a_known_tool_alias_blocks_with_the_users_message(copilot):
    copilot.init("--agent", "copilot")
    copilot.dp("alias", "create", "edit", "--force", "--message", "edit files in place here")  # Copilot's own tool names
    call = tool_use("create", {"path": str(copilot.project / "a.txt"), "file_text": "x"})
    session = copilot.run([[call]])

    assert session.tool_result(call["id"])["text"] == "Denied by preToolUse hook: edit files in place here"
    assert not (copilot.project / "a.txt").exists()


def test_the_corrections_reach_the_model_at_session_start_in_copilots_tool_names(copilot):
    copilot.init("--agent", "copilot")
    copilot.dp("alias", "read_file", "Read")
    copilot.dp("alias", "--cmd", "oldtool", "--replace", "newtool", "--message", "newtool is the one we use")
    copilot.program("newtool")  # a rewrite is taught only where its program is there (issue 49, finding 3)
    session = copilot.run([[shell("echo hi")]])

    opening = session.opening
    assert "dp (desire paths) corrections on this machine; follow them:" in opening
    assert "Do NOT call `read_file`. Use `view` instead." in opening
    assert "oldtool: Use `newtool` instead of `oldtool` (newtool is the one we use)" in opening


def test_no_rules_no_context(copilot):
    copilot.init("--agent", "copilot")
    call = shell("echo hi")
    session = copilot.run([[call]])

    assert "desire paths" not in session.all_text
    assert session.tool_result(call["id"])["context"] == ""


@pytest.mark.parametrize("instructions", [".github/copilot-instructions.md", "AGENTS.md"])
def test_the_instructions_file_carries_the_corrections(copilot, instructions):
    """`dp pave --agents-md --agent copilot` written to either file Copilot reads reaches the model's system prompt."""
    copilot.init("--agent", "copilot")
    copilot.dp("alias", "read_file", "Read", "--message", "view is the file tool here")
    (copilot.project / ".github").mkdir()
    copilot.dp("pave", "--agents-md", "--include-personal", "--agent", "copilot", "--output", instructions)
    (copilot.user_hooks / "dp.json").unlink()  # only the file speaks now: no session-start context
    session = copilot.run([])

    system = "\n".join(block["text"] for block in session.fake.main_requests[0]["system"])
    assert "# Tool Name Corrections" in system
    assert "Do NOT call `read_file`. Use `view` instead. (view is the file tool here)" in system
