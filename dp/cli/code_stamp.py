"""What a page or a parse that typer produced depends on: dp's code, typer's code, Python.

The command line keeps two things typer worked out so that later runs need
not import it (about twice a bare Python start): the help page
(``dp.cli.help_cache``) and how a command line was parsed
(``dp.cli.remembered``). Both stay valid exactly as long as the code that
produced them is unchanged, so both are stamped with this. Stdlib only: it
runs before typer is imported.
"""

from __future__ import annotations

import os
import sys


def code_stamp(*extra: str) -> str:
    """dp's version and files, typer's files, the Python version, and ``extra``, as one text."""
    import dp

    parts = [dp.__version__, sys.version, *extra]
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
