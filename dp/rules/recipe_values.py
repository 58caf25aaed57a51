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
  quoted. In plain word position that is exactly as safe as the original
  command. Elsewhere (``dp.shell.placement``) ``in_context`` fits the same
  words to the place: inside ``"…"`` or ``'…'`` the quotes are closed around
  them (one word, items joined by a quoted space), in a heredoc body the
  word's value is escaped as text.
* A list of arguments prints its words separated by spaces, each its own word.
* A missing argument is ``Missing``: it prints nothing and ``default`` replaces it.
* Anything else a template prints (``full``, ``cwd``, a literal) is one word,
  shell-quoted by value; ``|value`` (alias ``|quote``) prints an argument that way too.
"""

from __future__ import annotations

import shlex

from dp.templating import OptionValueError, TemplateError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: this module runs in the hook
    from collections.abc import Callable
    from typing import Any


class Arg(str):
    """One trailing argument: its shell value, plus ``source``, its text as typed."""

    source: str

    def __new__(cls, value: str, source: str | None = None):
        arg = super().__new__(cls, value)
        arg.source = value if source is None else source
        return arg


class Verbatim(str):
    """Shell text printed as is: the recipe's own words, the agent's typed words, ``|raw``."""


class Authored(str):
    """Text the template itself supplies (``default('--web')``): the author's, printed like any value."""


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
    """``|raw``: the agent's text as typed (what printing an argument does anyway).

    It used to splice any value unquoted wherever it stood; alias recipes,
    whose values are the agent's words, have no way to make a value code, so
    any other value is shell-quoted like everywhere else.
    """
    if isinstance(value, (list, tuple)):
        return Verbatim(" ".join(str(raw_filter(item)) for item in value))
    if isinstance(value, Missing) or value is None:
        return Verbatim("")
    return Verbatim(finalize(value))


class ContextError(TemplateError):
    """A value that cannot be placed as data where the template put it (the rule is then skipped)."""


def in_context(value, context: str):
    """The shell text for ``value`` where ``dp.shell.placement`` found its placeholder.

    ``double-quoted``: the quotes closed around the words (``"a "'b c'" d"``);
    ``single-quoted``: the words, the quotes already closed around them by the
    placement; both keep several words one word (joined by ``" "``).
    ``heredoc``: the value as text, backslashes, dollars and backticks escaped — a typed word whose
    value depends on an expansion, or any value with a newline (which could
    be a line ending the heredoc), cannot be placed there: ContextError.
    """
    if context == "heredoc":
        return Verbatim(_heredoc_text(value))
    items = value if isinstance(value, (list, tuple)) else [value]
    words = '" "'.join(text for text in map(finalize, items) if text)
    return Verbatim(f'"{words}"' if context == "double-quoted" else words)


def _heredoc_text(value) -> str:
    from dp.shell.quoting import literal

    if isinstance(value, (list, tuple)):
        return " ".join(_heredoc_text(item) for item in value if not isinstance(item, Missing))
    if isinstance(value, Missing) or value is None:
        return ""
    text = literal(value.source) if isinstance(value, Arg) else str(value)
    if text is None:
        raise ContextError(f"the argument {value.source} expands when it runs, so it cannot be "
                           "written into a heredoc as text")
    if "\n" in text or "\r" in text:
        raise ContextError("a value with a line break cannot be written into a heredoc body")
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("`", "\\`")


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
        return Authored(fallback) if isinstance(fallback, str) else fallback
    return value


_PLAIN_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./_+:@%=,")


def _starts_known(source: str) -> bool:
    """Whether a typed word that expands when it runs starts with the agent's variable, ``~`` or a literal."""
    bare = source.lstrip('"')
    return source[:1] in _PLAIN_START or bare[:1] == "~" or (
        bare[:1] == "$" and (bare[1:2] == "{" or bare[1:2].isalnum() or bare[1:2] == "_"))


def option_code(tag: str, line: int, check: tuple[str, str]) -> str:
    """The argument of ``dp_option`` for a placeholder: where it is and who reads it, as hex (a
    program's filter arguments are plain quoted strings)."""
    import json

    return json.dumps([tag, line, *check]).encode().hex()


def option_filter(value, code: str):
    """``|dp_option(code)``: the value, unless a program would read it as an option (``option_code``).

    An argument's value is what the typed word expands to. Where that is known only when it runs, a
    word that starts with the agent's own variable (``"$X"``, ``~/x``) or a literal character
    (``./*.txt``) is the agent's as much as a typed option; one whose start the repository's files or a
    program's output decide (``*.txt``, ``$(ls)``) is refused there. A list (``args``) is the agent's
    own words for the program, options included: as safe as the command it replaces; the template's
    own text (a ``default``, ``matched``) is the author's.
    """
    if isinstance(value, (list, tuple, Missing, Authored, Verbatim)) or value is None:
        return value  # the agent's words as typed, nothing, or the template's own text
    import json

    from dp.shell.optioncheck import option_problem
    from dp.shell.quoting import literal

    tag, line, program, kind = json.loads(bytes.fromhex(code))
    known = literal(value.source, globs=False) if isinstance(value, Arg) else str(value)
    if known is None and _starts_known(value.source):
        known = value.source
    problem = option_problem(tag, line, (program, kind), known)
    if problem:
        raise OptionValueError(problem)
    return value


FILTERS: dict[str, Callable[..., Any]] = {
    "dp_in": in_context,
    "dp_option": option_filter,
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
