"""The rule record shared by the store, the hook and the CLI.

A rule is one row of ``aliases_v3``. Its identity is the primary key
``(from_name, tool, param, command, match_kind)``; ``to_name`` and ``message``
are its payload; the names of its fields and kinds are ``dp.rules``'. Kept as a
plain slotted class (no dataclasses) because the hook imports this whenever a
rule concerns its call.
"""

from dp.rules import (  # noqa: F401 (the vocabulary, dp.rules: imported from here all over dp)
    APPLY_ORDER,
    BASH_PARAM,
    BASH_TOOL,
    COMMAND,
    FIELDS,
    FLAG,
    KEY_FIELDS,
    LITERAL,
    MATCH_KINDS,
    RECIPE,
    REGEX,
    TOOL_ALIAS,
)


def dashed(flag: str) -> str:
    """A stored flag as typed: ``r`` → ``-r``, ``recursive`` → ``--recursive``."""
    return ("-" if len(flag) == 1 else "--") + flag


def probe_command(rule) -> str:
    """A shell command that rule RULE rewrites (in every agent's live check): its words, a probe argument."""
    words = rule.from_name if rule.match_kind == RECIPE else rule.command
    if rule.match_kind == FLAG:
        words += " " + dashed(rule.from_name)
    return f"{words} live-probe"  # no dp: a word of its own would start a second filtered handler


def kind_label(match_kind: str) -> str:
    """How a kind is named to people: ``alias`` for tool-name aliases."""
    return match_kind or "alias"


class Rule:
    """One alias rule (one ``aliases_v3`` row)."""

    # Not stored fields of the rule: ``program``, a recipe's compiled template, attached by the hook;
    # ``source``, the layer it comes from (``user``, ``project``, ``local``: dp.layers); ``line``, where
    # its entry starts in a project file (0 for the user's store). ``origin`` is stored beside the rule
    # but read by the CLI only (migration 0013: ``suggest`` for a rule dp suggest --apply made, '' for a
    # person's): the hook never needs it, and FIELDS are what it selects.
    __slots__ = FIELDS + ("program", "source", "line", "origin")

    def __init__(
        self,
        from_name: str,
        to_name: str,
        tool: str = "",
        param: str = "",
        command: str = "",
        match_kind: str = "",
        message: str = "",
        created_at: str = "",
    ):
        # One assignment in FIELDS order (a dataclass would cost the hook ~10 ms of imports).
        (self.from_name, self.to_name, self.tool, self.param, self.command, self.match_kind, self.message,
         self.created_at) = (from_name, to_name, tool, param, command, match_kind, message, created_at)
        self.program, self.source, self.line, self.origin = "", "user", 0, ""

    @classmethod
    def from_row(cls, row) -> "Rule":
        """Build from a mapping or a sequence in ``FIELDS`` order."""
        if isinstance(row, dict):
            return cls(**{name: row.get(name) or "" for name in FIELDS})
        return cls(*row)

    def replace(self, **changes) -> "Rule":
        """This rule with ``changes`` (field name → value), keeping everything else: its stored fields and
        where it comes from (``source``, ``line``) and its compiled ``program``. The one way a rule is
        respelled (an agent's tool and parameter names, dp's canonical ones), so none loses its origin."""
        unknown = set(changes) - set(self.__slots__)
        if unknown:
            raise TypeError(f"Rule has no field {', '.join(sorted(unknown))}")
        copy = Rule.__new__(Rule)
        for name in self.__slots__:
            setattr(copy, name, changes[name] if name in changes else getattr(self, name))
        return copy

    @property
    def key(self) -> tuple:
        return tuple(getattr(self, name) for name in KEY_FIELDS)

    @property
    def kind_label(self) -> str:
        return kind_label(self.match_kind)

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in FIELDS}

    def __eq__(self, other) -> bool:
        return isinstance(other, Rule) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in FIELDS if getattr(self, name))
        return f"Rule({fields})"
