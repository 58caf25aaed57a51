"""dp in the real Gemini CLI (0.61.0): rewrites, paving, blocks, capture and context, proven by what ran
and by what the scripted model was shown."""

from __future__ import annotations

from dp.agents.gemini.fake_api import function_call


def test_a_known_tool_alias_blocks_with_dps_message(gemini):
    gemini.init()
    gemini.dp("alias", "list_directory", "glob", "--force", "--message", "dp: list files with glob here, never list_directory")

    session = gemini.run([[function_call("list_directory", {"dir_path": "."})]])

    [result] = session.results("list_directory")
    assert "Tool execution blocked: dp: list files with glob here, never list_directory" in result


def test_session_start_context_carries_the_tool_name_corrections(gemini):
    gemini.init()
    gemini.dp("alias", "Bash", "run_shell_command", "--force")
    gemini.dp("alias", "read_file", "Read")  # Claude Code's correction: Gemini's own read_file, never mentioned

    session = gemini.run([], prompt="List the files.")

    opening = session.opening
    assert "dp (desire paths) corrections on this machine" in opening
    assert "Do NOT call `Bash`. Use `run_shell_command` instead." in opening
    assert "read_file" not in opening
    assert opening.index("Do NOT call") < opening.index("List the files.")
