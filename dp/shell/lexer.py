"""A small Bash lexer used before bashlex (stdlib only): the public face of the scanner.

* ``prepare(text)`` — an offset-preserving pre-pass for the constructs bashlex
  0.18 cannot read (quoted heredoc delimiters, heredoc bodies, ``[[ ]]``,
  ``$(( ))``, ``$[ ]``, ``(( ))``, ``time``, arrays, ``case``) or misreads
  (``&&``, newlines, continuations and ``#`` in substitutions, ``{ }`` as
  arguments). Each one is overwritten by a same-length placeholder bashlex
  can parse, so every position bashlex reports is a position in the original
  string. Strings the lexer cannot close
  (an open quote, a missing ``)``, an unterminated heredoc — the inputs that
  make bashlex hang) raise ``Unparseable`` so that the caller does nothing.
* ``regions(text)`` — the quoting contexts (quotes, substitutions, heredoc
  bodies, arithmetic, comments …) found by the same scan; ``dp.shell.placement``
  judges template placeholders with them.
* ``plain_runs(word)`` — the literal runs of a word, for the rule kinds.

The scan itself is ``dp.shell.scanner`` (command lists, words, quotes,
expansions) with ``dp.shell.constructs`` (what is overwritten for bashlex);
the region kinds and ``Unparseable`` come from ``dp.shell.syntax`` and are
re-exported here, where callers import them.
"""

from __future__ import annotations

import re

from dp.shell.scanner import Scanner
from dp.shell.syntax import (  # noqa: F401  (re-exported: the kinds of regions, and the error, as callers know them)
    ANSI_C_QUOTED,
    ARITHMETIC,
    BACKTICK,
    COMMENT,
    DOUBLE_QUOTED,
    HEREDOC,
    PARAMETER,
    QUOTED_HEREDOC,
    QUOTING,
    SINGLE_QUOTED,
    SUBSTITUTION,
    TEST,
    Unparseable,
)


class Prepared:
    """The bashlex-ready text plus the regions that were overwritten."""

    __slots__ = ("text", "masks", "literals")

    def __init__(self, text: str, masks: list[tuple[int, int]], literals=()):
        self.text = text
        self.masks = masks
        self.literals = literals  # '…' and $'…' spans: nothing in them ever runs

    def literal(self, at: int) -> bool:
        """Whether position ``at`` is inside a single-quoted string."""
        return any(start < at < end for start, end in self.literals)

    def masked(self, start: int, end: int) -> bool:
        """Whether any of ``[start, end)`` was overwritten by the pre-pass."""
        return any(s < end and start < e for s, e in self.masks)


def prepare(text: str) -> Prepared:
    """Return ``text`` with unreadable constructs overwritten, same length."""
    scanner = Scanner(text).scan()
    chars = list(text)
    for start, stop, head, fill in scanner.edits:
        for index in range(start, stop):
            chars[index] = fill
        chars[start : start + len(head)] = head
    masks = sorted((start, stop) for start, stop, _, _ in scanner.edits if stop > start)
    literals = [(start, stop) for start, stop, kind in scanner.regions if kind in (SINGLE_QUOTED, ANSI_C_QUOTED)]
    return Prepared("".join(chars), masks, literals)


def regions(text: str) -> list[tuple[int, int, str]]:
    """The quoting contexts of ``text`` as ``(start, stop, kind)``; raises ``Unparseable``."""
    return Scanner(text).scan().regions


def layout(text: str) -> tuple[list[tuple[int, int, str]], list[tuple]]:
    """``regions(text)`` and its heredocs (see ``Scanner.heredocs``) from one scan."""
    scanner = Scanner(text).scan()
    return scanner.regions, scanner.heredocs


# --- tokenisation helpers --------------------------------------------------------


def plain_runs(word: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` runs of ``word`` that are literal, unquoted text.

    Quoted strings, escapes, ``$`` expansions and command substitutions are
    excluded: rules never rewrite inside them.
    """
    scanner = Scanner(word)
    runs = []
    run_start = i = 0
    n = len(word)
    while i < n:
        c = word[i]
        if c in QUOTING:
            if run_start < i:
                runs.append((run_start, i))
            stop = scanner.quoted_part(i)
            if c == "$" and stop == i + 1:  # $name, $1, $@ …
                match = _PARAMETER_NAME.match(word, stop)
                stop = match.end() if match else stop
            i = run_start = stop
        else:
            i += 1
    if run_start < n:
        runs.append((run_start, n))
    return runs


_PARAMETER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]")
