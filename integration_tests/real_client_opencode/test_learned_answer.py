"""The answer at the moment of failure in the real OpenCode (issue 39): learned from two earlier
``opencode run`` sessions (python missing, python3 run instead), it reaches the model inside the next
failed shell call's result. OpenCode has no hook output after a call; dp's plugin hands the call to
dp-capture from ``tool.execute.after`` (a command that exits non-zero returns), and adds the
``note`` dp-capture answers to ``output.output``, the result the model reads; once per session."""

from __future__ import annotations

import learned_answers as story

from real_client_opencode.opencode_support import bash


def test_a_learned_answer_follows_the_failed_shell_call_once_per_session(opencode):
    story.setup(opencode)
    session, first, second = story.learn_then_fail_twice(
        opencode, lambda calls: opencode.run([[call] for call in calls]), bash)

    result = session.result(first)
    story.told_once(result, session.result(second), session.conversation.all_text)
    assert result.endswith(f"\n\ndp: this failure has a known answer. {story.WHY} {story.ANSWER}")
