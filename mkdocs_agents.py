"""MkDocs hook: the agents' part of the site comes from dp's registry, not from lists kept by hand.

A new agent is its folder, its tests, its page and one line in ``dp.agents.MODULES``; nothing
else should need an edit. So the site asks the registry at build time for

- the nav's agent pages (``Agent.docs_page``, in the registry's order, titled ``Agent.display``):
  mkdocs.yml names only the overview, and ``validation.nav.omitted_files`` under ``--strict``
  fails a page in docs/agents/ that no agent claims;
- the per-agent tables (``dp.agents.table``, from each adapter's ``promises``): every
  ``<!-- dp:promises -->`` block is filled with the overview, every ``<!-- dp:promises NAME -->``
  block with that agent's table;
- the list of agent pages (``<!-- dp:agent-pages -->`` … ``<!-- dp:end-agent-pages -->``), linked
  relative to the page.

The blocks are also committed filled, so the pages read on the repository host as on the site:
``python mkdocs_agents.py`` rewrites them in docs/ from the registry, and ``--check`` (like
``cog --check``) exits 1 naming each page whose committed blocks are not what the registry says
(tests/test_agent_docs.py runs it). The build fills them again, so the site never shows a stale one.

tests/test_agent_addition.py builds the site with a seventh agent added to a copy of dp, and finds
its page in the nav, its column in the table and its link on the overview.
"""

from __future__ import annotations

import posixpath
import re
import sys
from pathlib import Path

AGENTS_SECTION = "Agents"
BLOCK = re.compile(r"(<!-- dp:promises ?(\w*) -->\n).*?(<!-- dp:end-promises -->)", re.S)
PAGES = re.compile(r"(<!-- dp:agent-pages -->).*?(<!-- dp:end-agent-pages -->)", re.S)
DOCS = Path(__file__).resolve().parent / "docs"


def on_config(config):
    """Append every agent's page to the nav's Agents section, after what mkdocs.yml lists there."""
    from dp.agents import all_agents

    for section in config["nav"] or ():
        if isinstance(section, dict) and AGENTS_SECTION in section:
            section[AGENTS_SECTION] = [*section[AGENTS_SECTION],
                                       *({agent.display: agent.docs_page} for agent in all_agents())]
    return config


def on_page_markdown(markdown, page, config, files):
    """Fill the marked blocks of a page from the adapters."""
    return fill(markdown, posixpath.dirname(page.file.src_uri))


def fill(markdown: str, here: str) -> str:
    """``markdown`` (a page in docs/ at directory ``here``) with every marked block made from the adapters."""
    from dp.agents import all_agents
    from dp.agents.table import agent_table, overview

    markdown = BLOCK.sub(lambda m: m.group(1) + (agent_table(m.group(2)) if m.group(2) else overview())
                         + m.group(3), markdown)
    links = ", ".join(f"[{agent.display}]({posixpath.relpath(agent.docs_page, here or '.')})"
                      for agent in all_agents())
    return PAGES.sub(lambda m: f"{m.group(1)}{links}.{m.group(2)}", markdown)


def main(argv: list[str]) -> int:
    """``python mkdocs_agents.py [--check] [DOCS]``: rewrite the marked blocks of every page under DOCS
    (docs/ by default); with ``--check``, change nothing and exit 1 naming each page that is stale."""
    check = "--check" in argv
    folders = [arg for arg in argv if arg != "--check"]
    docs = Path(folders[0]) if folders else DOCS
    stale = []
    for path in sorted(docs.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        wanted = fill(text, path.parent.relative_to(docs).as_posix())
        if wanted != text:
            stale.append(path)
            if not check:
                path.write_text(wanted, encoding="utf-8")
    for path in stale:
        print(f"{path}: {'stale: run python mkdocs_agents.py' if check else 'updated'}", file=sys.stderr)
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
