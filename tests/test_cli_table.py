"""dp's plain tables: padded columns, wide characters, folded whitespace."""

from __future__ import annotations

from dp.cli.table import display_width, render


def test_columns_are_padded_to_the_widest_cell_and_lines_have_no_trailing_blanks():
    text = render(["FROM", "TO", "MESSAGE"], [["read_file", "Read", ""], ["gt await-signal", "x", "poll"]])
    assert text.splitlines() == [
        "FROM             TO    MESSAGE",
        "read_file        Read",
        "gt await-signal  x     poll",
    ]


def test_a_header_is_two_columns_wider_than_its_title():
    assert render(["H1", "H2"], [["a", "b"]]).splitlines() == ["H1    H2", "a     b"]


def test_wide_characters_take_two_columns_and_combining_marks_none():
    assert display_width("日本") == 4 and display_width("ab\u0301c") == 3
    lines = render(["NAME", "X"], [["日本語", "1"], ["abc", "2"]]).splitlines()
    assert [display_width(line[: line.index(digit)]) for line, digit in zip(lines[1:], "12")] == [8, 8]


def test_newlines_and_runs_of_blanks_in_a_cell_are_folded():
    assert render(["A", "B"], [["x\n  y", "z"]]).splitlines()[1] == "x y  z"


def test_a_column_is_the_same_whichever_way_its_cells_are_checked():
    """Plain columns take a fast path; every cell that needs folding or wide widths takes the other."""
    import random

    rng = random.Random(7)
    alphabet = ["a", "b", " ", "  ", "\n", "\t", "日", "e\u0301", "", "-"]
    for _ in range(300):
        rows = [["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5))), "x"] for _ in range(rng.randint(0, 4))]
        expected = [
            [" ".join(cell.split()) if not cell.isprintable() or "  " in cell or cell != cell.strip() else cell
             for cell in row] for row in rows
        ]
        widths = [max([len(title) + 2, *(display_width(row[i]) for row in expected)]) for i, title in enumerate("AB")]
        lines = ["  ".join(cell + " " * (width - display_width(cell)) for cell, width in zip(row, widths)).rstrip()
                 for row in [["A", "B"], *expected]]
        assert render(["A", "B"], rows) == "\n".join(lines), rows


def test_percent_signs_are_text_not_formats():
    """Lines are built with one ``%`` format each: the cells' own ``%`` must come out as typed."""
    assert render(["%s", "B%%"], [["100%", "%d"], ["", "%(x)s"]]).splitlines() == [
        "%s    B%%", "100%  %d", "      %(x)s"]


def test_render_columns_is_render_by_columns():
    from dp.cli.table import render_columns

    rows = [["a", " x  y "], ["", "日本"], ["ccc", ""]]
    assert render_columns(["A", "B"], [list(column) for column in zip(*rows)]) == render(["A", "B"], rows)
