"""The answer at the moment of failure in the real Qwen Code (issue 39): learned from two earlier
``qwen -p`` sessions (python missing, python3 run instead), it reaches the model inside the next
failed shell call's result (dp-capture's PostToolUseFailure ``additionalContext``, which Qwen Code
appends to the result), once per session."""

from __future__ import annotations

import learned_answers as story

from dp.live.openai_compat import shell


def test_a_learned_answer_follows_the_failed_shell_call_once_per_session(qwen):
    story.setup(qwen)
    session, first, second = story.learn_then_fail_twice(qwen, lambda calls: qwen.run([[c] for c in calls]), shell)

    result = session.output(first)  # the failed call's own result
    story.told_once(result, session.conversation.shown(second["id"]), session.conversation.all_text)
    assert "Exit Code: 127" in result
