"""Bash rewrites in the real client: what runs is what the rules say, nothing else changes."""

from __future__ import annotations

from dp.agents.claude.fake_api import bash


def _user_with_rules(client, *rules):
    client.init()
    for rule in rules:
        client.dp("alias", *rule)
    client.program("oldtool")
    client.program("newtool")


def test_command_flag_and_recipe_rewrites_reach_execution(client):
    _user_with_rules(
        client,
        ("--cmd", "oldtool", "--replace", "newtool"),
        ("--cmd", "newtool", "--flag", "r", "R"),
        ("--recipe", "newtool wait", "echo waited for {{ arg(1) }}"),
    )
    command, flag, recipe, untouched = (
        bash("oldtool -x a.txt | cat"),
        bash("cd . && newtool -r dir"),
        bash("newtool wait 'job 1; echo INJECTED'"),
        bash("echo oldtool stays quoted"),
    )
    session = client.run([[command], [flag], [recipe], [untouched]])
    assert session.result["is_error"] is False
    assert session.tool_result(command["id"])["text"] == "newtool ran: -x a.txt"
    assert session.tool_result(flag["id"])["text"] == "newtool ran: -R dir"
    assert session.tool_result(recipe["id"])["text"] == "waited for job 1; echo INJECTED"
    assert session.tool_result(untouched["id"])["text"] == "oldtool stays quoted"
    # The model is told what changed, next to the output.
    assert "oldtool → newtool" in session.shown(command["id"])


def test_a_command_of_plain_words_is_rewritten_without_the_parser_too(client):
    """The hook splits plain words itself (no bashlex); the model still sees the same result and note."""
    _user_with_rules(client, ("--cmd", "oldtool", "--replace", "newtool"), ("--cmd", "newtool", "--flag", "r", "R"))
    plain, wrapped = bash("oldtool -x a.txt"), bash("env LANG=C newtool -r dir")
    session = client.run([[plain], [wrapped]])
    assert session.tool_result(plain["id"])["text"] == "newtool ran: -x a.txt"
    assert session.tool_result(wrapped["id"])["text"] == "newtool ran: -R dir"
    assert "oldtool → newtool" in session.tool_result(plain["id"])["context"]


def test_other_tool_input_keys_survive_a_rewrite(client):
    _user_with_rules(client, ("--cmd", "oldtool", "--replace", "newtool"))
    background = bash("oldtool bg; sleep 4", run_in_background=True, description="in the background")
    timed = bash("oldtool slow; sleep 4", timeout=1500, description="with a short timeout")
    session = client.run([[background], [timed]])
    # run_in_background kept: the call returns at once with a background id.
    assert "background" in session.tool_result(background["id"])["text"].lower()
    # timeout kept: the 1.5 s limit moved the 4 s command to the background.
    timed_text = session.tool_result(timed["id"])["text"]
    assert "did not complete" in timed_text or "background" in timed_text.lower()
    # …and both were rewritten, not merely passed through.
    assert "oldtool → newtool" in session.shown(background["id"])
    assert "oldtool → newtool" in session.shown(timed["id"])
