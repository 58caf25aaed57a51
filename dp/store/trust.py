"""Trust records: which repository this user trusts, and which content of its rule files.

A committed ``.dp/rules.toml`` can rewrite every command an agent runs, so it
acts only after its reader said so (``dp trust``, like ``direnv allow``).
A record belongs to one repository — its real root directory — and says
either that the repository itself is trusted (``path`` is ``REPOSITORY``:
project paving may use the project's own environment, dp.paving) or which
exact bytes (SHA-256) of one of its layer files, by the file's real path, may
act there. The records live in the user's store, never in the repository: a
clone carries rules but never permission for them, any change to a file (a
pull, an edit) makes it inert again until re-trusted, and trust given in one
repository is never borrowed by another (a link to a trusted file, or a copy
of it, is a file of a repository nobody trusted).

``records`` is the hook's read: one indexed query per repository on the
read-only connection, kept in ``dp.store.read`` with the hook's other reads
(a module of its own cost the hook more than the query). A store not yet
migrated to 0006 (the hook never migrates) is read the way 0006 moves its
records; a store older than trust records trusts nothing. The writes go through ``Store`` transactions like
every other change.
"""

import os

from dp.store.connection import sqlite3  # the C module (dp.store.connection)
from dp.store.read import _LEGACY_TRUST_FILES as _LEGACY_FILES
from dp.store.read import REPOSITORY  # noqa: F401 (re-exported)
from dp.store.read import TRUST_TABLE as TABLE
from dp.store.read import trust_records as records


def repository_trusted(conn, root: str) -> bool:
    """Has this user trusted the repository whose real root is ``root`` (``dp trust`` there)?"""
    return REPOSITORY in records(conn, root)


def all_trusted(conn) -> list[tuple[str, str, str]]:
    """Every ``(root, path, sha256)`` trusted, oldest first ([] for a store without the table)."""
    if conn is None:
        return []
    try:
        return [tuple(row) for row in conn.execute(f"SELECT root, path, sha256 FROM {TABLE} ORDER BY rowid")]
    except sqlite3.OperationalError:
        pass
    try:
        rows = conn.execute(f"SELECT path, sha256 FROM {TABLE} ORDER BY rowid").fetchall()
    except sqlite3.OperationalError:
        return []
    found = []
    for path, sha256 in rows:
        root = os.path.dirname(os.path.dirname(path))
        if path in (os.path.join(root, name) for name in _LEGACY_FILES):
            found.append((root, path, sha256))
    return found


def record(store, root: str, path: str, sha256: str) -> None:
    """Trust exactly this content of ``path`` in the repository ``root`` (``path`` ``REPOSITORY``
    and ``sha256`` '' trust the repository itself), replacing an earlier record."""
    from dp.store.write import utc_now

    with store.transaction(rules=True):
        store.conn.execute(
            f"INSERT OR REPLACE INTO {TABLE} (root, path, sha256, trusted_at) VALUES (?, ?, ?, ?)",
            (root, path, sha256, utc_now()),
        )


def forget(store, root: str) -> list[str]:
    """Drop every record of the repository ``root``; the paths that had one (``REPOSITORY`` included)."""
    with store.transaction(rules=True):
        paths = [row[0] for row in store.conn.execute(f"SELECT path FROM {TABLE} WHERE root = ? ORDER BY rowid",
                                                      (root,))]
        store.conn.execute(f"DELETE FROM {TABLE} WHERE root = ?", (root,))
    return paths
