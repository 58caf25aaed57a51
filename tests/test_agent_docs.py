"""The docs' per-agent tables say exactly what the adapters' ``promises`` say (dp/agents/table.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dp.agents import names
from dp.agents.table import agent_table, overview

DOCS = Path(__file__).resolve().parent.parent / "docs" / "agents"
BLOCK = re.compile(r"<!-- dp:promises ?(\w*) -->\n(.*?)<!-- dp:end-promises -->", re.S)


def _tables(page: Path) -> dict:
    """Each marked table of a page: agent name ('' for the overview) → its Markdown."""
    return {name: table for name, table in BLOCK.findall(page.read_text(encoding="utf-8"))}


def test_the_overview_lists_every_agent_as_its_promises_say():
    assert _tables(DOCS / "index.md") == {"": overview()}
    header = overview().splitlines()[0]
    assert header.count("|") == len(names()) + 2


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda page: page.name)
def test_an_agents_page_holds_its_adapters_promises(page):
    for name, table in _tables(page).items():
        assert table == (agent_table(name) if name else overview()), f"{page.name}: regenerate from dp/agents/table.py"


def test_the_readme_holds_the_overview():
    assert _tables(DOCS.parent.parent / "README.md") == {"": overview()}


def test_copilot_has_its_page():
    assert _tables(DOCS / "copilot.md") == {"copilot": agent_table("copilot")}


def test_a_table_row_names_each_promise_once():
    rows = [line.split("|")[1].strip() for line in overview().splitlines()[2:]]
    assert len(rows) == len(set(rows)) == 6


def test_gemini_has_its_page():
    assert _tables(DOCS / "gemini.md") == {"gemini": agent_table("gemini")}
