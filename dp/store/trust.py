"""Trust records for project rule files: which content of which file this user allowed to act.

A committed ``.dp/rules.toml`` can rewrite every command an agent runs, so it
acts only after its reader said so (``dp trust``, like ``direnv allow``).
The record — the file's real path and the SHA-256 of the exact bytes trusted
— lives in the user's store, never in the repository: a clone carries rules
but never permission for them, and any change to the file (a pull, an edit)
makes it inert again until re-trusted.

``trusted_hash`` is the hook's read (one primary-key lookup on the read-only
connection; a store older than the table trusts nothing). The writes go
through ``Store`` transactions like every other change.
"""

from __future__ import annotations

import sqlite3

TABLE = "project_trust"


def trusted_hash(conn, path: str) -> str | None:
    """The SHA-256 recorded for the file ``path`` (its real path), or None when it was never trusted."""
    if conn is None:
        return None
    try:
        row = conn.execute(f"SELECT sha256 FROM {TABLE} WHERE path = ?", (path,)).fetchone()
    except sqlite3.OperationalError:  # a store from before trust records
        return None
    return row[0] if row else None


def all_trusted(conn) -> list[tuple[str, str]]:
    """Every ``(path, sha256)`` trusted, oldest first ([] for a store without the table)."""
    if conn is None:
        return []
    try:
        return [tuple(row) for row in conn.execute(f"SELECT path, sha256 FROM {TABLE} ORDER BY rowid")]
    except sqlite3.OperationalError:
        return []


def record(store, path: str, sha256: str) -> None:
    """Trust exactly this content of ``path`` (replacing an earlier record)."""
    from dp.store.write import utc_now

    with store.transaction():
        store.conn.execute(
            f"INSERT OR REPLACE INTO {TABLE} (path, sha256, trusted_at) VALUES (?, ?, ?)", (path, sha256, utc_now())
        )


def forget(store, path: str) -> bool:
    """Drop the record for ``path``; whether there was one."""
    with store.transaction():
        return store.conn.execute(f"DELETE FROM {TABLE} WHERE path = ?", (path,)).rowcount > 0
