"""A rewrite never widens what the agent may run: where the agent's own permission rules judge the call
after dp's hook, a command the user allowed, rewritten into one they did not, is refused — exactly as if
the model had typed the rewritten command itself — and runs where the rewritten command is allowed.

Gemini CLI runs BeforeTool hooks before its policy check and checks the call the hook returned
(``--allowed-tools "run_shell_command(grep)"``, in ``-p`` whatever needs asking is refused); OpenCode
runs ``tool.execute.before`` before the tool's ``execute``, which asks with the arguments the plugin
left (``"grep *": "allow"``)."""

from __future__ import annotations

import pytest

from real_client_contract.harnesses import agents

WITH_RULES = agents("gemini", "opencode")


def prepared(harness, user, rule: bool = True):
    (user.project / "notes.txt").write_text("TODO: one\n")
    user.program("rg", 'echo "RG RAN:" "$@"')
    user.init(*harness.init)
    if rule:
        user.dp("alias", "--cmd", "grep", "--replace", "rg")


def run_allowing(harness, user, name: str):
    """The session's one call, ``grep -n TODO notes.txt``, with only the command ``name`` allowed."""
    call = harness.shell("grep -n TODO notes.txt")
    args, options = harness.permit(name)
    return harness.result(harness.run(user, [[call]], *args, **options), call)


@pytest.mark.parametrize("harness", WITH_RULES)
def test_an_allowed_command_rewritten_into_a_disallowed_one_is_not_run(harness, user):
    prepared(harness, user)
    result = run_allowing(harness, user, "grep")
    assert result.startswith(harness.refused), result
    assert "RG RAN" not in result and "TODO: one" not in result


@pytest.mark.parametrize("harness", WITH_RULES)
def test_the_same_rewrite_runs_where_the_rewritten_command_is_allowed(harness, user):
    prepared(harness, user)
    result = run_allowing(harness, user, "rg")
    assert "RG RAN: -n TODO notes.txt" in result
    if harness.output_first:
        assert result.startswith("RG RAN: -n TODO notes.txt"), result


@pytest.mark.parametrize("harness", WITH_RULES)
def test_without_a_rewrite_the_allowed_command_runs(harness, user):
    prepared(harness, user, rule=False)
    result = run_allowing(harness, user, "grep")
    assert "1:TODO: one" in result
    if harness.output_first:
        assert result.startswith("1:TODO: one"), result
