"""Each agent's docs page shows what dp can do there exactly as its adapter's ``promises()`` says.

A page marks its table with ``<!-- NAME-promises: … -->``; the rows are the promises in
``dp.agents.base.PROMISES`` order: the promise in words, yes or no, and the adapter's note.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dp.agents import get, names
from dp.agents.base import PROMISES

DOCS = Path(__file__).resolve().parents[1] / "docs" / "agents"


def table_rows(page: str, name: str) -> list[list[str]]:
    lines = page.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"<!-- {name}-promises"))
    rows = []
    for line in lines[start + 3:]:  # the marker, the header, the rule
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def expected_rows(name: str) -> list[list[str]]:
    words = dict(PROMISES)
    return [[words[promise.name], "yes" if promise.kept else "no", promise.note] for promise in get(name).promises()]


@pytest.mark.parametrize("name", [name for name in names() if (DOCS / f"{name}.md").exists()
                                  and f"<!-- {name}-promises" in (DOCS / f"{name}.md").read_text()])
def test_the_docs_table_is_the_adapters_promises(name):
    assert table_rows((DOCS / f"{name}.md").read_text(encoding="utf-8"), name) == expected_rows(name)


def test_codex_has_its_table():
    assert "<!-- codex-promises" in (DOCS / "codex.md").read_text(encoding="utf-8")
    assert [promise.name for promise in get("codex").promises()] == [name for name, _ in PROMISES]
