"""The answer at the moment of failure in the real Gemini CLI (issue 39): learned from two earlier
``gemini -p`` sessions (python missing, python3 run instead), it reaches the model inside the next
failed shell call's result (dp-capture's AfterTool ``additionalContext``, which Gemini puts in
``<hook_context>`` after the output), once per session."""

from __future__ import annotations

import learned_answers as story

from dp.agents.gemini.fake_api import shell


def test_a_learned_answer_follows_the_failed_shell_call_once_per_session(gemini):
    story.setup(gemini)
    session, _, _ = story.learn_then_fail_twice(gemini, lambda calls: gemini.run([[call] for call in calls]), shell)

    first, second = session.results()
    story.told_once(first, second, session.conversation.text)
    assert f"<hook_context>dp: this failure has a known answer. {story.WHY} {story.ANSWER}</hook_context>" in first
