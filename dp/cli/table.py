"""Plain text tables: columns padded to their widest cell, two spaces apart.

Every cell is text already, so nothing is guessed about types (tabulate's
type detection was most of ``dp aliases``' time with 10,000 rules); widths
count East Asian wide characters as two columns and combining marks as none.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from dp.terminal import printable

HEADER_PADDING = 2  # a column is at least this much wider than its title
GAP = "  "


def render(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The table as lines without trailing blanks, headers first; whitespace in a cell is folded."""
    return render_columns(headers, [[str(row[index]) for row in rows] for index in range(len(headers))])


def render_columns(headers: Sequence[str], columns: Sequence[list[str]]) -> str:
    """``render`` for cells already gathered column by column (each a list of text).

    Each line is one ``%`` format (``%-12s  %-40s  …``) applied to the row's
    cells: 10,000 rules make 70,000 cells, and one C-level format per line is
    several times faster than padding every cell on its own.
    """
    fields = [_field(title, cells) for title, cells in zip(headers, columns)]
    line = GAP.join(spec for spec, _ in fields)
    return "\n".join((line % row).rstrip() for row in zip(*(cells for _, cells in fields)))


def _field(title: str, cells: list[str]) -> tuple[str, list[str]]:
    """The ``%`` format of one column and its cells, title first.

    The common column (printable ASCII, single spaces, nothing to trim) is
    recognised with a few calls on its joined text and padded by the format;
    any other is folded and padded here, by display width.
    """
    if _plain("\n".join(cells), len(cells)):
        return f"%-{max(len(title) + HEADER_PADDING, max(map(len, cells), default=0))}s", [title, *cells]
    cells = [_fold(cell) for cell in cells]
    sizes = [display_width(cell) for cell in cells]
    width = max([len(title) + HEADER_PADDING, *sizes])
    return "%s", [title.ljust(width), *(cell + " " * (width - size) for cell, size in zip(cells, sizes))]


def _plain(joined: str, count: int) -> bool:
    """Whether ``count`` cells joined by newlines are printable ASCII that ``_fold`` would keep."""
    return (
        joined.isascii() and joined.count("\n") == max(count - 1, 0) and joined.replace("\n", "").isprintable()
        and "  " not in joined and " \n" not in joined and "\n " not in joined
        and not joined.startswith(" ") and not joined.endswith(" ")
    )


def _fold(cell: str) -> str:
    """The cell on one line, whitespace folded and what would act on the terminal taken out
    (a cell may hold text dp did not write: an agent's command, a team member's shape)."""
    if cell.isprintable() and "  " not in cell and cell == cell.strip():
        return cell
    return " ".join(printable(cell).split())


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes."""
    if text.isascii():
        return len(text)
    return sum(
        0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1
        for char in text
    )
