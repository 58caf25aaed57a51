"""The values of dp's shared options (``--db``, ``--cwd``, ``--json``, ``--quiet``) for one run.

Kept apart from their typer definitions (``dp.cli.options``) because a
command line run again from ``dp.cli.remembered`` builds them without
importing typer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional


@dataclass(frozen=True)
class Shared:
    """The shared options of one invocation."""

    db: Optional[Path] = None
    cwd: Optional[Path] = None
    json: bool = False
    quiet: bool = False

    @property
    def store(self) -> Path:
        """The store chosen by --db, then $DP_DB, then the default."""
        from dp.store import resolve_db_path

        return resolve_db_path(self.db)

    @property
    def directory(self) -> Path:
        """The directory to act in (--cwd, else the current directory), as given."""
        return self.cwd if self.cwd is not None else Path.cwd()

    def plain(self) -> tuple:
        """The values as plain data (paths as text), for ``from_plain``."""
        return (None if self.db is None else str(self.db), None if self.cwd is None else str(self.cwd),
                self.json, self.quiet)

    @classmethod
    def from_plain(cls, values: tuple) -> "Shared":
        db, cwd, json, quiet = values
        return cls(None if db is None else Path(db), None if cwd is None else Path(cwd), json, quiet)
