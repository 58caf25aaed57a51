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
# The closer of a case clause's command list (it ends at ;; ;& ;;& or esac).
CASE_END = "case"

# Region kinds recorded by the scanner (see ``Scanner.regions``).
SINGLE_QUOTED, DOUBLE_QUOTED, ANSI_C_QUOTED = "single-quoted", "double-quoted", "ansi-c-quoted"
BACKTICK, SUBSTITUTION, PARAMETER = "backtick", "substitution", "parameter"
ARITHMETIC, TEST, COMMENT = "arithmetic", "test", "comment"
HEREDOC, QUOTED_HEREDOC = "heredoc", "quoted-heredoc"
