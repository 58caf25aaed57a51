"""dp stats after the Done-when's scripted session in the real Codex CLI (issue 51): the same session as in
Claude Code (integration_tests/outcomes_story.py) gives the same counts, with the hooks dp init installs and
again from the session file alone (dp ingest --codex-sessions after the captured calls are purged)."""

from __future__ import annotations

import outcomes_story as story
import pytest

from dp.agents.codex.fake_api import shell


def test_dp_stats_counts_the_session_as_in_claude_code(codex):
    if story.missing(codex):
        pytest.skip(story.missing(codex))
    python = story.setup(codex)
    codex.run([[shell(command)] for command in story.commands(python)], "-s", "workspace-write")
    report = story.check(codex)
    story.same_from_session_files(codex, report, "--codex-sessions", "codex_sessions")
