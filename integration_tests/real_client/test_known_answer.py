"""The answer at the first failure in the real Claude Code (issue 50), with nothing in dp's store.

On a machine without ripgrep Claude Code 2.1.330 does not fail `rg`: its shell snapshot defines an
`rg` function running its own embedded ripgrep wherever PATH has none (``! hash rg`` in the snapshot
script), so the call succeeds and dp says nothing. fd has no such stand-in: the first `fd` of the
session fails, and the PostToolUseFailure entry dp init installs runs dp-capture, which knows the find
table read backwards and that find is on PATH, so the exact find call reaches the model inside that
failed call's result, once. (Codex CLI 0.169.0 does not fail `rg` either: it puts its bundled rg on the
command's PATH. Where rg does fail, in Gemini CLI, the same answer is proven with rg:
integration_tests/real_client_gemini/test_known_answer.py.)"""

from __future__ import annotations

import json
import sqlite3

import learned_answers as story

from dp.agents.claude.fake_api import bash

ANSWER = ("dp: fd is not installed here; the same search with find, every flag translated by dp's table:\n"
          "find src -mindepth 1 -iname '*.py'")


def test_the_first_fd_of_a_session_without_fd_is_answered_with_find_once(client):
    story.without(client, "rg", "grep")
    story.without(client, "fd", "find")
    story.without(client, "fdfind", "find")
    client.init()
    (client.project / "src").mkdir()
    (client.project / "src" / "app.py").write_text("def foo():\n    return 42\n")
    assert json.loads(client.dp("desires", "--json").stdout) == []  # no history at all

    search, first, second = bash("rg -n foo src"), bash("fd -e py . src"), bash("fd -e py . src")
    session = client.run([[search], [first], [second]])

    # Claude Code's own ripgrep answers rg: nothing failed, nothing to say
    assert session.tool_result(search["id"]) == {"text": "src/app.py:1:def foo():", "is_error": False, "context": ""}
    for call in (first, second):
        result = session.tool_result(call["id"])
        assert result["is_error"] is True and "fd: command not found" in result["text"], result
    assert ANSWER in session.shown(first["id"])
    assert ANSWER not in session.shown(second["id"])
    assert session.all_text.count(ANSWER) == 1  # once in the whole conversation
    conn = sqlite3.connect(client.store)
    assert conn.execute("SELECT count(*) FROM learned").fetchone() == (0,)
    assert conn.execute("SELECT rule, to_command FROM actions WHERE kind = 'answer'").fetchall() == [
        ("known (table): fd → find", "find")]
