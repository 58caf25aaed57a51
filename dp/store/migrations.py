"""Numbered SQL migrations, applied in order, recorded in ``PRAGMA user_version``.

Files are named ``NNNN_description.sql``; file NNNN brings the schema to
version NNNN. They live at the top of the repository as ``migrations/`` and are
read as ``dp/migrations`` everywhere: in a checkout that is a link to them, and the
wheel holds the files under that name.
"""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

from dp.store.connection import transaction

_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")
_ADD_COLUMN = re.compile(r"^\s*ALTER\s+TABLE\s+(\w+)\s+ADD\s+(?:COLUMN\s+)?(\w+)", re.IGNORECASE | re.MULTILINE)


def migrations_dir() -> Path:
    """``dp/migrations``: in a wheel the files themselves, in a checkout (editable or not) the link
    to the top-level ``migrations/`` the wheel was built from (pyproject.toml)."""
    directory = Path(__file__).resolve().parent.parent / "migrations"
    if not directory.is_dir():
        raise FileNotFoundError(f"dp's migrations are missing (looked for {directory}); reinstall dp")
    return directory


def load_migrations(directory: Path | None = None) -> list[tuple[int, str, str]]:
    """``(version, filename, sql)`` for every migration file, by version."""
    found = []
    for path in (directory or migrations_dir()).iterdir():
        match = _NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path.name, path.read_text(encoding="utf-8")))
    found.sort()
    versions = [version for version, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise ValueError(f"migration numbers must run 1..N without gaps, found {versions}")
    return found


def split_statements(sql: str) -> list[str]:
    """Split a script into statements (``executescript`` would commit our transaction)."""
    statements, current = [], ""
    for line in sql.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip() and not _only_comments(current):
        raise ValueError(f"incomplete SQL statement at the end of a migration: {current.strip()[:60]!r}")
    return statements


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in text.splitlines())


def migrate(conn: sqlite3.Connection, migrations=None) -> int:
    """Bring the database to the latest version; returns the version reached.

    Runs inside ``BEGIN IMMEDIATE`` so that concurrent first opens serialise:
    the second process waits on the write lock (busy timeout), then finds the
    version already current and does nothing.
    """
    migrations = load_migrations() if migrations is None else migrations
    latest = len(migrations)
    if conn.execute("PRAGMA user_version").fetchone()[0] >= latest:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    with transaction(conn):
        current = conn.execute("PRAGMA user_version").fetchone()[0]
        for version, _, sql in migrations:
            if version > current:
                for statement in split_statements(sql):
                    if not _column_there(conn, statement):
                        conn.execute(statement)
        if latest > current:
            conn.execute(f"PRAGMA user_version = {latest}")
    return max(current, latest)


def _column_there(conn: sqlite3.Connection, statement: str) -> bool:
    """Whether ``statement`` adds a column its table already has. SQLite has no ``ADD COLUMN IF NOT
    EXISTS``, and a store whose recorded version is older than its tables (a version put back by
    hand, a copy restored over a newer one) must still open: every other statement in the
    migrations is written to run again harmlessly (``IF NOT EXISTS``), and this makes the added
    columns so too."""
    match = _ADD_COLUMN.search(statement)
    if match is None:
        return False
    table, column = match.groups()
    return any(row[1] == column for row in conn.execute(f"PRAGMA table_info({table})"))


def enable_wal(conn: sqlite3.Connection, attempts: int = 50) -> None:
    """Switch to WAL; a concurrent first open may hold the lock, so retry briefly."""
    for attempt in range(attempts):
        try:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        except sqlite3.OperationalError:
            mode = None
        if mode == "wal":
            return
        time.sleep(0.02 * (attempt + 1))
    raise sqlite3.OperationalError("could not switch the store to WAL journal mode (database locked)")
