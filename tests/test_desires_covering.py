"""Which stored rule already covers a failure shape (``dp paths``' ``covered_by``, ``dp suggest``).

A shape wrongly marked covered hides a failure the user could still fix; a
covered one shown as open invites a duplicate rule. Each row below is one
rule kind against the shapes it does and does not correct.
"""

from __future__ import annotations

import pytest

from dp.desires.paths import RuleIndex, shape_label
from dp.rules.model import Rule


def bash(command, subcommand="", flags=()):
    return {"tool_name": "Bash", "command": command, "subcommand": subcommand, "flags": list(flags),
            "input_keys": []}


def tool(name, *keys):
    return {"tool_name": name, "command": "", "subcommand": "", "flags": [], "input_keys": list(keys)}


ALIAS = Rule("read_file", "Read")
COMMAND = Rule("grep", "rg", "Bash", "command", "grep", "command")
SHORT_FLAG = Rule("r", "R", "Bash", "command", "scp", "flag")
LONG_FLAG = Rule("recursive", "R", "Bash", "command", "scp", "flag")
RECIPE_SUB = Rule("gt await-signal", "gt mol status", "Bash", "command", "gt", "recipe")
RECIPE_WORD = Rule("python", "python3 {{ args }}", "Bash", "command", "python", "recipe")
RECIPE_DEEP = Rule("git stash drop", "echo no", "Bash", "command", "git", "recipe")
LITERAL = Rule("user@old:", "user@new:", "Bash", "command", "scp", "literal")
EDIT_PARAM = Rule("/old/", "/new/", "Edit", "file_path", "", "literal")


@pytest.mark.parametrize("rule, shape, covered", [
    (ALIAS, tool("read_file", "path"), True),
    (ALIAS, tool("write_file", "path"), False),
    (COMMAND, bash("grep", "", ["-r"]), True),
    (COMMAND, bash("egrep"), False),
    (SHORT_FLAG, bash("scp", "", ["-r"]), True),
    (SHORT_FLAG, bash("scp", "", ["-pr"]), True),      # a letter of a short group
    (SHORT_FLAG, bash("scp", "", ["-p"]), False),
    (SHORT_FLAG, bash("scp", "", ["--recursive"]), False),
    (SHORT_FLAG, bash("cp", "", ["-r"]), False),        # another command's flag
    (LONG_FLAG, bash("scp", "", ["--recursive"]), True),
    (LONG_FLAG, bash("scp", "", ["-r"]), False),
    (LONG_FLAG, bash("scp", "", ["-recursive"]), False),
    (RECIPE_SUB, bash("gt", "await-signal", ["--x"]), True),
    (RECIPE_SUB, bash("gt", "status"), False),
    (RECIPE_WORD, bash("python", "x.py"), True),        # a one-word recipe takes every call
    (RECIPE_DEEP, bash("git", "stash"), False),         # deeper than a subcommand: not told apart
    (LITERAL, bash("scp", "", ["-r"]), False),          # a literal fixes text, not a shape
    (EDIT_PARAM, tool("Edit", "file_path"), False),
])
def test_each_rule_kind_covers_exactly_its_shapes(rule, shape, covered):
    found = RuleIndex([rule]).covering(shape)
    assert (found == rule.to_dict()) if covered else found is None


def test_the_first_covering_rule_of_a_command_is_named():
    index = RuleIndex([LITERAL, SHORT_FLAG, LONG_FLAG])
    assert index.covering(bash("scp", "", ["-r", "--recursive"])) == SHORT_FLAG.to_dict()


@pytest.mark.parametrize("shape, label", [
    (bash("git", "comit", ["-m"]), "git comit -m"),
    (bash("ls", "", ["-la", "--color"]), "ls -la --color"),
    (bash("", "", []), "Bash {}"),
    (tool("read_file", "path", "limit"), "read_file {path, limit}"),
    (tool("Glob"), "Glob {}"),
])
def test_shape_labels_read_like_what_the_agent_typed(shape, label):
    assert shape_label(shape) == label
