"""The maps a reader follows are checked against what they map (issue 53, finding 5).

ARCHITECTURE.md's package table is held by tests/test_package_layers.py and the agents' tables by
tests/test_agent_docs.py; this file holds the rest: the package map in docs/development.md against
dp/, the store's table of tables (dp/store/__init__.py) against a store migrated from migrations/,
every file and module the two engineers' pages name against the repository, and their numbered steps.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

import dp.store

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "ARCHITECTURE.md", ROOT / "docs" / "development.md"]
# A path in backticks under one of these folders names a file or folder that must exist.
PATH = re.compile(r"`((?:dp|migrations|tests|integration_tests|bench|docs|examples)/[^`\s]*)`")
# A dotted module in backticks (``dp.hook.gate``, ``dp.install.hook.sync_installed``).
MODULE = re.compile(r"`(dp(?:\.\w+)+)`")


def _packages() -> set[str]:
    return {path.name for path in (ROOT / "dp").iterdir() if (path / "__init__.py").is_file()}


def test_the_development_page_maps_every_package_and_only_what_exists():
    page = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    block = re.match(r"(?:[ \t][^\n]*\n)*", page.split("```\ndp/\n", 1)[1]).group(0)  # up to the next top level
    listed = re.findall(r"^  ([\w/]+/|\w+\.py)\s", block, re.M)
    assert [name for name in listed if not (ROOT / "dp" / name).exists()] == []
    assert _packages() - {name.rstrip("/") for name in listed} == set()


def test_the_stores_table_of_tables_names_every_table_and_its_module(tmp_path):
    from dp.store import Store

    with Store.open(tmp_path / "dp.db"):
        pass
    conn = sqlite3.connect(tmp_path / "dp.db")
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()
    table = (dp.store.__doc__ or "").split("==================  ")[1]  # between the table's rules
    rows = re.findall(r"^``(\w+)``\s+(.*)$", table, re.M)
    assert {name for name, _ in rows} == tables
    modules = {module for _, text in rows for module in re.findall(r"``([a-z_]+)``", text)}
    assert [module for module in modules if not (ROOT / "dp" / "store" / f"{module}.py").is_file()] == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_file_a_page_names_exists(page):
    named = {path.rstrip("/").rstrip(".,") for path in PATH.findall(page.read_text(encoding="utf-8"))
             if not re.search(r"[<*{]|NNNN|SOURCE", path)}
    assert sorted(path for path in named if not (ROOT / path).exists()) == []


def _module_exists(dotted: str) -> bool:
    """Whether ``dotted`` is a module of dp, or a name inside one (its longest module prefix is a file)."""
    parts = dotted.split(".")
    for end in range(len(parts), 1, -1):
        base = ROOT.joinpath(*parts[:end])
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            return end >= len(parts) - 2  # a module, or a name (and one attribute of it) inside it
    return False


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_module_a_page_names_exists(page):
    named = set(MODULE.findall(page.read_text(encoding="utf-8")))
    assert sorted(name for name in named if not _module_exists(name)) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_numbered_steps_count_one_by_one(page):
    for section in re.split(r"^#+ ", page.read_text(encoding="utf-8"), flags=re.M):
        numbers = [int(number) for number in re.findall(r"^(\d+)\. ", section, re.M)]
        assert numbers == list(range(1, len(numbers) + 1)), section.splitlines()[0]
