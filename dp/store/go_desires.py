"""The Go desire-path tool's ``desires.db``: the one foreign SQLite file dp reads, never writes.

Its ``desires`` table (schema version 1 onwards; ``category`` from version 4)
holds one row per failed call. Opened read-only; ``dp.capture.godb`` turns
its rows into dp's own.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dp.errors import DpError
from dp.store.connection import connect, readonly_uri

BUSY_MS = 15000
NEEDED = {"id", "tool_name", "error", "timestamp"}


def open_go_db(path: Path) -> sqlite3.Connection:
    """The Go tool's database, read-only; a clear error for anything else."""
    if not path.is_file():
        raise DpError(f"{path}: no such file (the Go tool keeps it at ~/.dp/desires.db)")
    try:
        conn = connect(readonly_uri(path.resolve()), BUSY_MS, uri=True)
        columns = {row[1] for row in conn.execute("PRAGMA table_info(desires)")}
    except sqlite3.Error as exc:
        raise DpError(f"{path} is not a readable SQLite database ({exc})") from None
    missing = NEEDED - columns
    if missing:
        conn.close()
        raise DpError(f"{path} is not a desire-path database: no desires table with {', '.join(sorted(missing))}")
    return conn


def schema_version(conn: sqlite3.Connection) -> int | None:
    """The Go tool's own schema version, None when it kept none."""
    try:
        row = conn.execute("SELECT version FROM schema_version LIMIT 1").fetchone()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def desire_batches(conn: sqlite3.Connection, size: int):
    """Lists of at most ``size`` rows (id, tool_name, tool_input, error, session_id, cwd, timestamp), oldest first."""
    cursor = conn.execute(
        "SELECT id, tool_name, tool_input, error, session_id, cwd, timestamp FROM desires ORDER BY timestamp"
    )
    while True:
        batch = cursor.fetchmany(size)
        if not batch:
            return
        yield batch
