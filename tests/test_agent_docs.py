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


def test_the_overview_is_left_to_the_site_build():
    """docs/agents/index.md commits no copy of the overview: mkdocs_agents.py renders it from the adapters
    when the site is built, so a new agent needs no edit there (tests/test_agent_addition.py builds it)."""
    assert _tables(DOCS / "index.md") == {"": ""}
    header = overview().splitlines()[0]
    assert header.count("|") == len(names()) + 2


def test_every_agent_has_its_page_and_its_table_there():
    from dp.agents import all_agents

    for agent in all_agents():
        page = DOCS.parent / agent.docs_page
        if agent.name in _tables(page):
            assert _tables(page)[agent.name] == agent_table(agent.name)
        else:  # the first agent's page predates docs/agents/ and tells its facts in prose
            assert page.is_file(), agent.docs_page


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda page: page.name)
def test_an_agents_page_holds_its_adapters_promises(page):
    for name, table in _tables(page).items():
        assert table == (agent_table(name) if name else ""), f"{page.name}: regenerate from dp/agents/table.py"


def test_the_readme_links_the_overview_and_copies_no_table():
    readme = (DOCS.parent.parent / "README.md").read_text(encoding="utf-8")
    assert "](docs/agents/index.md)" in readme and _tables(DOCS.parent.parent / "README.md") == {}


def test_a_table_row_names_each_promise_once():
    rows = [line.split("|")[1].strip() for line in overview().splitlines()[2:]]
    assert len(rows) == len(set(rows)) == 6
