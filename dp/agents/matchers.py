"""The narrowest tool matcher an agent's hook entries can carry, and what a matcher starts dp for.

Before a tool runs, pave-check can act on three kinds of call only: the agent's shell tool (every
Bash call: dp's own commands that widen what dp does are the person's, ``dp.widening``; paving's
words; Bash rules), a tool whose input a rule names, and a name a tool-name alias corrects. Every
other call its gate (``dp.hook.gate``) answers with nothing, having read nothing but the gate. So
an entry that selects exactly those tools starts no process for the rest and changes no answer:
``tools`` lists them in the agent's own names, by the gate's own condition (the call's canonical
tool among the rules' tools, or its name among the aliases'), from the same rules the gate is
written from, and ``dp.changes`` re-syncs the entries after every rule change.

One spelling serves every agent that reads a matcher as a regular expression, whether searched in
the name (Gemini CLI 0.61.0, Qwen Code 0.24.4), matched against the whole name (Copilot CLI
1.0.102) or taken as a regular expression once it holds more than letters, digits, ``_`` and ``|``
(Codex CLI 0.169.0): ``^(a|b)$`` (``anchored``), observed in each binary
(docs/agents/<agent>.md). ``starts`` reads dp's groups back into words for ``dp init`` and
``dp doctor``, so what they say is what the settings file holds.
"""

from __future__ import annotations

import re

# What a regular expression would read as more than the character itself (JavaScript's and Rust's).
_SPECIAL = re.compile(r"[\\^$.*+?()\[\]{}|/]")
# dp's spelling of a list of names, read back (``anchored``).
_ANCHORED = re.compile(r"\^\((?P<names>.*)\)\$", re.DOTALL)
# The matchers that select every tool in the agents that take one (Copilot CLI reads none of them
# as "all": it runs an entry without a matcher for every tool, and dp writes none there).
EVERY_TOOL = (None, "", "*", ".*")


def tools(agent, rules) -> list[str]:
    """The agent's names of the tools pave-check can act on before they run, under ``rules``.

    The agent's own tools whose dp name is Bash or a tool a rule's input names; a tool a rule names
    that is none of the agent's (an MCP tool, a name another agent uses), as it is written; and every
    name a tool-name alias (the store's or a trusted project's) corrects here (``Agent.corrects``: an
    alias of Claude Code's ``read_file`` never touches Gemini CLI's own ``read_file``).
    """
    from dp.rules.model import BASH_TOOL, TOOL_ALIAS

    acted = {rule.tool for rule in rules if rule.match_kind != TOOL_ALIAS and rule.tool} | {BASH_TOOL}
    names = {name for name, canonical in agent.tool_names.items() if canonical in acted}
    names |= acted - set(agent.tool_names.values())
    names |= {rule.from_name for rule in rules
              if rule.match_kind == TOOL_ALIAS and rule.from_name and agent.corrects(rule.from_name, rule.to_name)}
    return sorted(names)


def anchored(names) -> str:
    """A matcher selecting exactly ``names``: ``^(a|b)$``."""
    return "^(" + "|".join(_SPECIAL.sub(lambda found: "\\" + found.group(), name) for name in names) + ")$"


def named(matcher) -> list[str] | None:
    """The tool names a matcher dp writes selects (None: every tool); another matcher as it is, in one item."""
    if matcher in EVERY_TOOL:
        return None
    found = _ANCHORED.fullmatch(matcher) if isinstance(matcher, str) else None
    if found is None:
        return [str(matcher)]
    return [re.sub(r"\\(.)", r"\1", name) for name in re.split(r"(?<!\\)\|", found.group("names"))]


def starts(groups, kind: str = "pave-check") -> list[str]:
    """What dp's ``groups`` ((event, group) pairs of one program) start ``kind`` for, one phrase per event:
    ``pave-check for BeforeTool calls of read_file, run_shell_command``, ``… once a session (SessionStart)``."""
    selected: dict[str, set | None] = {}
    for event, group in groups:
        names = named(group.get("matcher")) if isinstance(group, dict) else None
        everything = names is None or (event in selected and selected[event] is None)
        selected[event] = None if everything else {*(selected.get(event) or ()), *(names or ())}
    return [_phrase(kind, event, tools) for event, tools in selected.items()]


def _phrase(kind: str, event: str, tools) -> str:
    """One event's part of ``starts``: a session's start and a batch are no tool call."""
    if "session" in event.lower():
        return f"{kind} once a session ({event})"
    if "batch" in event.lower():
        return f"{kind} after every batch of tool calls ({event})"
    return f"{kind} for every {event} call" if tools is None else \
        f"{kind} for {event} calls of {', '.join(sorted(tools))} only"


def said(entries: dict, kind: str = "pave-check") -> str:
    """``starts`` for entries in ``sync_entries`` form ({event: groups}), as one sentence."""
    phrases = starts([(event, group) for event, groups in entries.items() for group in groups], kind)
    return "; ".join(phrases) if phrases else f"{kind} starts for no call"
