"""Regex dialects: when a grep pattern means the same to ripgrep, and how to convert it.

GNU grep reads *basic* regexes by default (``a|b`` is literal text, ``a\\|b``
is alternation), *extended* ones with ``-E``; ripgrep reads Rust regexes,
which are close to extended ones. ``check_pattern`` returns the pattern as
the target must be given it, or None when the two tools would read it
differently in a way dp does not convert (back-references, ``\\<``, nested
brackets, ``{`` that is not a repeat count …) — the command is then left alone.
"""

from __future__ import annotations

import re

# Escapes both dialects read the same way (literal punctuation, classes, word boundaries).
_SAME_ESCAPES = frozenset(".*[]^$\\/wWsSbB-+?|(){}")
# In a basic regex these are literal; escaped, they are operators (GNU).
_BRE_SWAPPED = frozenset("+?|(){}")
_REPEAT = re.compile(r"\{\d+(,\d*)?\}")


def check_pattern(pattern: str, syntax: str) -> str | None:
    """``pattern`` converted from ``syntax`` ("bre", "ere") to Rust regex syntax, or None."""
    if "\n" in pattern or "\0" in pattern:
        return None
    if syntax == "bre" and pattern.startswith("*"):
        return None  # a leading * is literal in a basic regex, an error in rg
    out = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "[":
            end = _bracket_end(pattern, i)
            if end is None:
                return None
            out.append(pattern[i:end])
            i = end
        elif c == "\\":
            if i + 1 >= n or pattern[i + 1] not in _SAME_ESCAPES:
                return None
            escaped = pattern[i + 1]
            out.append(escaped if syntax == "bre" and escaped in _BRE_SWAPPED else "\\" + escaped)
            i += 2
        elif syntax == "bre" and c in _BRE_SWAPPED:
            out.append("\\" + c)
            i += 1
        elif c in "^$" and syntax == "bre" and not _anchor_position(pattern, i):
            out.append("\\" + c)  # ^ and $ are literal in the middle of a basic regex
            i += 1
        else:
            out.append(c)
            i += 1
    converted = "".join(out)
    return converted if _repeats_valid(converted) else None


def _anchor_position(pattern: str, i: int) -> bool:
    return (pattern[i] == "^" and i == 0) or (pattern[i] == "$" and i == len(pattern) - 1)


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
        if c in "*+?" and (i == 0 or converted[i - 1] in "(|"):
            return False  # a repeat of nothing: literal for grep, an error for rg
        i += 1
    return True
