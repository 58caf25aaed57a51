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
def test_above_max_conditions_the_plain_bash_handler_is_written(count, plain):
    rules = [command_rule(f"t{n:02d}") for n in range(count)]  # three letters, none in another: one condition each
    [group] = pre_groups(rules)
    assert group["matcher"] == "Bash"
    if plain:
        assert conditions_of(group) == [None]
        why = filters.bash_filter(rules)[1]
        assert why == (f"the rules' {count} command words need more than the {MAX_CONDITIONS} `if` conditions dp "
                       "writes: a command Claude Code cannot analyze would start one process each")
    else:
        assert len(conditions_of(group)) == count and None not in conditions_of(group)


def test_paving_words_share_conditions_by_stem_and_unsafe_ones_are_dropped():
    rules = [command_rule("grep")]
    [group] = pre_groups(rules, extra_words=["npm", "pnpm", "npm", "bad word", "*", "pytest", "python3", "ipython"])
    assert conditions_of(group) == ["Bash(*grep*)", "Bash(*npm*)", "Bash(*pyt*)"]


def test_every_paving_word_is_seen_by_fewer_conditions_than_words_and_no_ordinary_call_by_any():
    """Project paving's words (on by default) and dp's own name fit in the conditions; each word holds one
    stem, so a condition sees a word wherever the word's own ``*word*`` did, and ordinary calls hold none."""
    from fnmatch import fnmatchcase

    from dp.paving import WORDS

    words = sorted(WORDS | {"dp"})
    [group] = pre_groups([], extra_words=words)
    patterns = [condition[len("Bash("):-1] for condition in conditions_of(group)]
    assert len(words) > len(patterns) and len(patterns) <= MAX_CONDITIONS
    for word in words:
        assert any(fnmatchcase(f"sudo /usr/bin/{word} -x", pattern) for pattern in patterns), word
    for ordinary in ("ls", "git status", "cat notes.txt", "echo hi", "pwd", "cat src/app.py", "cat Makefile",
                     "ls node_modules dist", "git log --oneline", "rg TODO src"):
        assert not any(fnmatchcase(ordinary, pattern) for pattern in patterns), ordinary


@pytest.mark.parametrize("words, stems", [
    (["grep"], ["grep"]),
    (["dp", "gt"], ["dp", "gt"]),  # shorter than a stem: whole
    (["npm", "pnpm", "npx", "pnpx"], ["npm", "npx"]),  # a whole word first
    (["flake8", "pyflakes"], ["flake"]),  # the longest shared stem
    (["tox", "nox"], ["nox", "tox"]),  # two letters shared are not a stem
    ([], []),
])
def test_stems_are_the_fewest_each_word_contains(words, stems):
    assert filters.stems(words) == stems
    assert all(any(stem in word for stem in stems) for word in words)


def test_many_words_are_counted_only_up_to_the_limit():
    # A store with thousands of command words, few sharing a stem, stays quick.
    words = [chr(97 + n % 26) + chr(97 + n // 26 % 26) + chr(97 + n // 676 % 26) + "-tool" for n in range(1000)]
    assert len(filters.stems(words, MAX_CONDITIONS)) == MAX_CONDITIONS + 1
    assert filters.bash_filter([command_rule(word) for word in words])[0] is None


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
    assert groups[SESSION_START] == [{"hooks": [{"type": "command", "command": HOOK, "timeout": 5}]}]
    [[batch]] = [group["hooks"] for group in groups[POST_TOOL_BATCH]]
    assert batch["command"] == f"""p=$(cat); case "$p" in *'No such tool available'*) printf %s "$p" | {HOOK};; esac"""
    assert "if" not in batch  # the client never evaluates an `if` on PostToolBatch: it would skip the handler


@pytest.mark.parametrize("payload, starts", [
    ({"hook_event_name": "PostToolBatch", "tool_calls": [{"tool_name": "Bash", "tool_response": "hi"}]}, False),
    ({"hook_event_name": "PostToolBatch", "tool_calls": [{"tool_name": "read_file", "tool_response":
      "<tool_use_error>Error: No such tool available: read_file</tool_use_error>"}]}, True),
])
def test_the_batch_handler_starts_its_program_only_after_a_refused_tool_name(tmp_path, payload, starts):
    """Run through sh as the client runs a command hook: the program (a recorder here) gets the payload
    whole, or never starts."""
    import json
    import subprocess

    recorder = tmp_path / "recorder"
    recorder.write_text(f"#!/bin/sh\ncat > {tmp_path / 'got'}\n")
    recorder.chmod(0o755)
    [[batch]] = [group["hooks"] for group in wanted(str(recorder), [], True)[POST_TOOL_BATCH]]
    proc = subprocess.run(["sh", "-c", batch["command"]], input=json.dumps(payload), text=True, timeout=30)
    assert proc.returncode == 0
    got = tmp_path / "got"
    assert got.exists() is starts
    if starts:
        assert json.loads(got.read_text()) == payload


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
