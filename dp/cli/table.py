"""Plain text tables: columns padded to their widest cell, two spaces apart.

Every cell is text already, so nothing is guessed about types (tabulate's
type detection was most of ``dp aliases``' time with 10,000 rules); widths
count East Asian wide characters as two columns and combining marks as none.
"""

from __future__ import annotations

import unicodedata
from typing import Sequence

HEADER_PADDING = 2  # a column is at least this much wider than its title
GAP = "  "


def render(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The table as lines without trailing blanks, headers first; whitespace in a cell is folded."""
    table = [list(headers)] + [[_fold(str(cell)) for cell in row] for row in rows]
    sizes = [[display_width(cell) for cell in row] for row in table]
    widths = [len(title) + HEADER_PADDING for title in headers]
    for row in sizes:
        widths = [max(pair) for pair in zip(widths, row)]
    return "\n".join(
        GAP.join(cell + " " * (width - size) for cell, size, width in zip(row, row_sizes, widths)).rstrip()
        for row, row_sizes in zip(table, sizes)
    )


def _fold(cell: str) -> str:
    if cell.isprintable() and "  " not in cell and cell == cell.strip():
        return cell
    return " ".join(cell.split())


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes."""
    if text.isascii():
        return len(text)
    return sum(
        0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1
        for char in text
    )
