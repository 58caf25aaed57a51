"""The rules that could apply to one call on the hook's full path: the store's, fetched by the call's command
words in one indexed query (in chunks past ``_WORDS_PER_QUERY`` words), recipes with their compiled programs,
and an acting project layer's laid over them by key (dp.layers).
"""

from __future__ import annotations

from dp.rules import RECIPE
from dp.shell.words import command_words
from dp.store.read import recipe_programs, rules_for_tool

_WORDS_PER_QUERY = 500


def with_project(user_rules, project, tool: str, text: str, words):
    """The user's rules for this call with the acting project rules laid over them (dp.layers)."""
    if project is None:
        return user_rules
    from dp.layers.effective import for_call, overlay

    if text and words is None:
        words = command_words(text)
    return overlay(user_rules, for_call(project, tool, set(words) if text else None))


def for_text(conn, tool: str, text: str, words=None):
    """The tool's rules that could apply to ``text`` (parameter rules always do),
    recipes with their compiled programs attached."""
    rules = _matching_rules(conn, tool, text, words)
    recipes = [rule for rule in rules if rule.match_kind == RECIPE]
    if recipes:
        programs = recipe_programs(conn, [rule.to_name for rule in recipes])
        for rule in recipes:
            rule.program = programs.get(rule.to_name, "")
    return rules


def _matching_rules(conn, tool: str, text: str, words=None):
    if not text:
        return rules_for_tool(conn, tool)
    if words is None:
        words = command_words(text)
    words = sorted(words)
    if len(words) <= _WORDS_PER_QUERY:
        return rules_for_tool(conn, tool, words)
    present: set = set()
    for start in range(0, len(words), _WORDS_PER_QUERY):
        chunk = words[start : start + _WORDS_PER_QUERY]
        present.update(rule.command for rule in rules_for_tool(conn, tool, chunk) if rule.command)
    return rules_for_tool(conn, tool, present)
