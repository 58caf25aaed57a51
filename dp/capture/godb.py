"""``dp ingest --desire-path-db``: the Go desire-path tool's ``desires.db``, so its users keep their history.

Its ``desires`` table (schema version 1 onwards; ``category`` from version 4)
holds one row per failed call with the input as JSON and an RFC 3339
timestamp. The file is opened read-only and never changed. Rows are keyed
``desire-path:<id>``, so a second import adds nothing; inputs are redacted
like every other capture (the Go tool stored them as they came).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from dp.capture.events import failure_row, in_transaction, insert_rows, now_iso
from dp.capture.timestamps import normalize
from dp.errors import DpError

SOURCE = "desire-path"
_BATCH = 2000


def open_go_db(path: Path) -> sqlite3.Connection:
    """The Go tool's database, read-only; a clear error for anything else."""
    if not path.is_file():
        raise DpError(f"{path}: no such file (the Go tool keeps it at ~/.dp/desires.db)")
    escaped = str(path.resolve()).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    try:
        conn = sqlite3.connect(f"file:{escaped}?mode=ro", uri=True, timeout=15)
        columns = {row[1] for row in conn.execute("PRAGMA table_info(desires)")}
    except sqlite3.Error as exc:
        raise DpError(f"{path} is not a readable SQLite database ({exc})") from None
    missing = {"id", "tool_name", "error", "timestamp"} - columns
    if missing:
        conn.close()
        raise DpError(f"{path} is not a desire-path database: no desires table with {', '.join(sorted(missing))}")
    return conn


def schema_version(conn: sqlite3.Connection) -> int | None:
    try:
        row = conn.execute("SELECT version FROM schema_version LIMIT 1").fetchone()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def ingest(conn, path: Path) -> dict:
    """Import every desire of the Go database at ``path``; ``{"read", "added", "schema_version"}``."""
    source = open_go_db(path)
    try:
        version = schema_version(source)
        read = added = 0
        cursor = source.execute(
            "SELECT id, tool_name, tool_input, error, session_id, cwd, timestamp FROM desires ORDER BY timestamp"
        )
        while True:
            batch = cursor.fetchmany(_BATCH)
            if not batch:
                break
            read += len(batch)
            rows = [_row(*values) for values in batch]
            added += in_transaction(conn, lambda: insert_rows(conn, rows))
    except sqlite3.Error as exc:
        raise DpError(f"cannot read {path}: {exc}") from None
    finally:
        source.close()
    return {"read": read, "added": added, "schema_version": version}


def _row(desire_id, tool_name, tool_input, error, session_id, cwd, timestamp) -> dict:
    try:
        parsed = json.loads(tool_input) if tool_input else {}
    except (TypeError, ValueError):
        parsed = {"input": str(tool_input)}
    if not isinstance(parsed, dict):
        parsed = {"input": parsed}
    return failure_row(SOURCE, str(tool_name or "?"), parsed, error, session_id, cwd, normalize(timestamp, now_iso()),
                       f"{SOURCE}:{desire_id}")
