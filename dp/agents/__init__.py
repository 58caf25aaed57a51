"""The agents dp works in, one adapter module each, found by name.

``get("gemini")`` imports ``dp.agents.gemini.adapter`` only then: the hook imports
this registry on every call, and the Claude Code path must not pay for the
other adapters (``integration_tests/test_hook_imports.py``). A new agent is
one folder, ``dp/agents/<agent>/``, whose ``adapter`` module defines an
``Agent`` subclass named ``ADAPTER``, plus one line in ``MODULES``; see
``dp/agents/base.py`` for what it implements. Everything else dp knows about
the agent (doctor lines, the live probe, session files, a plugin) is a
``part`` of its folder that the rest of dp finds through the adapter, so no
module outside ``dp/agents/`` names an agent
(``tests/test_package_layers.py``).
"""

from __future__ import annotations

DEFAULT = "claude"
# --agent name → the module holding its adapter, in the order dp lists agents.
MODULES = {
    "claude": "dp.agents.claude.adapter",
    "gemini": "dp.agents.gemini.adapter",
    "copilot": "dp.agents.copilot.adapter",
    "codex": "dp.agents.codex.adapter",
    "opencode": "dp.agents.opencode.adapter",
    "qwen": "dp.agents.qwen.adapter",
}

_loaded: dict = {}


class UnknownAgent(ValueError):
    """A name that is not in MODULES (the CLI turns it into a ``dp: error``; the hooks fail open)."""


def names() -> tuple:
    """Every agent dp has an adapter for, ``DEFAULT`` first."""
    return tuple(MODULES)


def get(name: str | None = None):
    """The adapter for ``name`` (``DEFAULT`` when None); raises UnknownAgent for any other name."""
    name = name or DEFAULT
    agent = _loaded.get(name)
    if agent is None:
        if name not in MODULES:
            from dp.errors import did_you_mean

            raise UnknownAgent(f"unknown agent {name!r}{did_you_mean(name, MODULES)}: "
                               f"use one of {', '.join(MODULES)}")
        import importlib

        module = importlib.import_module(MODULES[name])
        agent = _loaded[name] = module.ADAPTER()
    return agent


def all_agents() -> list:
    """Every adapter, ``DEFAULT`` first (doctor, uninstall and the docs table go through all)."""
    return [get(name) for name in MODULES]


def with_part(role: str) -> list:
    """Every adapter that has the optional part ``role`` (``Agent.parts``), ``DEFAULT`` first."""
    return [agent for agent in all_agents() if role in agent.parts]


def listing(agents=None) -> str:
    """``claude (default), gemini or codex``: agents' names as an option's help lists them (every agent by default)."""
    names = [agent.name + (" (default)" if agent.name == DEFAULT else "") for agent in agents or all_agents()]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


def canonical_anywhere(tool: str) -> str:
    """dp's canonical name for ``tool`` as any agent spells it (``run_shell_command`` → ``Bash``)."""
    for agent in all_agents():
        if tool in agent.tool_names:
            return agent.canonical(tool)
    return tool

