"""The docs' per-agent tables say exactly what the adapters' ``promises`` say (dp/agents/table.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dp.agents import names
from dp.agents.table import agent_table, overview

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "agents"
BLOCK = re.compile(r"<!-- dp:promises ?(\w*) -->\n(.*?)<!-- dp:end-promises -->", re.S)


def _tables(page: Path) -> dict:
    """Each marked table of a page: agent name ('' for the overview) → its Markdown."""
    return {name: table for name, table in BLOCK.findall(page.read_text(encoding="utf-8"))}


def test_the_overview_is_committed_as_the_adapters_say_it():
    """docs/agents/index.md carries the overview and the agents' links in its Markdown, so it reads on the
    repository host; ``python mkdocs_agents.py --check`` (like ``cog --check``) holds every committed block
    to the registry, and the site build fills them again (tests/test_agent_addition.py builds it)."""
    assert _tables(DOCS / "index.md") == {"": overview()}
    header = overview().splitlines()[0]
    assert header.count("|") == len(names()) + 2
    proc = subprocess.run([sys.executable, str(ROOT / "mkdocs_agents.py"), "--check"], capture_output=True, text=True,
                          timeout=120)
    assert (proc.returncode, proc.stderr) == (0, "")


def test_the_check_names_a_page_whose_blocks_went_stale(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    index = docs / "agents" / "index.md"
    index.write_text(index.read_text(encoding="utf-8").replace("| Claude Code |", "| Claude |"), encoding="utf-8")
    run = [sys.executable, str(ROOT / "mkdocs_agents.py")]
    proc = subprocess.run([*run, "--check", str(docs)], capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stderr) == (1, f"{index}: stale: run python mkdocs_agents.py\n")
    assert subprocess.run([*run, str(docs)], capture_output=True, timeout=120).returncode == 0
    assert index.read_text(encoding="utf-8") == (ROOT / "docs" / "agents" / "index.md").read_text(encoding="utf-8")


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
        assert table == (agent_table(name) if name else overview()), f"{page.name}: run python mkdocs_agents.py"


def test_the_readme_links_the_overview_and_copies_no_table():
    readme = (DOCS.parent.parent / "README.md").read_text(encoding="utf-8")
    assert "](docs/agents/index.md)" in readme and _tables(DOCS.parent.parent / "README.md") == {}


def test_a_table_row_names_each_promise_once():
    rows = [line.split("|")[1].strip() for line in overview().splitlines()[2:]]
    assert len(rows) == len(set(rows)) == 6
