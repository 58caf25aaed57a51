"""The agents dp works in, one folder each, found by name.

An agent is the folder ``dp/agents/<agent>/`` and its name in ``NAMES``. Each role it plays is the module
of that folder named after the role (``dp/agents/roles.py``, the catalogue): ``wire`` (its hook wire
format, ``ADAPTER``), ``doctor``, ``live``, ``sessions`` …, found by that name and imported only when
asked for (``Agent.role``). ``get("gemini")`` imports ``dp.agents.gemini.wire`` only then: the hook
imports this registry on every call, and the Claude Code path must not pay for the other agents
(``integration_tests/test_hook_imports.py``). So no module outside ``dp/agents/`` names an agent
(``tests/test_package_layers.py``); ``dp/agents/base.py`` says what an adapter implements.
"""

DEFAULT = "claude"
# Every agent's name (its folder), in the order dp lists agents; a new agent is one line here.
NAMES = (
    "claude",
    "gemini",
    "copilot",
    "codex",
    "opencode",
    "qwen",
    "auggie",
    "droid",
    "kilo",
)

# How a message tells the person to name their agent: --help's --agent line lists them from NAMES, so a
# message quoted in the docs does not change with every agent added (dp init's error, dp doctor's fix).
NAME_YOUR_AGENT = "dp init --agent NAME (dp init --help lists the agents)"

_loaded: dict = {}


class UnknownAgent(ValueError):
    """A name that is not in NAMES (the CLI turns it into a ``dp: error``; the hooks fail open)."""


def names() -> tuple:
    """Every agent dp has an adapter for, ``DEFAULT`` first."""
    return NAMES


def get(name: str | None = None):
    """The adapter for ``name`` (``DEFAULT`` when None); raises UnknownAgent for any other name."""
    name = name or DEFAULT
    agent = _loaded.get(name)
    if agent is None:
        if name not in NAMES:
            from dp.errors import did_you_mean

            # The nearest name is the fix when there is one; the whole list only when there is none
            # (so a message quoted in the docs does not change with every agent added).
            suggestion = did_you_mean(name, NAMES)
            raise UnknownAgent(f"unknown agent {name!r}" + (suggestion or f": use one of {', '.join(NAMES)}"))
        # __import__, not importlib.import_module: importlib (and the warnings it imports) would
        # cost every hook run ~0.5 ms.
        module = __import__(f"dp.agents.{name}.wire", fromlist=["ADAPTER"])
        agent = _loaded[name] = module.ADAPTER()
    return agent


def all_agents() -> list:
    """Every adapter, ``DEFAULT`` first (doctor, uninstall and the docs table go through all)."""
    return [get(name) for name in NAMES]


def marking(environ, agents=None) -> tuple:
    """``(agent, "NAME=value")`` for the first agent (of ``agents``, every one by default) whose child marker
    (``Agent.child_markers``) the environment ``environ`` carries, or ``(None, "")``: a command started inside
    that agent's tool call. An agent built on another (a fork: Kilo Code on OpenCode) sets that one's marker
    too (``Agent.marks_like``), so where both are marked the one built on the other is the agent."""
    marked = []
    for agent in agents if agents is not None else all_agents():
        for variable, value in agent.child_markers:
            found = environ.get(variable)
            if found is not None and (value is None or found == value):
                marked.append((agent, f"{variable}={found}"))
                break
    for agent, mark in marked:
        if not any(other.marks_like == agent.name for other, _ in marked):
            return agent, mark
    return None, ""


def with_role(role: str) -> list:
    """Every adapter whose agent plays ``role`` (``Agent.has_role``), ``DEFAULT`` first."""
    return [agent for agent in all_agents() if agent.has_role(role)]


def listing(agents=None) -> str:
    """``claude (default), gemini or codex``: agents' names as an option's help lists them (every agent by default)."""
    names = [agent.name + (" (default)" if agent.name == DEFAULT else "") for agent in agents or all_agents()]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


def tool_alias_problem(from_name: str, to_name: str) -> str | None:
    """Why the tool-name alias ``from_name → to_name`` would block a real tool of an agent dp
    serves (``Read → Write`` in Claude Code, ``read_file → Bash`` in Gemini CLI), or None. An
    alias between two agents' names for one tool (``Bash → run_shell_command``) blocks nowhere:
    it corrects only where the first name is not a real tool (``Agent.corrects``)."""
    for agent in all_agents():
        if agent.is_own_tool(from_name) and agent.corrects(from_name, to_name):
            return (f"{from_name} is a real {agent.display} tool: aliasing it away would block every {from_name} "
                    f"call there (did you mean dp alias <wrong name> {from_name}?)")
    return None


def is_agent_tool(name: str) -> bool:
    """Whether ``name`` is a real tool of some agent dp serves, in that agent's name or dp's."""
    return any(agent.is_own_tool(name) for agent in all_agents())


def canonical_rule(rule):
    """``rule`` about a tool's parameter with the tool and parameter in dp's names, whichever
    agent's names it was written in (``--tool view --param path`` is Read's ``file_path``): the
    hook looks rules up by dp's names and respells them for the agent (``Agent.spelled_params``)."""
    owners = [agent for agent in all_agents() if rule.tool in agent.tool_names] if rule.tool else []
    if not owners:
        return rule
    param = next((agent.tool_args[rule.tool][rule.param] for agent in owners
                  if rule.param in agent.tool_args.get(rule.tool, {})), rule.param)
    tool = owners[0].canonical(rule.tool)
    if (tool, param) == (rule.tool, rule.param):
        return rule
    return rule.replace(tool=tool, param=param)


def rule_problem(rule) -> str | None:
    """Why a rule about tool names is almost surely a mistake, or None: a tool-name alias that
    would block a real tool of some agent, a parameter rule for a tool no agent has (retired
    Claude Code names are fine: older installations still send them; MCP tools always exist)."""
    from dp.agents import tools

    if rule.match_kind == "":
        return tool_alias_problem(rule.from_name, rule.to_name)
    tool = rule.tool
    if tool and not (tools.is_possible_tool(tool) or tool in tools.RETIRED_TOOLS or is_agent_tool(tool)):
        return (f"--tool {tool} is no agent's tool (dp's names: {', '.join(sorted(tools.TOOL_PARAMS))}, …; "
                f"an agent's own name such as view or read_file; or mcp__server__tool)")
    return None


def refuse_unless_forced(rule, force: bool, where: str = "") -> None:
    """DpError for a rule ``rule_problem`` objects to, unless ``force``: ``dp alias`` and imports alike."""
    problem = None if force else rule_problem(rule)
    if problem:
        from dp.errors import DpError

        raise DpError(f"{where}{problem}; pass --force if you mean it (nothing was changed)")


def canonical_anywhere(tool: str) -> str:
    """dp's canonical name for ``tool`` as any agent spells it (``run_shell_command`` → ``Bash``).

    One of dp's own names (Claude Code's: ``Read``) is its own answer, without importing every
    adapter: the hook asks this on a block and for an alias to such a name, and no agent spells
    another tool that way (``tests/test_agent_addition.py`` keeps it so).
    """
    from dp.agents.tools import BUILTIN_TOOLS

    if tool in BUILTIN_TOOLS:
        return tool
    for agent in all_agents():
        if tool in agent.tool_names:
            return agent.canonical(tool)
    return tool

