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
    columns = [_column(title, [str(row[index]) for row in rows]) for index, title in enumerate(headers)]
    lines = map(GAP.join, zip(*columns)) if columns else ()
    return "\n".join(line.rstrip() for line in lines)


def _column(title: str, cells: list[str]) -> list[str]:
    """The title and the cells of one column, each padded to the column's width.

    A column is worked on whole: 10,000 rules make 60,000 cells, and the
    common column (printable ASCII, single spaces, nothing to trim) is
    recognised with a few calls on its joined text rather than one per cell.
    """
    if _plain("\n".join(cells), len(cells)):
        width = max(len(title) + HEADER_PADDING, max(map(len, cells), default=0))
        return [title.ljust(width), *(cell.ljust(width) for cell in cells)]
    cells = [_fold(cell) for cell in cells]
    sizes = [display_width(cell) for cell in cells]
    width = max([len(title) + HEADER_PADDING, *sizes])
    return [title.ljust(width), *(cell + " " * (width - size) for cell, size in zip(cells, sizes))]


def _plain(joined: str, count: int) -> bool:
    """Whether ``count`` cells joined by newlines are printable ASCII that ``_fold`` would keep."""
    return (
        joined.isascii() and joined.count("\n") == max(count - 1, 0) and joined.replace("\n", "").isprintable()
        and "  " not in joined and " \n" not in joined and "\n " not in joined and joined == joined.strip()
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
