"""Regex dialects: when a grep pattern means the same to ripgrep, and how to convert it.

GNU grep reads *basic* regexes by default (``a|b`` is literal text, ``a\\|b``
is alternation), *extended* ones with ``-E``; ripgrep reads Rust regexes,
which are close to extended ones. ``check_pattern`` returns the pattern as
the target must be given it, or None when the two tools would read it
differently in a way dp does not convert (back-references, nested brackets,
``{`` that is not a repeat count …) — the command is then left alone.

A basic regex is read token by token, remembering what came before, because
GNU decides by position: ``^`` is an anchor at the start, after ``\\(`` and
after ``\\|`` and literal elsewhere; ``$`` is one at the end, before ``\\)``
and before ``\\|``; ``*`` with nothing before it to repeat is literal.
``\\<`` and ``\\>`` become ``\\b`` where that means the same (next to a word
character): rg 13's regex engine has no ``\\<``, so the one form serves every
rg version.
"""

from __future__ import annotations

import re

# Escapes both dialects read the same way (literal punctuation, classes, word boundaries).
_SAME_ESCAPES = frozenset(".*[]^$\\/wWsSbB-+?|(){}")
# In a basic regex these are literal; escaped, they are operators (GNU).
_BRE_SWAPPED = frozenset("+?|(){}")
_REPEAT = re.compile(r"\{\d+(,\d*)?\}")
_WORD = re.compile(r"[A-Za-z0-9_]\Z")
# Token kinds after which a repeat operator has nothing to repeat.
_NOTHING_BEFORE = ("start", "open", "alt", "anchor")


def check_pattern(pattern: str, syntax: str) -> str | None:
    """``pattern`` converted from ``syntax`` ("bre", "ere") to Rust regex syntax, or None."""
    if "\n" in pattern or "\0" in pattern:
        return None
    out: list[str] = []
    after = "start"  # the kind of the last token: start, open, alt, anchor, word, atom
    i = 0
    while i < len(pattern):
        text, i, after = _token(pattern, i, syntax, after)
        if text is None:
            return None
        out.append(text)
    converted = "".join(out)
    return converted if _repeats_valid(converted) else None


def _token(pattern: str, i: int, syntax: str, after: str):
    """(Rust text, next index, token kind) for the token at ``i``; text None when dp cannot convert it."""
    c = pattern[i]
    if c == "[":
        end = _bracket_end(pattern, i)
        return (None, i, after) if end is None else (pattern[i:end], end, "atom")
    if c == "\\":
        return _escape(pattern, i, syntax, after)
    if syntax == "bre":
        return _bre_plain(pattern, i, after)
    if c in "*+?{" and after in _NOTHING_BEFORE:
        return None, i, after  # GNU reads a repeat of nothing as literal text, Rust as an error
    return c, i + 1, _kind(c)


def _kind(c: str) -> str:
    if _WORD.match(c):
        return "word"
    return {"^": "anchor", "$": "anchor", "|": "alt", "(": "open"}.get(c, "atom")


def _bre_plain(pattern: str, i: int, after: str):
    """An unescaped character of a basic regex."""
    c = pattern[i]
    if c in _BRE_SWAPPED:
        return "\\" + c, i + 1, "atom"
    if c == "*" and after in _NOTHING_BEFORE:
        return "\\*", i + 1, "atom"
    if c == "^":
        return ("^", i + 1, "anchor") if after in ("start", "open", "alt") else ("\\^", i + 1, "atom")
    if c == "$":
        ends = i + 1 == len(pattern) or pattern[i + 1 : i + 3] in ("\\)", "\\|")
        return ("$", i + 1, "anchor") if ends else ("\\$", i + 1, "atom")
    return c, i + 1, "word" if _WORD.match(c) else "atom"


def _escape(pattern: str, i: int, syntax: str, after: str):
    """A backslash and the character after it."""
    if i + 1 >= len(pattern):
        return None, i, after
    escaped = pattern[i + 1]
    if escaped in "<>":
        return _word_edge(pattern, i, escaped, after), i + 2, "anchor"
    if escaped not in _SAME_ESCAPES:
        return None, i, after  # back-references, \` \' …: no exact Rust equivalent
    if syntax == "bre" and escaped in _BRE_SWAPPED:
        if escaped in "+?{" and after in _NOTHING_BEFORE:
            return None, i, after
        return escaped, i + 2, {"(": "open", "|": "alt"}.get(escaped, "atom")
    return "\\" + escaped, i + 2, "word" if escaped == "w" else "atom"


def _word_edge(pattern: str, i: int, edge: str, after: str) -> str | None:
    """GNU's ``\\<`` / ``\\>`` as ``\\b`` where the two mean the same, else None.

    ``\\b`` just before a word character is the start of a word, just after
    one its end; anywhere else it would also match where GNU's does not.
    """
    if edge == "<":
        item = 2 if pattern.startswith("\\w", i + 2) else 1 if _WORD.match(pattern[i + 2 : i + 3]) else 0
        rest = pattern[i + 2 + item :]
        optional = rest[:1] in ("*", "?", "{") or rest[:2] in ("\\?", "\\{", "\\*")
        return "\\b" if item and not optional else None  # a word character must follow, not maybe
    return "\\b" if after == "word" else None


def _bracket_end(pattern: str, i: int) -> int | None:
    """End of the bracket expression at ``i``; None for shapes Rust reads differently."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1  # a leading ] is a member
    while j < len(pattern):
        c = pattern[j]
        if c == "]":
            return j + 1
        if c == "[":
            match = re.match(r"\[:[a-z]+:\]", pattern[j:])
            if not match:
                return None  # nested classes in Rust, a literal [ in POSIX
            j += match.end()
            continue
        if c == "\\" or pattern.startswith(("&&", "--", "~~"), j):
            return None  # an escape in Rust, literal in POSIX; Rust's set operators
        j += 1
    return None


def _repeats_valid(converted: str) -> bool:
    """Every unescaped ``{`` outside brackets starts a repeat count (Rust rejects others)."""
    i = 0
    while i < len(converted):
        c = converted[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = _bracket_end(converted, i) or len(converted)
            continue
        if c == "{" and not _REPEAT.match(converted, i):
            return False
        if c in "*+?{" and (i == 0 or converted[i - 1] in "(|^"):
            return False  # a repeat of nothing: literal for grep, an error for rg
        i += 1
    return True
