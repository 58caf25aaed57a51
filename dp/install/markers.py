"""dp's block inside a user's Markdown file, between two HTML comment markers.

Everything outside the markers is the user's and is kept byte for byte
(encoding, BOM, line endings); the block is replaced in place, so running
``dp pave --agents-md --output AGENTS.md`` again updates rather than appends.
"""

from __future__ import annotations

import re
from pathlib import Path

from dp.errors import DpError
from dp.files import read_bytes, replace_file

BEGIN = "<!-- dp:begin -->"
END = "<!-- dp:end -->"


def _marker_line(marker: str) -> re.Pattern:
    # A marker counts only as a line of its own, so a rule or the user's prose
    # that mentions it inline can never be mistaken for dp's block boundary.
    return re.compile(r"^[ \t]*" + re.escape(marker) + r"[ \t]*(?=\r?$)", re.MULTILINE)


_BEGIN_LINE, _END_LINE = _marker_line(BEGIN), _marker_line(END)


def block(markdown: str) -> str:
    """``markdown`` wrapped in the markers (no trailing newline); just the markers when empty."""
    body = markdown.rstrip("\n")
    return f"{BEGIN}\n{body}\n{END}" if body else f"{BEGIN}\n{END}"


def with_block(existing: str | None, markdown: str) -> tuple[str, str]:
    """The file text with dp's block set to ``markdown``, and what was done.

    The action is ``created`` (no file), ``appended`` (no block yet) or
    ``replaced``. Raises DpError when the markers are unbalanced, since
    guessing which text is dp's could delete the user's.
    """
    newline = "\r\n" if existing and "\r\n" in existing else "\n"
    new_block = block(markdown).replace("\n", newline)
    if existing is None:
        return new_block + newline, "created"
    begins, ends = list(_BEGIN_LINE.finditer(existing)), list(_END_LINE.finditer(existing))
    if not begins and not ends:
        if not existing:
            return new_block + newline, "appended"
        separator = "" if existing.endswith(newline) else newline
        return f"{existing}{separator}{newline}{new_block}{newline}", "appended"
    if len(begins) != 1 or len(ends) != 1 or ends[0].start() < begins[0].start():
        raise DpError(
            f"expected one {BEGIN} … {END} block, found {len(begins)} begin and {len(ends)} end markers; "
            "remove the stray markers by hand (nothing was changed)"
        )
    return existing[: begins[0].start()] + new_block + existing[ends[0].end() :], "replaced"


def write_block(path: Path, markdown: str) -> str:
    """Put ``markdown`` into ``path`` between the markers; returns the action.

    ``unchanged`` when the file already holds exactly this block. Empty
    ``markdown`` (no rules left) empties an existing block, so the agent is
    not kept obeying deleted rules, and creates nothing otherwise.
    """
    original = read_bytes(path)
    if original is None:
        existing = None
    else:
        try:
            existing = original.decode("utf-8")
        except UnicodeDecodeError:
            raise DpError(f"{path} is not UTF-8 text; nothing was changed") from None
    if not markdown.strip() and (existing is None or not _BEGIN_LINE.search(existing)):
        return "unchanged"
    text, action = with_block(existing, markdown)
    if text == existing:
        return "unchanged"
    replace_file(path, text.encode("utf-8"), expected=original, backup=True)
    return action


def without_block(existing: str, path: Path) -> str | None:
    """``existing`` with dp's block taken out, as it was before dp appended it; None without a block.

    The inverse of ``with_block``: the block's lines go, and so does the blank
    line dp put before a block it appended at the end of the file.
    """
    begins, ends = list(_BEGIN_LINE.finditer(existing)), list(_END_LINE.finditer(existing))
    if not begins and not ends:
        return None
    if len(begins) != 1 or len(ends) != 1 or ends[0].start() < begins[0].start():
        raise DpError(f"{path}: expected one {BEGIN} … {END} block; remove dp's block by hand (nothing was changed)")
    newline = "\r\n" if "\r\n" in existing else "\n"
    before, after = existing[: begins[0].start()], existing[ends[0].end() :]
    if after.startswith(newline):
        after = after[len(newline) :]
    if not after and before.endswith(newline * 2):
        before = before[: -len(newline)]
    return before + after
