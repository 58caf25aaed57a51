"""Condition text → tokens: strings, numbers, names, keywords and operators, each with its position.

The tokenizer is where most author mistakes are caught, so its errors say
what to write instead: ``=`` for ``==``, ``{{count}}`` for ``count``, a
quoted ``'{{result}}'`` that would compare the template's text. Names may
hold ``-`` after the first character (step ids like ``run-tests``), and no
name may contain ``__`` (the way into Python internals).
"""

from __future__ import annotations

import re
from typing import Any

from dp.recipes.conditions.values import ConditionError

KEYWORDS = {"and", "or", "not", "in", "true", "false", "null", "none"}
TWO_CHAR_OPS = ("==", "!=", "<=", ">=", "&&", "||")
ONE_CHAR_OPS = "<>()[],.!-"
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0"}
_TEMPLATE = re.compile(r"\{\{\s*([A-Za-z_][\w.\-]*)[^{}]*\}\}")


class Token:
    __slots__ = ("kind", "value", "pos")

    def __init__(self, kind: str, value: Any, pos: int):
        self.kind = kind  # str num name kw op end
        self.value = value
        self.pos = pos

    def describe(self) -> str:
        if self.kind == "end":
            return "end of condition"
        if self.kind == "str":
            return f"string {self.value!r}"
        return repr(str(self.value))


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``, ending in an ``end`` token; ConditionError at the first bad character."""
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        token, i = _read_token(text, i)
        tokens.append(token)
    tokens.append(Token("end", None, len(text)))
    return tokens


def _read_token(text: str, i: int) -> tuple[Token, int]:
    """The token starting at ``i`` and the index after it."""
    ch = text[i]
    if ch in "'\"":
        value, end = _read_string(text, i)
        _reject_template(value, i)
        # A string token's position is where it ends (kept: error messages quote it).
        return Token("str", value, end), end
    if ch.isdigit() or (ch == "." and text[i + 1:i + 2].isdigit()):
        return _read_number(text, i)
    if ch.isalpha() or ch == "_":
        return _read_word(text, i)
    if text.startswith(TWO_CHAR_OPS, i):
        return Token("op", text[i:i + 2], i), i + 2
    if ch in ONE_CHAR_OPS:
        return Token("op", ch, i), i + 1
    raise _unexpected(text, i)


def _unexpected(text: str, i: int) -> ConditionError:
    ch = text[i]
    if ch == "=":
        return ConditionError(f"'=' at position {i}: use '==' to compare")
    if text.startswith("{{", i):
        return ConditionError(
            "conditions use variables directly: write 'count > 1', not '{{count}} > 1'"
        )
    return ConditionError(f"unexpected character {ch!r} at position {i}")


def _read_number(text: str, start: int) -> tuple[Token, int]:
    i = start
    while i < len(text) and (text[i].isdigit() or text[i] in "._eE" or
                             (text[i] in "+-" and text[i - 1] in "eE")):
        i += 1
    return Token("num", _number(text[start:i], start), start), i


def _read_word(text: str, start: int) -> tuple[Token, int]:
    i = start
    while i < len(text) and (text[i].isalnum() or text[i] in "_-"):
        i += 1
    word = text[start:i]
    if "__" in word:
        raise ConditionError(f"'{word}': names containing '__' are not allowed")
    lowered = word.lower()
    if lowered in KEYWORDS and (word == lowered or lowered in ("true", "false", "none")):
        return Token("kw", lowered, start), i
    return Token("name", word, start), i


def _reject_template(value: str, pos: int) -> None:
    """A quoted ``'{{result}}'`` compares the template's text, never the value: refuse it."""
    match = _TEMPLATE.search(value)
    if match:
        name = match.group(1)
        raise ConditionError(
            f"template '{match.group(0)}' inside a quoted string at position {pos}: conditions "
            f"use variables directly, write {name}, not '{{{{{name}}}}}'"
        )


def _read_string(text: str, start: int) -> tuple[str, int]:
    quote = text[start]
    out: list[str] = []
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == quote:
            return "".join(out), i + 1
        if ch == "\\" and i + 1 < len(text):
            out.append(_ESCAPES.get(text[i + 1], "\\" + text[i + 1]))
            i += 2
            continue
        out.append(ch)
        i += 1
    raise ConditionError(f"unterminated string starting at position {start}")


def _number(text: str, pos: int) -> float | int:
    try:
        return int(text.replace("_", ""))
    except ValueError:
        pass
    try:
        return float(text.replace("_", ""))
    except ValueError:
        raise ConditionError(f"bad number {text!r} at position {pos}") from None
