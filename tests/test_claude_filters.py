"""dp.agents.claude.filters: which hook handlers dp installs for a set of rules.

The handler set decides how many Python processes Claude Code starts per
tool call and, worse, whether a rule can fire at all: a rule whose word no
``if`` condition sees is silently dead. These tests pin the decisions at
their boundaries (the word count, words ``if`` cannot spell, Bash-wide
rules, tool aliases); integration_tests/test_hook_filters.py shows the same
through ``dp alias`` and real settings files.
"""

from __future__ import annotations

import pytest

from dp.agents.claude import filters
from dp.agents.claude.filters import (
    MAX_CONDITIONS,
    PLAIN_MATCHER,
    POST_TOOL_BATCH,
    PRE,
    SESSION_START,
    bash_words,
    other_tools,
    plain_installed,
    wanted,
)
from dp.rules.model import Rule

HOOK = "/opt/dp/bin/pave-check"


def command_rule(word: str, to: str = "x") -> Rule:
    return Rule(word, to, "Bash", "command", word, "command")


def pre_groups(rules, extra_words=(), filtered=True):
    return wanted(HOOK, rules, filtered, extra_words)[PRE]


def conditions_of(group) -> list:
    return [handler.get("if") for handler in group["hooks"]]


def test_one_condition_per_command_word_sorted_and_deduplicated():
    rules = [command_rule("grep", "rg"), command_rule("find", "fd"),
             Rule("r", "R", "Bash", "command", "grep", "flag")]
    [group] = pre_groups(rules)
    assert group["matcher"] == "Bash"
    assert conditions_of(group) == ["Bash(*find*)", "Bash(*grep*)"]
    assert {handler["command"] for handler in group["hooks"]} == {HOOK}
    assert {handler["timeout"] for handler in group["hooks"]} == {filters.TIMEOUT_SECONDS}


@pytest.mark.parametrize("count, plain", [(MAX_CONDITIONS, False), (MAX_CONDITIONS + 1, True)])
def test_above_max_conditions_words_the_plain_bash_handler_is_cheaper(count, plain):
    rules = [command_rule(f"tool{n}") for n in range(count)]
    [group] = pre_groups(rules)
    assert group["matcher"] == "Bash"
    if plain:
        assert conditions_of(group) == [None]
    else:
        assert len(conditions_of(group)) == count and None not in conditions_of(group)


def test_paving_words_count_toward_the_limit_and_unsafe_ones_are_dropped():
    rules = [command_rule("grep")]
    [group] = pre_groups(rules, extra_words=["npm", "pnpm", "npm", "bad word", "*"])
    assert conditions_of(group) == ["Bash(*grep*)", "Bash(*npm*)", "Bash(*pnpm*)"]
    many = [f"w{n}" for n in range(MAX_CONDITIONS)]
    [group] = pre_groups(rules, extra_words=many)
    assert conditions_of(group) == [None]


@pytest.mark.parametrize("rule, why", [
    (Rule("-k", "--cacert ca.pem", "Bash", "command", "", "literal"), "a literal on every command"),
    (Rule(r"host(\d+)", "h$1", "Bash", "command", "", "regex"), "a regex on every command"),
    (Rule("a", "b", "Bash", "command", "my tool", "command"), "a word with a space"),
    (Rule("a", "b", "Bash", "command", "g*rep", "command"), "a word with a wildcard"),
    (Rule("a", "b", "Bash", "command", "(x)", "command"), "a word with parentheses"),
    (Rule("a", "b", "Bash", "description", "grep", "literal"), "a rule on another Bash parameter"),
])
def test_a_rule_no_condition_can_spell_takes_every_bash_call(rule, why):
    words, everything = bash_words([command_rule("grep"), rule])
    assert everything, why
    assert words == ["grep"]
    [group] = pre_groups([command_rule("grep"), rule])
    assert conditions_of(group) == [None], why


@pytest.mark.parametrize("word", ["git-lfs", "python3.11", "g++", "user@host", "a:b", "x=y", "_private"])
def test_words_with_safe_punctuation_get_conditions(word):
    assert bash_words([command_rule(word)]) == ([word], False)


def test_tool_aliases_and_parameter_rules_get_one_escaped_matcher():
    rules = [
        Rule("read_file", "Read"),
        Rule("mcp__srv__do.it", "Read"),
        Rule("/old/", "/new/", "Edit", "file_path", "", "literal"),
        Rule("a", "b", "mcp__github__create_issue", "title", "", "literal"),
    ]
    assert other_tools(rules) == ["Edit", "mcp__github__create_issue", "mcp__srv__do.it", "read_file"]
    groups = pre_groups(rules)
    assert [g["matcher"] for g in groups] == [r"Edit|mcp__github__create_issue|mcp__srv__do\.it|read_file"]
    assert conditions_of(groups[0]) == [None]


def test_a_bash_tool_alias_is_not_a_command_word():
    rules = [Rule("bash", "Bash")]
    assert bash_words(rules) == ([], False)
    assert [g["matcher"] for g in pre_groups(rules)] == ["bash"]


def test_no_rules_means_no_pre_tool_use_handler_but_the_corrections_stay():
    groups = wanted(HOOK, [], True)
    assert groups[PRE] == []
    for event in (SESSION_START, POST_TOOL_BATCH):
        assert groups[event] == [{"hooks": [{"type": "command", "command": HOOK, "timeout": 5}]}]


def test_without_filter_support_one_plain_handler_sees_every_tool():
    rules = [command_rule("grep"), Rule("read_file", "Read")]
    groups = pre_groups(rules, filtered=False)
    assert groups == [{"matcher": PLAIN_MATCHER, "hooks": [{"type": "command", "command": HOOK, "timeout": 5}]}]
    assert plain_installed(groups)


@pytest.mark.parametrize("groups, plain", [
    ([{"matcher": "*", "hooks": []}], True),
    ([{"matcher": "", "hooks": []}], True),
    ([{"hooks": []}], True),
    ([{"matcher": "Bash", "hooks": []}, {"matcher": "Edit", "hooks": []}], False),
    (["not a group", {"matcher": "Bash"}], False),
    ([], False),
])
def test_plain_installed_recognises_every_spelling_of_all_tools(groups, plain):
    assert plain_installed(groups) is plain
