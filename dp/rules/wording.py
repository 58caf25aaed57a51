"""A rule in words an agent follows: one sentence per kind.

Shared by everything that tells an agent about the rules — AGENTS.md /
CLAUDE.md (``dp.install.agents_md``) and the SessionStart context the hook
adds (``dp.hook.events``) — so the agent reads the same sentence everywhere;
and a rule as a person names it (``describe``), in dp's tables and in ``dp report``.
"""

from __future__ import annotations

import re

from dp.rules.model import COMMAND, FLAG, LITERAL, RECIPE, REGEX, TOOL_ALIAS, Rule, dashed

RECIPE_PREVIEW_CHARS = 60


def code(text: str) -> str:
    """``text`` as a Markdown code span, whatever backticks it contains."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ") and text.strip()):
        text = f" {text} "
    return f"{fence}{text}{fence}"


def recipe_preview(script: str) -> str:
    one_line = re.sub(r"\s*\n\s*", " ", script.strip())
    if len(one_line) <= RECIPE_PREVIEW_CHARS:
        return one_line
    return one_line[:RECIPE_PREVIEW_CHARS] + "…"


# One sentence per kind; {old} and {new} are code spans.
_SENTENCES = {
    TOOL_ALIAS: "Do NOT call {old}. Use {new} instead.",
    FLAG: "Flag {old} should be {new}",
    COMMAND: "Use {new} instead of {old}",
    LITERAL: "{old} → {new}",
    REGEX: "Pattern {old} → {new}",
    RECIPE: "Do NOT use {old}. It will be expanded to: {new}",
}


def rule_line(rule: Rule) -> str:
    """One instruction for one rule, with its message (once) in parentheses."""
    old, new = rule.from_name, rule.to_name
    if rule.match_kind == FLAG:
        old, new = dashed(old), dashed(new)
    elif rule.match_kind == RECIPE:
        new = recipe_preview(new)
    sentence = _SENTENCES.get(rule.match_kind, "{old} → {new}")
    text = sentence.format(old=code(old), new=code(new))
    if rule.message:
        text += f" ({' '.join(rule.message.split())})"
    return text


def describe_key(rule) -> str:
    """The rule's identity, as a person would name it."""
    if rule.match_kind == TOOL_ALIAS:
        return rule.from_name
    if rule.match_kind == FLAG:
        return f"{rule.command}: flag {dashed(rule.from_name)}"
    if rule.match_kind == COMMAND:
        return f"command {rule.command}"
    if rule.match_kind == RECIPE:
        return f"recipe {rule.from_name!r}"
    scope = rule.command or f"{rule.tool}.{rule.param}"
    return f"{scope}: {rule.match_kind} {rule.from_name!r}"


def describe(rule) -> str:
    """The rule's identity and what it turns things into."""
    if rule.match_kind == FLAG:
        target = dashed(rule.to_name)
    elif rule.match_kind == RECIPE:
        target = _preview(rule.to_name)
    elif rule.match_kind in ("literal", "regex"):
        target = repr(rule.to_name)
    else:
        target = rule.to_name
    return f"{describe_key(rule)} -> {target}"


def _preview(script: str, width: int = 40) -> str:
    folded = " ".join(script.split())
    return folded if len(folded) <= width else folded[: width - 3] + "..."
