"""dp stats after the Done-when's scripted session in the real Gemini CLI (issue 51): the same session as in
Claude Code (integration_tests/outcomes_story.py) gives the same counts, with the hooks dp init installs and
again from the session file alone (dp ingest --gemini-sessions after the captured calls are purged); reading
the session file while the hooks' rows are there adds nothing (a session the hooks captured is not counted
twice)."""

from __future__ import annotations

import json

import outcomes_story as story
import pytest

from dp.agents.gemini.fake_api import shell


def test_dp_stats_counts_the_session_as_in_claude_code(gemini):
    if story.missing(gemini):
        pytest.skip(story.missing(gemini))
    python = story.setup(gemini)
    session = gemini.run([[shell(command)] for command in story.commands(python)])
    assert len(session.results()) == len(story.FAILED)
    report = story.check(gemini)
    ingested = json.loads(gemini.dp("ingest", "--gemini-sessions", "--json").stdout)["gemini_sessions"]
    assert (ingested["files"], ingested["added"]) == (1, 0)
    assert story.counts(json.loads(gemini.dp("stats", "--json").stdout)) == story.counts(report)
    story.same_from_session_files(gemini, report, "--gemini-sessions", "gemini_sessions")
