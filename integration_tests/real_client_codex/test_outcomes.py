"""dp stats after the Done-when's scripted session in the real Codex CLI (issue 51): the same session as in
Claude Code (integration_tests/outcomes_story.py) gives the same counts, with the hooks dp init installs and
again from the session file alone (dp ingest --codex-sessions after the captured calls are purged)."""

from __future__ import annotations

import json

import outcomes_story as story
import pytest

from dp.agents.codex.fake_api import shell


def test_dp_stats_counts_the_session_as_in_claude_code(codex):
    if story.missing(codex):
        pytest.skip(story.missing(codex))
    python = story.setup(codex)
    codex.run([[shell(command)] for command in story.commands(python)], "-s", "workspace-write")
    report = story.check(codex)
    codex.dp("desires", "--purge", "--yes")
    ingested = json.loads(codex.dp("ingest", "--codex-sessions", "--json").stdout)["codex_sessions"]
    assert ingested["files"] == 1 and ingested["added"] > 0
    now = _counts(json.loads(codex.dp("stats", "--json").stdout))
    assert now == _counts(report), json.dumps([now, _counts(report)])


def _counts(report: dict) -> dict:
    return {key: value for key, value in report.items() if key not in ("since", "calls_seen")}
