"""Recipe templates in dp's own small language, compiled to JSON and rendered with the stdlib.

Most recipes only print arguments: ``{{ args }}``, ``{{ arg(2) | default('open') }}``,
``{{ args[1:] | join(' ') }}``. Importing Jinja2 for them would cost the hook
about 30 ms on every matching call, so such a template is compiled when the
alias is written into a *program* — literal text and placeholders, stored as
JSON next to the rule (table ``recipe_programs``) — and rendered here. The
values and filters are the very functions the Jinja2 sandbox uses
(``dp.rules.recipe_values``), so both renderers print the same text; a test
renders random templates both ways to hold them to it.

The language: ``args``, ``args[i]``, ``args[i:j]``, ``arg(n)``, ``matched``,
``raw``, ``full``, ``cwd``, each followed by any of the filters ``raw``,
``value``, ``quote``, ``join``, ``join('sep')``, ``default('x')`` (``d``).
Anything else — ``{% … %}``, ``{# … #}``, other expressions, escapes in
strings, whitespace control — is left to Jinja2.
"""

from __future__ import annotations

import json
import re

from dp.rules.recipe_values import FILTERS, MISSING, finalize, nth

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: this module runs in the hook
    from typing import Any

# 2: placeholders inside quotes and heredoc bodies carry their context (``dp_in``), and
# ``|raw`` no longer splices unquoted; 3: a placeholder a program may read as an option carries
# its check (``dp_option``). Programs of an older version are judged again from the template.
VERSION = 3
_STRING = r"""'[^'\\]*'|"[^"\\]*\""""
_TAG = re.compile(r"\{\{(?!-)(.*?)(?<!-)\}\}", re.S)
_EXPRESSION = re.compile(
    r"\s*(?:(args)\s*(?:\[\s*(-?\d+)\s*\]|\[\s*(-?\d+)?\s*:\s*(-?\d+)?\s*\])?"
    r"|arg\(\s*(\d+)\s*\)|(matched|raw|full|cwd))\s*"
)
_FILTER = re.compile(rf"\|\s*({'|'.join(FILTERS)})\s*(?:\(\s*({_STRING})?\s*\))?\s*")
# Variables through which a template sees every trailing argument.
_SEES_ALL = {"args", "raw", "full"}


def compile_program(source: str) -> str | None:
    """The JSON program for ``source`` (Go syntax already translated), or None if Jinja2 must render it."""
    if "{%" in source or "{#" in source:
        return None
    parts: list = []
    used: set | None = set()
    position = 0
    for match in _TAG.finditer(source):
        text = source[position:match.start()]
        placeholder = _placeholder(match.group(1))
        if placeholder is None or "{{" in text:
            return None
        parts.append(_text(text))
        parts.append(placeholder)
        kind, where = placeholder[0], placeholder[1]
        if kind == "arg" and used is not None:
            used.add(where)
        elif kind in _SEES_ALL:
            used = None
        position = match.end()
    tail = source[position:]
    if "{{" in tail:
        return None
    parts.append(_text(tail))
    program = {"v": VERSION, "used": None if used is None else sorted(used), "parts": [p for p in parts if p]}
    return json.dumps(program, ensure_ascii=False, separators=(",", ":"))


def _text(text: str) -> str:
    """Literal text as Jinja2 prints it: newlines normalised to ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _placeholder(inside: str) -> list | None:
    """``[kind, where, filters]`` for the inside of one ``{{ … }}``, or None."""
    match = _EXPRESSION.match(inside)
    if not match:
        return None
    name, index, start, stop, number, variable = match.groups()
    if name:
        kind = "args"
        where: int | list | None = int(index) if index is not None else None
        if ":" in match.group(0):
            where = [None if start is None else int(start), None if stop is None else int(stop)]
    elif number:
        kind, where = "arg", int(number)
    else:
        kind, where = variable, None
    filters = []
    position = match.end()
    while position < len(inside):
        step = _FILTER.match(inside, position)
        if not step:
            return None
        literal = step.group(2)
        filters.append([step.group(1), None if literal is None else literal[1:-1]])
        position = step.end()
    return [kind, where, filters]


class ProgramError(Exception):
    """A stored program this dp cannot run (another version wrote it): render the template instead."""


def run(program: str, arguments: list, values: dict) -> tuple[str, set | None]:
    """Render a compiled program: (script, the 1-based argument numbers it used, None for all)."""
    try:
        loaded = json.loads(program)
        if loaded.get("v") != VERSION:
            raise ProgramError(f"program version {loaded.get('v')!r}")
        out = []
        for part in loaded["parts"]:
            out.append(part if isinstance(part, str) else _print(part, arguments, values))
        used = loaded["used"]
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise ProgramError(str(exc)) from exc
    return "".join(out), None if used is None else set(used)


def _print(part: list, arguments: list, values: dict) -> str:
    kind, where, filters = part
    value: Any
    if kind == "args":
        if where is None:
            value = arguments
        elif isinstance(where, list):
            value = arguments[slice(*where)]
        else:
            value = arguments[where] if -len(arguments) <= where < len(arguments) else MISSING
    elif kind == "arg":
        value = nth(arguments, where)
    else:
        value = values[kind]
    for name, literal in filters:
        value = FILTERS[name](value) if literal is None else FILTERS[name](value, literal)
    return finalize(value)
