"""Small pieces shared by the command modules: output to stdout and stderr."""

from __future__ import annotations

import json
import sys
from typing import Any

from dp.terminal import printable

_quiet = False
# Recipe scripts: far above any real one, far below what hurts.
MAX_ARGUMENT_FILE_BYTES = 4 * 1024 * 1024
# Collections: a 100,000-rule export is about 10 MB; a 50 MB file is refused unread.
MAX_COLLECTION_BYTES = 32 * 1024 * 1024


def set_quiet(quiet: bool) -> None:
    """--quiet: from now on, :func:`note` and :func:`status` print nothing."""
    global _quiet
    _quiet = quiet


def is_quiet() -> bool:
    return _quiet


def print_json(value: Any) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def read_text_argument(source: str, what: str, limit: int = MAX_ARGUMENT_FILE_BYTES) -> str:
    """The text of a FILE argument, ``-`` meaning stdin; a clear error if unreadable.

    Bounded (a collection is refused past ``limit`` bytes before it is read
    whole) and never blocking: a FIFO or device named as FILE is an error.
    """
    from dp.errors import DpError
    from dp.files import read_regular

    try:
        if source == "-":
            data = sys.stdin.buffer.read(limit + 1)
            if len(data) > limit:
                raise DpError(f"{what} on stdin is over {limit} bytes; dp reads at most {limit} bytes")
        else:
            data = read_regular(source, limit, what=what)
        return data.decode("utf-8")
    except FileNotFoundError:
        raise DpError(f"cannot read {what} {source}: it does not exist") from None
    except UnicodeDecodeError as exc:
        raise DpError(f"{what} {source} is not UTF-8 text (byte {exc.start})") from None


def note(message: str) -> None:
    """A human-facing message that is not the command's output (stderr; silent with --quiet)."""
    if not _quiet:
        print(printable(message), file=sys.stderr)


def status(message: str) -> None:
    """A command's confirmation line, e.g. ``Rule set: …`` (stdout; silent with --quiet)."""
    if not _quiet:
        print(printable(message))


def warning(message: str) -> None:
    """``dp: warning: …`` on stderr, shown even with --quiet."""
    print(f"dp: warning: {printable(message)}", file=sys.stderr)
