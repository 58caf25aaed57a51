"""Which calls start a dp process in the real Gemini CLI (0.61.0): dp's entries name only the tools it
can act on (dp.agents.matchers), a regular expression Gemini searches in the tool name, so dp anchors it.

With a Bash rule and a tool-name alias of ``list_directory``, a recording wrapper in place of dp's
programs shows a ``read_file`` call starting no pave-check (dp-capture still records it: it stores
every call), while the rule still rewrites the shell call and the alias still blocks its tool.
"""

from __future__ import annotations

from recording_hooks import record, started

from dp.agents.gemini.fake_api import function_call, shell

BLOCKED = "dp: list files with glob here, never list_directory"


def test_a_call_of_a_tool_no_rule_names_starts_no_pave_check_and_the_rules_still_act(gemini):
    gemini.init()
    gemini.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    gemini.dp("alias", "list_directory", "glob", "--force", "--message", BLOCKED)
    gemini.program("newtool")
    (gemini.project / "notes.txt").write_text("x marks the spot\n")
    logs = record(gemini.settings, gemini.root)
    read = function_call("read_file", {"file_path": str(gemini.project / "notes.txt")})
    listing = function_call("list_directory", {"dir_path": "."})

    session = gemini.run([[read], [shell("oldtool --flag")], [listing]])

    pave = started(logs["pave-check"])
    assert "read_file" not in {tool for _, tool in pave}, pave
    assert ("BeforeTool", "run_shell_command") in pave and ("BeforeTool", "list_directory") in pave
    assert ("AfterTool", "read_file") in started(logs["dp-capture"])  # capture records every call
    assert "x marks the spot" in session.results("read_file")[0]
    assert "newtool ran: --flag" in session.results()[0]
    assert f"Tool execution blocked: {BLOCKED}" in session.results("list_directory")[0]
