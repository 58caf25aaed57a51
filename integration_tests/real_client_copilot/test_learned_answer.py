"""The answer at the moment of failure in the real Copilot CLI (issue 39): learned from two earlier
``copilot -p`` sessions (python missing, python3 run instead), it reaches the model inside the next
failed shell call's result. A command that exits non-zero is a success for Copilot's hooks, so it is
dp-capture's postToolUse ``additionalContext``, which Copilot appends as "Additional guidance from
postToolUse hooks"; once per session."""

from __future__ import annotations

import learned_answers as story

from dp.agents.claude.fake_api import shell


def test_a_learned_answer_follows_the_failed_shell_call_once_per_session(copilot):
    story.setup(copilot, "--agent", "copilot")
    session, first, second = story.learn_then_fail_twice(
        copilot, lambda calls: copilot.run([[call] for call in calls]), shell)

    result = session.tool_result(first["id"])["text"]
    story.told_once(result, session.shown(second["id"]), session.all_text)
    assert "exit code 127>\n\nTool \"bash\" succeeded. Additional guidance from postToolUse hooks:\ndp: " in result
