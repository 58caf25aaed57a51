"""How a recipe's script can take the place of the command it replaces (read with ``dp.shell.lexer``).

One command is spliced inline; several are grouped as ``{ …; }``, or as
``{ …⏎}`` when the script ends in a heredoc or a comment — ``EOF; }`` is no
delimiter line, and a comment would swallow the ``}``.
"""

from __future__ import annotations

import re

from dp.shell import lexer


def has_several_commands(script: str) -> bool:
    """Whether ``script`` is more than one simple command in place.

    True for a separator (``;`` ``&`` ``|`` newline) outside quotes and
    substitutions, for a comment (spliced inline it would swallow what follows
    the command), and for text that cannot be read (grouping is the safe side).
    """
    text = script.strip()
    try:
        found = lexer.regions(text)
    except lexer.Unparseable:
        return True
    chars = list(text)
    for start, stop, kind in found:
        if kind == lexer.COMMENT:
            return True
        chars[start:stop] = " " * (stop - start)
    rest = re.sub(r"\\.", "", "".join(chars), flags=re.S)  # escaped characters are literal
    return any(separator in rest for separator in ";&|\n")


def needs_own_line(script: str) -> bool:
    """Whether what follows ``script`` must start on a new line: it has a comment
    or a heredoc (or cannot be read, where a newline is the safe side)."""
    try:
        kinds = {kind for _, _, kind in lexer.regions(script)}
        return bool(kinds & {lexer.COMMENT, lexer.HEREDOC, lexer.QUOTED_HEREDOC})
    except lexer.Unparseable:
        return True


def group(script: str) -> str:
    """``{ script; }``, or ``{ script\\n}`` when a trailing ``&``, a comment or a
    heredoc (whose delimiter must end its line) needs the newline."""
    body = script.strip()
    while body.endswith(";") and not body.endswith(";;"):
        body = body[:-1].rstrip()
    if body.endswith("&") or needs_own_line(body):
        return "{ " + body + "\n}"
    return "{ " + body + "; }"
