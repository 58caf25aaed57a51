"""dp's top-level help page, kept so that ``dp --help`` answers without importing typer.

Importing typer (and the click it vendors) costs about three times a bare
Python start, and ``dp``, ``dp -h`` and ``dp --help`` are what a newcomer
runs first. The page changes only when dp's code, typer or the terminal's
width changes, so the first run renders it with typer and keeps it in dp's
cache directory, stamped with all three; a later run with the same stamp
prints it as it is. Stdlib only: this runs before typer is imported.
"""

from __future__ import annotations

import os

ROOT_HELP_ARGS: tuple[list[str], ...] = ([], ["-h"], ["--help"])
# Set by a shell asking for completions: then a bare ``dp`` is not a request for help.
COMPLETION_VARIABLE = "_DP_COMPLETE"
_PREFIX = "help"


def applies(args: list[str]) -> bool:
    """Whether ``dp ARGS`` asks for the top-level help page."""
    return args in ROOT_HELP_ARGS and COMPLETION_VARIABLE not in os.environ


def read() -> str | None:
    """The page kept for this dp, typer and terminal width, or None."""
    from dp.cachedir import read_stamped

    page = read_stamped(_PREFIX, _stamp())
    return page if isinstance(page, str) else None


def keep(page: str) -> None:
    from dp.cachedir import write_stamped

    write_stamped(_PREFIX, _stamp(), page)


def _stamp() -> str:
    import shutil

    from dp.cli.code_stamp import code_stamp

    return code_stamp(f"columns={shutil.get_terminal_size().columns}")
