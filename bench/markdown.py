"""A GitHub-style Markdown table for the bench scripts' reports (no third-party table library)."""

from __future__ import annotations


def markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]

    def line(cells) -> str:
        return "| " + " | ".join(str(cell).ljust(width) for cell, width in zip(cells, widths)) + " |"

    return "\n".join([line(headers), "|" + "|".join("-" * (width + 2) for width in widths) + "|", *map(line, rows)])
