"""A rewrite never widens what OpenCode (1.18.33) lets the agent do: its permission check judges the
rewritten call.

OpenCode runs ``tool.execute.before`` before the tool's own ``execute``, which asks for permission with
the arguments the plugin left. So a command the user allowed (``"grep *": "allow"``) rewritten into one
they did not is refused, exactly as if the model had typed the rewritten command itself.
"""

from __future__ import annotations

from real_client_opencode.opencode_support import bash

RULE_REFUSED = "The user has specified a rule which prevents you from using this specific tool call."


def prepared(opencode):
    (opencode.project / "notes.txt").write_text("TODO: one\n")
    opencode.program("rg", 'echo "RG RAN:" "$@"')
    opencode.init()
    opencode.dp("alias", "--cmd", "grep", "--replace", "rg")


def test_an_allowed_command_rewritten_into_a_denied_one_is_not_run(opencode):
    prepared(opencode)
    call = bash("grep -n TODO notes.txt")
    session = opencode.run([[call]], permission={"bash": {"*": "deny", "grep *": "allow"}})
    result = session.result(call)
    assert result.startswith(RULE_REFUSED)
    assert "RG RAN" not in result and "TODO: one" not in result


def test_the_same_rewrite_runs_where_the_rewritten_command_is_allowed(opencode):
    prepared(opencode)
    call = bash("grep -n TODO notes.txt")
    session = opencode.run([[call]], permission={"bash": {"*": "deny", "rg *": "allow"}})
    assert session.result(call).startswith("RG RAN: -n TODO notes.txt")


def test_without_a_rewrite_the_allowed_command_runs(opencode):
    (opencode.project / "notes.txt").write_text("TODO: one\n")
    opencode.init()
    call = bash("grep -n TODO notes.txt")
    session = opencode.run([[call]], permission={"bash": {"*": "deny", "grep *": "allow"}})
    assert session.result(call).startswith("1:TODO: one")
