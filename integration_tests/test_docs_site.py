"""The documentation holds together: the MkDocs site builds strictly, and every link resolves.

The site (``mkdocs.yml``, pages in ``docs/``) is built with the real ``mkdocs build --strict``
into a temporary directory, so a page missing from the nav, a link to a missing page or a
missing anchor fails the README's test command, as it would fail a release of the site.

The links are checked here too, for README.md as well (MkDocs does not read it), the way GitHub
shows the files: a relative link names a file of the repository, and ``#anchor`` is a heading of
the target page under GitHub's ids (mkdocs.yml gives the site the same ids, so one link works in
both places). Links to other sites are not fetched: the tests run without the network.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
LINK = re.compile(r"!?\[(?:[^\]`]|`[^`]*`)*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6}) +(.*?) *#* *$")
FENCE = re.compile(r"^ *(```|~~~)")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks, inline code removed."""
    found, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            found.append((number, re.sub(r"`[^`]*`", "``", line)))
    return found


def github_id(heading: str) -> str:
    """The id GitHub gives a heading: lower case, punctuation dropped, each space a dash."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"</?[^>]*>", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The heading ids of one page; a repeated heading gets -1, -2, … as on GitHub."""
    seen: dict[str, int] = {}
    found, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = HEADING.match(line)
        if fenced or not match:
            continue
        base = github_id(match.group(2))
        found.add(base if base not in seen else f"{base}-{seen[base]}")
        seen[base] = seen.get(base, 0) + 1
    return found


def links(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    return [(number, match.group(1)) for number, line in prose_lines(text) for match in LINK.finditer(line)]


def broken_links(path: Path) -> list[str]:
    """Every relative link of PATH whose file or anchor does not exist, as 'page:line: link — why'."""
    problems = []
    for number, target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: — another site
            continue
        file_part, _, anchor = target.partition("#")
        goal = (path.parent / file_part).resolve() if file_part else path
        where = f"{path.relative_to(ROOT)}:{number}: {target}"
        if not goal.exists():
            problems.append(f"{where} — no such file")
        elif not goal.is_relative_to(ROOT):
            problems.append(f"{where} — outside the repository")
        elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            problems.append(f"{where} — {goal.name} has no heading with that id")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=[path.relative_to(ROOT).as_posix() for path in PAGES])
def test_every_relative_link_and_anchor_resolves(page):
    assert not broken_links(page), "\n".join(broken_links(page))


def test_the_readme_links_every_docs_page():
    """Every page but the agents' own: the README links their overview, which links each agent's page from
    the registry when the site is built (mkdocs_agents.py), so a new agent needs no README line."""
    from dp.agents import all_agents

    agent_pages = {(DOCS / agent.docs_page).resolve() for agent in all_agents()}
    linked = {(ROOT / target.partition("#")[0]).resolve() for _, target in links(ROOT / "README.md")}
    missing = [path.relative_to(ROOT).as_posix() for path in PAGES[1:]
               if path.resolve() not in linked | agent_pages]
    assert not missing, (f"README.md does not link these docs pages: {missing}; add each to the README's "
                         "'Documentation' list (and to the nav in mkdocs.yml)")


def test_the_link_check_finds_a_missing_file_and_a_missing_anchor(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (tmp_path / "a.md").write_text("# A page\n\n## `dp alias` — six modes\n\n## Again\n\n## Again\n")
    page = tmp_path / "b.md"
    page.write_text("[ok](a.md#dp-alias--six-modes) [ok](a.md#again-1) [top](#b)\n\n# B\n\n"
                    "[gone](c.md) [no anchor](a.md#six-modes) `[in code](x.md)`\n\n```\n[fenced](y.md)\n```\n")
    assert broken_links(page) == ["b.md:5: c.md — no such file",
                                  "b.md:5: a.md#six-modes — a.md has no heading with that id"]


def test_the_docs_site_builds_strictly(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    built = {path.relative_to(tmp_path / "site").as_posix() for path in (tmp_path / "site").rglob("index.html")}
    pages = {"index.html" if path.stem == "index" else f"{path.relative_to(DOCS).with_suffix('').as_posix()}/index.html"
             for path in PAGES[1:]}
    assert pages <= built, f"pages not built: {sorted(pages - built)}"
