"""Text on its way to a terminal: what would act on the terminal instead of showing is taken out.

dp prints text it did not write: a team member's shapes downloaded from the
team database, an agent's captured commands, a server's error message. An
escape sequence in any of them (``ESC ] 8`` hyperlinks, cursor moves, title
changes, a C1 ``CSI``), a carriage return that overwrites the line, or a
bidi override that reorders it would act on the reader's terminal. Every
printer of such text goes through ``printable`` (``dp.cli.table`` for
tables, ``dp.cli.common`` for notes, warnings and errors, and the few
free-form printers), so there is one rule.
"""

from __future__ import annotations

# C0 controls but tab and newline, DEL, C1 controls, and the bidi overrides and isolates.
_DROPPED = dict.fromkeys([*range(0x00, 0x09), *range(0x0b, 0x20), *range(0x7f, 0xa0),
                          *range(0x202a, 0x202f), *range(0x2066, 0x206a)])


def printable(text: str) -> str:
    """``text`` without control characters (tab and newline kept) and bidi overrides."""
    if text.isprintable():
        return text
    return text.translate(_DROPPED)
