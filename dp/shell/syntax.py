"""Bash's character classes and the names the scanner gives what it finds (stdlib only).

Shared by the scanner (``dp.shell.scanner``), the constructs it rewrites for
bashlex (``dp.shell.constructs``) and the lexer's public face
(``dp.shell.lexer``, which re-exports the region kinds and ``Unparseable``).
"""

from __future__ import annotations

import re


class Unparseable(Exception):
    """The string is not something we can segment safely; leave it alone."""


BLANKS = " \t"
OPERATOR_CHARS = ";&|()<>\n"
QUOTING = "\\'\"`$"  # characters that start an escape, a quote or an expansion
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=")  # NAME=, NAME[i]+= …
# Reserved words after which the next word is again in command position.
KEEP_COMMAND_POSITION = frozenset({"!", "{", "then", "do", "else", "elif", "if", "while", "until"})
# The command position after ``NAME=value`` (truthy: a command word may follow;
# but a newline there ends a command, unlike one after ``then`` or ``&&``).
AFTER_ASSIGNMENT = "assignment"
# The closer of a case clause's command list (it ends at ;; ;& ;;& or esac).
CASE_END = "case"
# The closer of the command list of a ``$( )``, ``<( )`` or ``>( )`` (a ``)``, like a subshell's).
SUBSTITUTION_END = "$)"
# Bash's reserved words: bashlex 0.18 reads one as a keyword even as an argument
# when the word before it is a bare ``{`` or ``}`` (``find … -ok rm { } \;``).
RESERVED_WORDS = frozenset({
    "!", "[[", "]]", "{", "}", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function",
    "if", "in", "select", "then", "time", "until", "while",
})

# Region kinds recorded by the scanner (see ``Scanner.regions``).
SINGLE_QUOTED, DOUBLE_QUOTED, ANSI_C_QUOTED = "single-quoted", "double-quoted", "ansi-c-quoted"
BACKTICK, SUBSTITUTION, PARAMETER = "backtick", "substitution", "parameter"
ARITHMETIC, TEST, COMMENT = "arithmetic", "test", "comment"
HEREDOC, QUOTED_HEREDOC = "heredoc", "quoted-heredoc"


def escaped_quote_end(text: str, i: int, quote: str) -> int:
    """The position after the ``quote`` that closes a string whose backslashes escape the next
    character (``$'…'``, a TOML basic string), read from ``i``; -1 when the text ends first."""
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == quote:
            return i + 1
        else:
            i += 1
    return -1
