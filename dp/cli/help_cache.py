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
import sys

ROOT_HELP_ARGS = ([], ["-h"], ["--help"])
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

    import dp

    parts = [dp.__version__, sys.version, f"columns={shutil.get_terminal_size().columns}"]
    parts += _file_stamps(os.path.dirname(dp.__file__))
    parts += _file_stamps(_package_dir("typer"))
    return "\n".join(parts)


def _file_stamps(folder: str | None) -> list[str]:
    """``path size mtime`` of every Python file below ``folder`` (any edit changes the stamp)."""
    stamps = []
    pending = [folder] if folder else []
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                    pending.append(entry.path)
                elif entry.name.endswith(".py"):
                    info = entry.stat()
                    stamps.append(f"{entry.path} {info.st_size} {info.st_mtime_ns}")
    return sorted(stamps)


def _package_dir(name: str) -> str | None:
    """Where package ``name`` would be imported from (the first match on ``sys.path``)."""
    for entry in sys.path:
        folder = os.path.join(entry or ".", name)
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            return folder
    return None
