"""What a recipe template sees and prints: the agent's words as typed (stdlib only).

Both renderers share this module — the Jinja2 sandbox (``dp.rules.recipe``)
and the stdlib one for templates compiled when the alias was written
(``dp.rules.recipe_program``) — so the two print the same text by
construction.

* An argument is an ``Arg``: a ``str`` holding the word's *value* (what the
  command would have received: ``$HOME/x`` for ``"$HOME/x"``), so template
  logic (``==``, ``length``, ``default``) works on values, plus ``source``,
  the word *as typed*. Printed, an argument is its source: ``*.py``, ``~/x``,
  ``"$VAR"`` and ``$(date)`` keep their meaning, and ``'x; rm -rf ~'`` stays
  quoted. In plain word position (the only place a template may put one,
  see ``dp.shell.placement``) that is exactly as safe as the original command.
* A list of arguments prints its words separated by spaces, each its own word.
* A missing argument is ``Missing``: it prints nothing and ``default`` replaces it.
* Anything else a template prints (``full``, ``cwd``, a literal) is one word,
  shell-quoted by value; ``|value`` (alias ``|quote``) prints an argument that way too.
"""

from __future__ import annotations

import shlex


class Arg(str):
    """One trailing argument: its shell value, plus ``source``, its text as typed."""

    source: str

    def __new__(cls, value: str, source: str | None = None):
        arg = super().__new__(cls, value)
        arg.source = value if source is None else source
        return arg


class Verbatim(str):
    """Shell text printed as is: the recipe's own words, the agent's typed words, ``|raw``."""


class Missing:
    """An argument the agent did not give (Jinja2's undefined values are Missing too)."""

    __slots__ = ()

    def __str__(self) -> str:
        return ""


MISSING = Missing()


def finalize(value) -> str:
    """The shell text a template prints for ``value``."""
    if isinstance(value, Verbatim):
        return str(value)
    if isinstance(value, Arg):
        return value.source
    if isinstance(value, Missing) or value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(text for text in map(finalize, value) if text)
    return shlex.quote(str(value))


def raw_filter(value):
    """``|raw``: the agent's text as typed, any other value unquoted (the explicit opt-out)."""
    if isinstance(value, (list, tuple)):
        return Verbatim(" ".join(str(raw_filter(item)) for item in value))
    if isinstance(value, Missing) or value is None:
        return Verbatim("")
    return Verbatim(getattr(value, "source", value))


def value_filter(value):
    """``|value`` / ``|quote``: each value shell-quoted, one word each, however it was typed."""
    if isinstance(value, (list, tuple)):
        return Verbatim(" ".join(str(value_filter(item)) for item in value))
    if isinstance(value, Missing) or value is None:
        return Verbatim("")
    return Verbatim(shlex.quote(str(value)))


def join_filter(value, separator: str = ""):
    """``|join(sep)``: the items' shell text (typed words stay separate words) joined by ``sep``."""
    if isinstance(value, Missing) or value is None:
        return Verbatim("")
    return Verbatim(separator.join(finalize(item) for item in value))


def default_filter(value, fallback="", boolean: bool = False):
    """``|default(x)``: ``x`` for a missing argument (with ``boolean``, for an empty one too)."""
    if isinstance(value, Missing) or (boolean and not value):
        return fallback
    return value


FILTERS = {
    "raw": raw_filter,
    "value": value_filter,
    "quote": value_filter,
    "join": join_filter,
    "default": default_filter,
    "d": default_filter,
}


def nth(arguments: list, n):
    """``arg(n)``: the n-th argument (1-based), or MISSING."""
    try:
        n = int(n)
    except (TypeError, ValueError):
        return MISSING
    return arguments[n - 1] if 1 <= n <= len(arguments) else MISSING
