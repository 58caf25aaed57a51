"""Tool-name corrections in every agent's real binary: a made-up tool name the user aliased to Claude
Code's ``Read`` gets the agent's answer (dp's correction where a hook sees the call; the agent's own
where none runs, Codex), the corrections stand in what the model read before its first turn, and the
call dp answered is no failure of the agent's. A tool-name alias of the agent's own shell tool blocks
every shell call with the alias's message, and the command never runs."""

from __future__ import annotations

import json

import pytest

from real_client_contract.harnesses import agents


@pytest.mark.parametrize("harness", agents(where=lambda harness: bool(harness.made_up_answer)))
def test_a_made_up_tool_name_is_answered_and_corrected_up_front(harness, user):
    (user.project / "a.txt").write_text("content\n")
    user.init(*harness.init)
    user.dp("alias", "read_file", "Read")
    call = harness.tool_call("read_file", {"path": "a.txt"})

    session = harness.run(user, [[call]])

    assert harness.result(session, call) == harness.made_up_answer
    opening = harness.opening(session)
    assert "read_file" in opening and harness.read_tool in opening, opening
    assert json.loads(user.dp("desires", "--json").stdout) == []


@pytest.mark.parametrize("harness", agents(where=lambda harness: bool(harness.shell_tool)))
def test_a_tool_name_alias_of_the_shell_tool_blocks_the_call_with_its_message(harness, user):
    message = "Run shell commands through mcp__sandbox__run."
    user.init(*harness.init)
    user.dp("alias", "--force", harness.shell_tool, "mcp__sandbox__run", "-m", message)
    user.program("touchit", 'touch "$PWD/ran"')
    call = harness.shell("touchit")

    session = harness.run(user, [[call]])

    assert harness.result(session, call).strip() == harness.blocked.format(message=message, command="touchit")
    assert not (user.project / "ran").exists()
