"""dp stats after a scripted session in the real Claude Code (issue 51): three rules — one that helps
(grep → rg, with rg on this machine), one that hurts (cat → false: every rewritten call fails) and a learned
answer after a failure — each with its actions and their outcomes counted exactly, from what the real
pave-check noted and the real dp-capture recorded."""

from __future__ import annotations

import json
import shutil

import pytest

from dp.agents.claude.fake_api import bash
from real_client.test_learned_answer import _earlier_session


def _counts(report: dict, kind: str, *keys: str) -> list[dict]:
    return [{key: rule[key] for key in ("rule", *keys)} for rule in report["rules"] if rule["kind"] == kind]


def test_dp_stats_counts_each_rules_actions_and_outcomes_in_a_real_session(client):
    if not shutil.which("rg", path=client.env["PATH"]):
        pytest.skip("grep → rg helps only on a machine with rg")
    if shutil.which("gradle", path=client.env["PATH"]):
        pytest.skip("this machine has gradle: the call would not fail")
    client.init()
    client.dp("alias", "--cmd", "grep", "--replace", "rg")
    client.dp("alias", "--cmd", "cat", "--replace", "false")
    (client.project / ".git").mkdir()
    (client.project / "src").mkdir()
    (client.project / "src" / "main.py").write_text("# TODO: handle errors\n")
    (client.project / "README.md").write_text("# app\n")
    (client.project / "gradlew").write_text("#!/bin/sh\necho BUILD SUCCESSFUL\n")
    (client.project / "gradlew").chmod(0o755)
    _earlier_session(client, "earlier-1")
    _earlier_session(client, "earlier-2")
    client.dp("suggest", "--json")  # learns gradle → ./gradlew

    calls = [bash("grep -rn TODO src"), bash("cat README.md"), bash("cat src/main.py"), bash("gradle -q build"),
             bash("./gradlew -q build")]
    session = client.run([[call] for call in [*calls, client.captured(calls)]])
    assert [session.tool_result(call["id"])["is_error"] for call in calls] == [False, True, True, True, False]

    report = json.loads(client.dp("stats", "--json").stdout)
    assert (report["rewritten"], report["blocked"], report["answered"], report["answers_followed"]) == (3, 0, 1, 1)
    keys = ("actions", "succeeded", "failed", "unknown", "undone", "hurts")
    assert _counts(report, "rewrite", *keys) == [
        {"rule": "cat → false", "actions": 2, "succeeded": 0, "failed": 2, "unknown": 0, "undone": 0, "hurts": True},
        {"rule": "grep → rg", "actions": 1, "succeeded": 1, "failed": 0, "unknown": 0, "undone": 0, "hurts": False}]
    [answer] = _counts(report, "answer", "actions", "failed", "followed", "followed_and_worked")
    assert answer["rule"].startswith("learned #") and answer["rule"].endswith(": gradle → ./gradlew")
    assert {key: answer[key] for key in ("actions", "failed", "followed", "followed_and_worked")} == \
        {"actions": 1, "failed": 1, "followed": 1, "followed_and_worked": 1}
    assert [agent["agent"] for agent in report["agents"]] == ["claude"]


def test_a_rule_dp_suggest_made_that_hurts_is_switched_off_after_a_real_session(client):
    """The Done-when's session (integration_tests/outcomes_story.py): the hurtful rule came from
    dp suggest --apply, so besides its exact counts it is flagged, switched off, and said so once."""
    import outcomes_story as story

    if story.missing(client):
        pytest.skip(story.missing(client))
    python = story.setup(client)
    calls = [bash(command) for command in story.commands(python)]
    session = client.run([[call] for call in [*calls, client.captured(calls)]])
    assert [session.tool_result(call["id"])["is_error"] for call in calls] == story.FAILED
    story.check(client)
    after = client.run([[bash("python scripts/hello.py")]])  # switched off: the call runs as typed
    assert "hello" in after.tool_result(after_id(after))["text"]


def after_id(session) -> str:
    return next(block["tool_use_id"] for message in session.messages if message.get("role") == "user"
                for block in (message.get("content") if isinstance(message.get("content"), list) else [])
                if isinstance(block, dict) and block.get("type") == "tool_result")
