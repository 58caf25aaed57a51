"""The examples of docs/agents/codex.md print what the page shows (the README's doctest rules)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from test_readme import chapters, run_chapter

PAGE = Path(__file__).resolve().parents[1] / "docs" / "agents" / "codex.md"
CHAPTERS = chapters(PAGE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[f"line{chapter[0]['line']}" for chapter in CHAPTERS])
def test_codex_page_examples_print_what_the_page_shows(chapter, warm_cache):
    scratch = Path(tempfile.mkdtemp(prefix="dpdoc"))
    try:
        failures = run_chapter(chapter, scratch / "alice", warm_cache)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    assert not failures, "\n".join(failure.replace("README.md:", "docs/agents/codex.md:") for failure in failures)
