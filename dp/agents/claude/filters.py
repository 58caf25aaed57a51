"""The set of hook entries dp wants in a settings file, given the rules.

Claude Code (2.1.85+) lets a hook handler carry an ``if`` condition in
permission-rule syntax; the handler's process is started only when the
condition matches. dp uses that so a Bash call no rule can touch never starts
Python. Observed in the real client (2.1.330), for a handler
``"if": "Bash(grep *)"``:

* it matches ``grep`` with or without arguments, quoted or not, in every
  simple command of a compound one (``|``, ``&&``, ``;``, newlines,
  subshells, ``VAR=1`` prefixes, redirections), but NOT behind wrappers
  (``sudo grep``, ``xargs -0 grep``, ``timeout 5 grep``) nor as a path
  (``/usr/bin/grep``);
* ``*`` matches anything (also nothing), so ``Bash(*grep*)`` sees the word in
  all of those places — what dp's own parser rewrites — at the price of a
  rare extra start for a simple command that merely contains ``grep``
  (``pgrep``, ``echo grep``);
* a command Claude Code cannot analyze statically (a ``for`` loop variable,
  ``${X:-y}``, ``$( )``, backticks, ``{ }``) starts EVERY filtered handler,
  whatever the condition;
* handlers with the same command but different conditions are not merged:
  a call matching two conditions starts the hook twice (harmless: both
  answer the same). So dp writes ONE condition per word: the exact
  alternative (``grep *``, ``* grep *``, ``* grep``, ``*/grep *``,
  ``*/grep``) skips ``pgrep`` but starts five processes for every call the
  client cannot analyze. On the NL2Bash corpus under the README's rules one
  condition per word starts 5,940 hook processes, the pair ``*grep *`` /
  ``*grep`` used before 10,591 and the exact five 24,580
  (bench/nl2bash_spawns.py).

Because of the last two points every condition costs a process on each call
the client cannot analyze (12 % of NL2Bash, more among agents' heredoc-laden
commands): with k conditions a Bash call starts on average about
``0.12·k + (share that names a word)`` processes, the plain Bash handler
exactly one. So above ``MAX_CONDITIONS`` words dp installs the plain Bash
handler (the hook answers a call without a rule word at ~1.1× a bare Python
start) — project paving's 39 words alone would start 39 processes for every
``$( )``. Without ``if`` support (or when a rule can match any Bash command)
dp falls back to the plain handler that sees every call.
"""

from __future__ import annotations

import re

from dp.agents.settings import HOOK_TIMEOUT_SECONDS
from dp.rules.model import BASH_PARAM, BASH_TOOL, TOOL_ALIAS

PRE = "PreToolUse"
SESSION_START = "SessionStart"
POST_TOOL_BATCH = "PostToolBatch"
EVENTS = (PRE, SESSION_START, POST_TOOL_BATCH)
TIMEOUT_SECONDS = HOOK_TIMEOUT_SECONDS
PLAIN_MATCHER = "*"
# More words than this: one plain Bash handler costs fewer processes than a condition per word.
MAX_CONDITIONS = 7
# A word Claude Code's permission syntax can hold without quoting or wildcards.
_SAFE_WORD = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+@%:=,-]*$")


def conditions(word: str) -> list[str]:
    """The ``if`` conditions that together see ``word`` wherever dp's parser would (one: see above)."""
    return [f"Bash(*{word}*)"]


def bash_words(rules) -> tuple[list[str], bool]:
    """(command words Bash rules are keyed on, whether some Bash rule needs every call)."""
    words, everything = set(), False
    for rule in rules:
        if rule.tool != BASH_TOOL or rule.match_kind == TOOL_ALIAS:
            continue
        if rule.param == BASH_PARAM and rule.command and _SAFE_WORD.match(rule.command):
            words.add(rule.command)
        else:
            everything = True  # a parameter rule on the whole command, or a word `if` cannot spell
    return sorted(words), everything


