"""Making dp's AGENTS.md block reach Claude Code through CLAUDE.md.

Claude Code reads CLAUDE.md; an ``@AGENTS.md`` line in it imports AGENTS.md
(both observed reaching the model in 2.1.330, which also reads a lone
AGENTS.md when there is no CLAUDE.md — older and other versions do not). One
import line keeps a single source of truth; the alternative is dp's marked
block written into CLAUDE.md itself (``dp pave --agents-md --output CLAUDE.md``).
"""

from __future__ import annotations

from pathlib import Path

from dp.files import read_bytes, replace_file

IMPORT_LINE = "@AGENTS.md"
_SAME = {"@AGENTS.md", "@./AGENTS.md"}


def imports_agents_md(path: Path) -> bool:
    """Whether CLAUDE.md at ``path`` already has an ``@AGENTS.md`` line."""
    data = read_bytes(path)
    if data is None:
        return False
    return any(line.strip() in _SAME for line in data.decode("utf-8", "replace").splitlines())


def add_import(path: Path) -> str:
    """Add the import line to CLAUDE.md (created if missing): ``created``, ``added`` or ``present``.

    The line goes at the end, in the file's own line ending; nothing else changes.
    """
    original = read_bytes(path)
    if original is not None and imports_agents_md(path):
        return "present"
    text = b"" if original is None else original
    newline = b"\r\n" if b"\r\n" in text else b"\n"
    if text and not text.endswith((b"\n", b"\r")):
        text += newline
    if text.strip():
        text += newline  # a blank line before dp's import
    replace_file(path, text + IMPORT_LINE.encode() + newline, expected=original, backup=original is not None)
    return "created" if original is None else "added"


def remove_import(path: Path, created_file: bool = False) -> str:
    """Take dp's import line out again: ``removed``, ``deleted`` or ``not_installed``.

    The last ``@AGENTS.md`` line goes, with the blank line ``add_import`` put
    before it when it still stands there, so an untouched file comes back byte
    for byte; a CLAUDE.md dp created and nobody filled is deleted.
    """
    from dp.files import remove_file

    original = read_bytes(path)
    if original is None:
        return "not_installed"
    lines = original.decode("utf-8", "replace").splitlines(keepends=True)
    found = [index for index, line in enumerate(lines) if line.strip() in _SAME]
    if not found:
        return "not_installed"
    index = found[-1]
    start = index - 1 if index > 0 and not lines[index - 1].strip() and index == len(lines) - 1 else index
    kept = "".join(lines[:start] + lines[index + 1:])
    if created_file and not kept.strip():
        remove_file(path, expected=original)
        return "deleted"
    replace_file(path, kept.encode("utf-8"), expected=original, backup=True)
    return "removed"
