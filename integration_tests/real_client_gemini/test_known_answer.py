"""The answer at the first failure in the real Gemini CLI (issue 50): on a machine without ripgrep the
first `rg -n foo src` of a session fails (Gemini's shell has no ripgrep of its own, unlike Claude Code's
and Codex's, whose shells run their bundled rg), and with nothing in dp's store the grep translation
reaches the model inside that call's result (dp-capture's AfterTool ``additionalContext``, in
``<hook_context>``), once."""

from __future__ import annotations

import json
import sqlite3

import learned_answers as story

from dp.agents.gemini.fake_api import shell

ANSWER = ("dp: rg is not installed here; the same search with grep, every flag translated by dp's table:\n"
          "grep -n -r foo src")


def test_the_first_rg_of_a_session_without_ripgrep_is_answered_with_grep_once(gemini):
    story.without(gemini, "rg", "grep")
    gemini.init()
    (gemini.project / "src").mkdir()
    (gemini.project / "src" / "app.py").write_text("def foo():\n    return 42\n")
    assert json.loads(gemini.dp("desires", "--json").stdout) == []  # no history at all

    session = gemini.run([[shell("rg -n foo src")], [shell("rg -n foo src")]])

    first, second = session.results()
    assert "rg: command not found" in first and "rg: command not found" in second, (first, second)
    assert f"<hook_context>{ANSWER}</hook_context>" in first
    assert ANSWER not in second
    assert session.conversation.text.count(ANSWER) == 1
    conn = sqlite3.connect(gemini.store)
    assert conn.execute("SELECT count(*) FROM learned").fetchone() == (0,)
    assert conn.execute("SELECT rule, to_command FROM actions WHERE kind = 'answer'").fetchall() == [
        ("known (table): rg → grep", "grep")]
