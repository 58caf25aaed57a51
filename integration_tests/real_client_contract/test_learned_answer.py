"""The answer at the moment of failure in every agent's real binary (issue 39), the story of
``learned_answers.py``: learned from two earlier sessions of the agent (python missing, python3 run
instead), it reaches the model right after the next failed shell call, in the agent's after-failure
channel (its harness's ``answer_mark``: Gemini's ``<hook_context>`` after the output, Copilot's
"Additional guidance from postToolUse hooks", OpenCode's plugin note at the end of the result, Codex's
``developer`` message after it), and a second identical failure in the same session is not told again."""

from __future__ import annotations

import learned_answers as story
import pytest

from real_client_contract.harnesses import agents

NOTE = f"dp: this failure has a known answer. {story.WHY} {story.ANSWER}"


@pytest.mark.parametrize("harness", agents("codex", "copilot", "gemini", "opencode", "qwen"))
def test_a_learned_answer_follows_the_failed_shell_call_once_per_session(harness, user):
    story.setup(user, *harness.init)
    session, first, second = story.learn_then_fail_twice(
        user, lambda calls: harness.run(user, [[call] for call in calls]), harness.shell)

    result = harness.result(session, first)
    told = harness.shown(session, first) if harness.answer_after_result else result
    story.told_once(told, harness.shown(session, second), harness.everything(session))
    if harness.answer_after_result:  # after the output, before the next turn
        assert story.count(result) == 0
    mark = harness.answer_mark.format(answer=NOTE)
    assert mark in result
    if harness.answer_last:
        assert result.endswith(mark), result
