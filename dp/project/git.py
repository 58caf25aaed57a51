"""Guarded ``git add`` and ``git commit`` inside the working directory.

``git add`` gets every path resolved and confined to the working directory
first, in one ``git add --`` batch with literal pathspecs (so ``:/`` magic or
globs cannot reach past the directory either). ``git commit`` gets its message
on stdin (``--file=-``), never on the command line, bounded in size and
otherwise passed through untouched.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import BinaryIO

from dp.errors import DpError
from dp.files import read_regular
from dp.project.command import Command
from dp.project.workdir import confine

DEFAULT_MAX_COMMIT_SIZE = 16 * 1024
MAX_COMMIT_SIZE_ENV = "DP_MAX_COMMIT_SIZE"


def add_command(root: Path, paths: Iterable[str]) -> Command:
    """``git --literal-pathspecs add -- PATH…`` for paths confined to ``root``."""
    confined = list(dict.fromkeys(confine(root, raw) for raw in paths))
    if not confined:
        raise DpError("name at least one path to add, e.g. `dp git add src/app.py`")
    return Command(["git", "--literal-pathspecs", "add", "--", *confined], root)


def commit_command(root: Path, message: bytes) -> Command:
    """``git commit --file=-`` with ``message`` on stdin, run in ``root``."""
    return Command(["git", "commit", "--file=-"], root, stdin=message)


def max_commit_size(environ: Mapping[str, str] | None = None) -> int:
    """The commit message limit in bytes: 16 KB unless DP_MAX_COMMIT_SIZE says otherwise."""
    raw = (os.environ if environ is None else environ).get(MAX_COMMIT_SIZE_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_COMMIT_SIZE
    if not raw.isdigit() or int(raw) == 0:
        raise DpError(f"{MAX_COMMIT_SIZE_ENV} must be a positive number of bytes (got {raw!r})")
    return int(raw)


def read_message(
    root: Path,
    *,
    message: str | None,
    file: str | None,
    stdin: BinaryIO,
    limit: int,
) -> bytes:
    """The commit message from ``-m MSG``, ``-F FILE`` (inside ``root``) or ``-F -`` (stdin).

    Streams are read only up to the limit, so an oversized file or pipe is
    refused without being loaded whole.
    """
    if (message is None) == (file is None):
        raise DpError("give the commit message with exactly one of -m MSG, -F FILE or -F -")
    if message is not None:
        data = os.fsencode(message)
        source = "the -m message"
    elif file == "-":
        data = stdin.read(limit + 1)
        source = "the message on stdin"
    else:
        assert file is not None  # exactly one of the two was given (checked above)
        path = root / confine(root, file)
        try:
            data = read_regular(path, limit + 1, what="commit message file", whole=False)
        except FileNotFoundError:
            raise DpError(f"cannot read commit message file {file}: it does not exist") from None
        source = f"commit message file {file}"
    if len(data) > limit:
        raise DpError(
            f"{source} is over the {limit}-byte limit; shorten it, "
            f"or raise the limit with {MAX_COMMIT_SIZE_ENV}=BYTES"
        )
    return data


def failure_hint(root: Path, output: str, option: str = "--cwd") -> str:
    """What to try when git failed in ``root`` (its own message is shown as is).

    ``option`` is how the caller names the directory (the MCP tool's parameter
    is ``working_directory``).
    """
    if "not a git repository" in output.lower():
        return (
            f"hint: {root} is not inside a git repository; run `git init` there, "
            f"or pass {option} with the repository you meant"
        )
    return (
        f"hint: git failed in {root}; if that is not the repository you meant, pass {option} "
        "with another directory (or run `git init` to start one there)"
    )