def other_tools(rules) -> list[str]:
    """Tools other than Bash's command words that have rules: parameter rules and tool-name
    aliases (an alias of a name Claude Code does not know never reaches PreToolUse; its entry
    costs nothing and starts working if the name ever becomes a real tool, e.g. an MCP one)."""
    names = {rule.tool for rule in rules if rule.tool and rule.tool != BASH_TOOL}
    names |= {rule.from_name for rule in rules if rule.match_kind == TOOL_ALIAS}
    return sorted(names)


def wanted(command: str, rules, filtered: bool, extra_words=()) -> dict[str, list[dict]]:
    """Every dp hook group per event, for ``command`` (the pave-check command line).

    ``filtered``: write ``if`` conditions (Claude Code ≥ 2.1.85); otherwise one
    plain PreToolUse handler for every tool. SessionStart and PostToolBatch
    are always there: they carry the corrections that reach the model.
    ``extra_words`` are command words the hook acts on without a rule (project
    paving's package managers and runners, while paving is on).
    """
    rules = list(rules)
    return {
        PRE: _pre_tool_use(command, rules, extra_words) if filtered else [_group(PLAIN_MATCHER, [_handler(command)])],
        SESSION_START: [{"hooks": [_handler(command)]}],
        POST_TOOL_BATCH: [{"hooks": [_handler(command)]}],
    }


def bash_filter(rules, extra_words=()) -> tuple[list[str] | None, str]:
    """(the command words the Bash handler's conditions name, or None for the plain Bash handler;
    why, in words, when it is the plain one). ``wanted`` writes from this, and init and doctor
    say it, so what they describe is what the settings hold."""
    words, everything = bash_words(rules)
    words = sorted(set(words) | {word for word in extra_words if _SAFE_WORD.match(word)})
    if everything:
        return None, "a rule can match any Bash command"
    if len(words) > MAX_CONDITIONS:
        paving = " (with project paving's words; `dp paving off` drops them)" if extra_words else ""
        return None, f"the rules need {len(words)} command words{paving}, more than the {MAX_CONDITIONS} `if` conditions dp writes"
    return words, ""


def starts(entries: dict, why: str = "") -> str:
    """Which tool calls start pave-check under ``entries`` (``wanted``'s), in words; ``why`` says
    why the Bash handler is the plain one (``bash_filter``), when it is."""
    parts = []
    for group in entries.get(PRE, []):
        matcher = group.get("matcher")
        if matcher in (None, "", PLAIN_MATCHER):
            parts.append("every tool call (no `if` filters)")
            continue
        named = [handler["if"][len("Bash(*"):-len("*)")] for handler in group["hooks"] if handler.get("if")]
        if matcher == BASH_TOOL:
            parts.append(f"Bash commands naming {', '.join(named)}" if named else
                         "every Bash command" + (f": {why}" if why else ""))
        else:
            parts.append("calls of " + ", ".join(re.sub(r"\\(.)", r"\1", name) for name in matcher.split("|")))
    said = "pave-check starts for " + ("; ".join(parts) if parts else "no tool call")
    if POST_TOOL_BATCH in entries:
        said += "; and after every batch of tool calls (PostToolBatch)"
    return said


def _pre_tool_use(command: str, rules, extra_words) -> list[dict]:
    groups = []
    words, _ = bash_filter(rules, extra_words)
    if words is None:
        groups.append(_group(BASH_TOOL, [_handler(command)]))
    elif words:
        groups.append(_group(BASH_TOOL, [_handler(command, condition) for w in words for condition in conditions(w)]))
    tools = other_tools(rules)
    if tools:
        groups.append(_group("|".join(re.escape(name) for name in tools), [_handler(command)]))
    return groups


def _group(matcher: str, handlers: list[dict]) -> dict:
    return {"matcher": matcher, "hooks": handlers}


def _handler(command: str, condition: str | None = None) -> dict:
    handler = {"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}
    if condition:
        handler["if"] = condition
    return handler


def plain_installed(groups: list) -> bool:
    """Whether PreToolUse groups hold dp's plain every-tool handler (installed without filters)."""
    return any(isinstance(g, dict) and g.get("matcher") in (None, "", PLAIN_MATCHER) for g in groups)
