"""``dp paths``: failures grouped by shape — the trails agents keep wearing.

A Bash failure's shape is its command word, subcommand and flags plus the
error class (``git comit -m`` / unknown subcommand), or its program alone
when the program itself is the cause (``tsc`` / command not found, whatever
flags each call had: ``WHOLE_PROGRAM``); any other tool's is the
tool name and the set of input keys (``read_file {path}`` / unknown tool).
One GROUP BY over the shape columns the capture stored, so 100,000 events
take a fraction of a second.
"""

from __future__ import annotations

import json

from dp.desires.query import iso, parse_input
from dp.rules.model import BASH_TOOL, COMMAND, FLAG, RECIPE, TOOL_ALIAS
from dp.store import desires

# Error classes whose one cause is the program itself, whatever its subcommand and flags: one path each.
WHOLE_PROGRAM = ("command not found",)


def paths(conn, rules, since: str | None = None, project: str = "") -> list[dict]:
    """Every failure shape with ``count``, ``sessions``, ``first_seen``, ``last_seen``, ``example``, ``covered_by``
    (only the calls made under the directory ``project`` when given)."""
    groups = desires.failure_groups(conn, since, WHOLE_PROGRAM, project)
    examples = {
        row_id: {"id": row_id, "tool_input": parse_input(tool_input), "error": error}
        for row_id, tool_input, error in desires.inputs_and_errors(conn, [group[-1] for group in groups])
    }
    index = RuleIndex(rules)
    found = []
    for tool, command, subcommand, flags, keys, klass, count, sessions, first, last, example_id in groups:
        shape = shape_of(tool, command, subcommand, flags, keys)
        found.append({
            "shape": shape_label(shape),
            **shape,
            "error_class": klass,
            "count": count,
            "sessions": sessions,
            "first_seen": iso(first),
            "last_seen": iso(last),
            "example": examples.get(example_id),
            "covered_by": index.covering(shape),
        })
    return found


def one_cause(error_class: str, subcommand: str, flags: str) -> tuple[str, str]:
    """A path's subcommand and flags (as JSON): none for a failure whose cause is its program
    (``WHOLE_PROGRAM``), so ``tsc -p`` and ``tsc --noEmit`` not found are one path, ``tsc``."""
    return ("", "[]") if error_class in WHOLE_PROGRAM else (subcommand, flags)


def shape_of(tool: str, command: str, subcommand: str, flags: str, keys: str) -> dict:
    """A shape from its stored columns (flags and input keys as JSON lists)."""
    return {"tool_name": tool, "command": command, "subcommand": subcommand, "flags": json.loads(flags),
            "input_keys": json.loads(keys)}


def shape_label(shape: dict) -> str:
    """``git comit -m`` for Bash, ``read_file {path}`` for other tools."""
    if shape["tool_name"] == BASH_TOOL and shape["command"]:
        return " ".join(part for part in (shape["command"], shape["subcommand"], *shape["flags"]) if part)
    return f"{shape['tool_name']} {{{', '.join(shape['input_keys'])}}}"


class RuleIndex:
    """The stored rules by what they correct, to tell which one already covers a shape."""

    def __init__(self, rules):
        self.tool_aliases = {}
        self.by_command = {}
        for rule in rules:
            if rule.match_kind == TOOL_ALIAS:
                self.tool_aliases[rule.from_name] = rule
            elif rule.tool == BASH_TOOL and rule.command:
                self.by_command.setdefault(rule.command, []).append(rule)

    def covering(self, shape: dict) -> dict | None:
        """The rule (as its stored fields) that corrects this shape, or None."""
        alias = self.tool_aliases.get(shape["tool_name"])
        if alias is not None:
            return alias.to_dict()
        if shape["tool_name"] != BASH_TOOL:
            return None
        for rule in self.by_command.get(shape["command"], ()):
            if _covers(rule, shape):
                return rule.to_dict()
        return None


def _covers(rule, shape: dict) -> bool:
    if rule.match_kind == COMMAND:
        return True
    if rule.match_kind == RECIPE:
        words = rule.from_name.split()
        return words[1:] == [shape["subcommand"]][: len(words) - 1] if len(words) <= 2 else False
    if rule.match_kind == FLAG:
        return any(_flag_matches(rule.from_name, flag) for flag in shape["flags"])
    return False


def _flag_matches(stored: str, flag: str) -> bool:
    """Whether a flag rule's FROM (no dashes) is the flag ``flag`` or a letter of its short group."""
    if flag.startswith("--"):
        return flag[2:] == stored
    return len(stored) == 1 and stored in flag[1:] if len(flag) > 2 else flag[1:] == stored
