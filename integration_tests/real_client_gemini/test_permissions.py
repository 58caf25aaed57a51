"""A rewrite never widens what Gemini CLI (0.61.0) lets the agent do: its policy judges the rewritten call.

Gemini runs BeforeTool hooks before its policy check and confirmation, and checks the call the hook
returned. So a command the user allowed (``--allowed-tools "run_shell_command(grep)"``) rewritten into
one they did not allow is asked about — in ``-p`` there is no one to ask, so it is refused — exactly as
if the model had typed the rewritten command itself.
"""

from __future__ import annotations

from dp.agents.gemini.fake_api import shell


def prepared(gemini):
    (gemini.project / "notes.txt").write_text("TODO: one\n")
    gemini.program("rg", 'echo "RG RAN:" "$@"')
    gemini.init()
    gemini.dp("alias", "--cmd", "grep", "--replace", "rg")


def test_an_allowed_command_rewritten_into_a_disallowed_one_is_not_run(gemini):
    prepared(gemini)
    session = gemini.run([[shell("grep -n TODO notes.txt")]], "--allowed-tools", "run_shell_command(grep)",
                         approval="default")
    [result] = session.results()
    assert result.startswith("Tool execution denied by policy.")
    assert "RG RAN" not in result and "TODO: one" not in result


def test_the_same_rewrite_runs_where_the_rewritten_command_is_allowed(gemini):
    prepared(gemini)
    session = gemini.run([[shell("grep -n TODO notes.txt")]], "--allowed-tools", "run_shell_command(rg)",
                         approval="default")
    [result] = session.results()
    assert "RG RAN: -n TODO notes.txt" in result


def test_without_a_rewrite_the_allowed_command_runs(gemini):
    (gemini.project / "notes.txt").write_text("TODO: one\n")
    gemini.init()
    session = gemini.run([[shell("grep -n TODO notes.txt")]], "--allowed-tools", "run_shell_command(grep)",
                         approval="default")
    [result] = session.results()
    assert "1:TODO: one" in result
