"""dp stats after the Done-when's scripted session in the real Gemini CLI (issue 51): the same session as in
Claude Code (integration_tests/outcomes_story.py) gives the same counts; dp ingest --gemini-sessions reading
the session file afterwards changes none of them (a session the hooks captured is not counted twice)."""

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
    now = _counts(json.loads(gemini.dp("stats", "--json").stdout))
    assert now == _counts(report), json.dumps([now, _counts(report)])
    # From the session file alone: what the hooks captured of the calls is gone, dp ingest reads it back.
    gemini.dp("desires", "--purge", "--yes")
    ingested = json.loads(gemini.dp("ingest", "--gemini-sessions", "--json").stdout)["gemini_sessions"]
    assert ingested["files"] == 1 and ingested["added"] > 0
    now = _counts(json.loads(gemini.dp("stats", "--json").stdout))
    assert now == _counts(report), json.dumps([now, _counts(report)])


def _counts(report: dict) -> dict:
    return {key: value for key, value in report.items() if key not in ("since", "calls_seen")}
