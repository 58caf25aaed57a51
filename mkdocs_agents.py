"""MkDocs hook: the agents' part of the site comes from dp's registry, not from lists kept by hand.

A new agent is its folder, its tests, its page and one line in ``dp.agents.MODULES``; nothing
else should need an edit. So the site asks the registry at build time for

- the nav's agent pages (``Agent.docs_page``, in the registry's order, titled ``Agent.display``):
  mkdocs.yml names only the overview, and ``validation.nav.omitted_files`` under ``--strict``
  fails a page in docs/agents/ that no agent claims;
- the per-agent tables (``dp.agents.table``, from each adapter's ``promises``): every
  ``<!-- dp:promises -->`` block is filled with the overview, every ``<!-- dp:promises NAME -->``
  block with that agent's table (an agent's own page also commits its table, which
  tests/test_agent_docs.py holds equal);
- the list of agent pages (``<!-- dp:agent-pages -->``), linked relative to the page.

tests/test_agent_addition.py builds the site with a seventh agent added to a copy of dp, and finds
its page in the nav, its column in the table and its link on the overview.
"""

from __future__ import annotations

import posixpath
import re

AGENTS_SECTION = "Agents"
BLOCK = re.compile(r"(<!-- dp:promises ?(\w*) -->\n).*?(<!-- dp:end-promises -->)", re.S)
PAGES = "<!-- dp:agent-pages -->"


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
    from dp.agents import all_agents
    from dp.agents.table import agent_table, overview

    markdown = BLOCK.sub(lambda m: m.group(1) + (agent_table(m.group(2)) if m.group(2) else overview())
                         + m.group(3), markdown)
    if PAGES in markdown:
        here = posixpath.dirname(page.file.src_uri)
        links = ", ".join(f"[{agent.display}]({posixpath.relpath(agent.docs_page, here or '.')})"
                          for agent in all_agents())
        markdown = markdown.replace(PAGES, links + ".")
    return markdown
