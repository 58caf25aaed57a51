"""Small pieces shared by the command modules: output to stdout and stderr, and its colour.

Colour is decided here only (``paint``): on a terminal, and never with ``NO_COLOR`` set (no-color.org),
``TERM=dumb``, output into a pipe or a file, or ``--json``. It is added after ``printable`` has taken
every control character out of the text, so dp's own escape sequences are the only ones printed.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from dp.terminal import printable

_quiet = False
_json = False
# SGR codes: what each colour means in dp's output (errors, warnings, what worked).
COLOURS = {"error": "1;31", "warning": "33", "ok": "32", "strong": "1"}
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


def set_json(value: bool) -> None:
    """--json: from now on, nothing is coloured (the output is for programs)."""
    global _json
    _json = value


def colour_on(stream=None) -> bool:
    """Whether text for ``stream`` (stdout by default) may be coloured: a terminal, and no one said no."""
    if _json or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return (stream or sys.stdout).isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def paint(text: str, colour: str, stream=None) -> str:
    """``text`` in ``colour`` (a key of ``COLOURS``) where ``colour_on(stream)``, else as it is."""
    return f"\x1b[{COLOURS[colour]}m{text}\x1b[0m" if colour_on(stream) else text


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
    print(f"{paint('dp: warning:', 'warning', sys.stderr)} {printable(message)}", file=sys.stderr)


def plugin_of(agent):
    """The agent's ``plugin`` role (Claude Code's plugin), or None: looked up here, above dp.install, which the
    plugin builds on, and handed to dp.install's steps (``dp.install.init.init``, ``dp.install.hook.change``)."""
    return agent.role("plugin")
