"""The answer at the moment of failure in the real Codex CLI (issue 39): learned from two earlier
``codex exec`` sessions (python missing, python3 run instead), it reaches the model right after the
next failed shell call as a ``developer`` message (dp-capture's PostToolUse ``additionalContext``:
Codex has no failure event, dp reads the exit code from its session file), once per session."""

from __future__ import annotations

import learned_answers as story

from dp.agents.codex.fake_api import shell


def test_a_learned_answer_follows_the_failed_shell_call_once_per_session(codex):
    story.setup(codex)
    session, first, second = story.learn_then_fail_twice(
        codex, lambda calls: codex.run([[call] for call in calls], "-s", "workspace-write"), shell)

    story.told_once(session.shown(first), session.shown(second), session.conversation.all_text)
    assert story.count(session.conversation.context(first["call_id"])) == 1  # after the output, before the next turn
