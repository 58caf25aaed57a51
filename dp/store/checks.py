"""Whether a store's path can work, said before anything is written: its directory exists (or is
``~/.dp``, made now), is a directory, the store is a regular file (or a link to one), and SQLite may
write the file and its journal beside it. Each refusal is one line saying what to fix."""

from __future__ import annotations

import os
from pathlib import Path

from dp.errors import DpError
from dp.files import resolve


def check_location(path: Path, create: bool, write: bool = True) -> None:
    """A clear DpError for a store path that cannot work; creates ``~/.dp`` when ``create``."""
    parent = path.parent
    if not parent.exists():
        if not create:
            raise DpError(
                f"the directory {parent} does not exist; create it (mkdir -p {parent}) "
                "or fix --db / DP_DB (nothing was created)"
            )
        if write:
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DpError(f"cannot create {parent} for the alias store: {exc.strerror or exc}") from None
        return
    if not parent.is_dir():
        raise DpError(f"{parent} is not a directory; fix --db / DP_DB")
    if os.path.lexists(path):
        try:
            resolve(path)  # a regular file, or a link to one
        except DpError as exc:
            raise DpError(f"the alias store {exc.message}; fix --db / DP_DB") from None
    if write and not writable(path):
        raise DpError(read_only_message(path))


def writable(path: Path) -> bool:
    """SQLite needs to write the file and, for its journal, the directory."""
    if path.exists() and not os.access(path, os.W_OK):
        return False
    return os.access(path.parent, os.W_OK)


def read_only_message(path: Path) -> str:
    return (
        f"the alias store {path} is read-only (file, directory or file system); "
        "nothing was changed. Rules still apply; to change them make it writable or use --db"
    )
