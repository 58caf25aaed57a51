"""Small pieces shared by the command modules: output to stdout and stderr."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

_quiet = False


def set_quiet(quiet: bool) -> None:
    """--quiet: from now on, :func:`note` and :func:`status` print nothing."""
    global _quiet
    _quiet = quiet


def print_json(value: Any) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def read_text_argument(source: str, what: str) -> str:
    """The text of a FILE argument, ``-`` meaning stdin; a clear error if unreadable."""
    from dp.errors import DpError

    try:
        if source == "-":
            return sys.stdin.read()
        return Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DpError(f"cannot read {what} {source}: {exc}") from None


def note(message: str) -> None:
    """A human-facing message that is not the command's output (stderr; silent with --quiet)."""
    if not _quiet:
        print(message, file=sys.stderr)


def status(message: str) -> None:
    """A command's confirmation line, e.g. ``Rule set: …`` (stdout; silent with --quiet)."""
    if not _quiet:
        print(message)


def warning(message: str) -> None:
    """``dp: warning: …`` on stderr, shown even with --quiet."""
    print(f"dp: warning: {message}", file=sys.stderr)
