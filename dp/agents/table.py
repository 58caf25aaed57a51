"""The per-agent tables of the docs, made from each adapter's ``promises``.

What dp can do in an agent is said once, by its adapter (``Agent.promises``);
the overview table (``docs/agents/index.md``) and each agent's own table
(``docs/agents/<agent>.md``) are rendered from it here, and
``integration_tests/test_agent_docs.py`` fails when a page no longer holds
exactly what this module renders — so the docs cannot drift from the code.
"""

from __future__ import annotations

from dp.agents import all_agents
from dp.agents.promises import PROMISES


def overview() -> str:
    """One row per promise, one column per agent: ``yes`` or ``no``."""
    agents = all_agents()
    lines = ["| dp … | " + " | ".join(agent.display for agent in agents) + " |",
             "| --- |" + " --- |" * len(agents)]
    kept = [{promise.name: promise.kept for promise in agent.promises()} for agent in agents]
    for name, words in PROMISES:
        lines.append(f"| {words} | " + " | ".join("yes" if row[name] else "no" for row in kept) + " |")
    return "\n".join(lines) + "\n"


def agent_table(name: str) -> str:
    """One agent's promises: each with how dp keeps it, or why its contract does not let it."""
    from dp.agents import get

    words = dict(PROMISES)
    lines = ["| dp … | | how, or why not |", "| --- | --- | --- |"]
    for promise in get(name).promises():
        lines.append(f"| {words[promise.name]} | {'yes' if promise.kept else 'no'} | {promise.note} |")
    return "\n".join(lines) + "\n"
