"""The values of dp's shared options (``--db``, ``--cwd``, ``--json``, ``--quiet``) for one run.

Kept apart from their typer definitions (``dp.cli.options``) because a
command line run again from ``dp.cli.remembered`` builds them without
importing typer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Shared:
    """The shared options of one invocation."""

    db: Path | None = None
    cwd: Path | None = None
    json: bool = False
    quiet: bool = False

    @property
    def store(self) -> Path:
        """The store chosen by --db, then $DP_DB, then the default."""
        from dp.store import resolve_db_path

        return resolve_db_path(self.db)

    @property
    def directory(self) -> Path:
        """The directory to act in: the current one, which --cwd has made DIR (see ``enter``)."""
        return Path.cwd()

    def plain(self) -> tuple:
        """The values as plain data (paths as text), for ``from_plain``."""
        return (None if self.db is None else str(self.db), None if self.cwd is None else str(self.cwd),
                self.json, self.quiet)

    def enter(self, start: str) -> None:
        """Act as if dp was started in --cwd DIR, as ``git -C`` and ``make -C`` do.

        The process changes into DIR (relative to ``start``, the directory dp was started in), so
        the project root is found from there and every relative path given on the command line means
        a path in DIR. One place for every command, the typer parse and a remembered one alike;
        ``cwd`` itself stays as typed, because a remembered parse is rerun from other directories.
        """
        import os

        if self.cwd is not None:
            directory = existing_directory(Path(start, self.cwd), shown=self.cwd)
            try:
                os.chdir(directory)
            except OSError as exc:
                from dp.errors import DpError

                raise DpError(f"--cwd {self.cwd}: cannot enter it ({exc.strerror})", exit_code=2) from None

    @classmethod
    def from_plain(cls, values: tuple) -> Shared:
        db, cwd, json, quiet = values
        return cls(None if db is None else Path(db), None if cwd is None else Path(cwd), json, quiet)


def existing_directory(path: Path, option: str = "--cwd", shown=None) -> Path:
    """``path`` resolved, when it is a directory; else the usage error every directory option gives
    (naming the directory as typed, ``shown``, when ``path`` is it read from elsewhere)."""
    from dp.errors import DpError

    if not path.is_dir():
        raise DpError(f"{option} {path if shown is None else shown}: not a directory", exit_code=2)
    return path.resolve()
