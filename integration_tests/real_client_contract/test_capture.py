"""Capture in every agent's real binary: a shell command that fails is stored by dp-capture as the
agent's (``source``), under the neutral tool name ``Bash`` and with what the model typed, classified,
and offered by ``dp paths``; the successful call beside it is no desire."""

from __future__ import annotations

import json

import pytest

from real_client_contract.harnesses import agents

# A command the user's machine does not have (the typo of pnpm), and one that fails on a missing path.
FAILING = {"command not found": ("pnmp install --frozen-lockfile", 127, "pnmp: command not found"),
           "no such file": ("ls /no-such-dir-for-dp", 2, "No such file or directory")}


@pytest.mark.parametrize("error_class", list(FAILING))
@pytest.mark.parametrize("harness", agents("codex", "gemini", "opencode", "qwen"))
def test_a_failing_command_shows_up_in_dp_desires_as_the_agents(harness, user, error_class):
    command, code, error = FAILING[error_class]
    user.init(*harness.init)
    failing, fine = harness.shell(command), harness.shell("echo fine")

    session = harness.run(user, [[failing], [fine]])

    result = harness.result(session, failing)
    assert error in result, result
    assert harness.exit_shown.format(code) in result, result
    desires = json.loads(user.dp("desires", "--json").stdout)
    assert len(desires) == 1, desires  # the successful call is stored as a shape, not a desire
    [desire] = desires
    assert (desire["tool_name"], desire["source"]) == ("Bash", harness.agent)
    assert desire["tool_input"]["command"] == command
    assert desire["error_class"] == error_class and error in desire["error"]
    if harness.captured_exactly:
        assert desire["tool_input"] == {"command": command}
    assert desire["error"].startswith(harness.captured_error.format(code))
    if error_class == "command not found":  # dp paths offers the missing program's desire
        assert "pnmp" in user.dp("paths").stdout
