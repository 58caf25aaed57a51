"""Trust records: which repository this user trusts, and which content of its files.

A committed ``.dp/rules.toml`` can rewrite every command an agent runs, and a
committed agent plugin runs in every session, so they act only after their
reader said so (``dp trust``, like ``direnv allow``). A record belongs to one
repository — its real root directory *and* what the repository is there
(``identity``, ``dp.gitdir``: its first commit, or its HEAD before any commit),
so a repository deleted and replaced by another at the same path leaves its
trust to nobody — and says what it trusts (``kind``): the repository itself
(``path`` is ``REPOSITORY``: project paving may use the project's own
environment, dp.paving), the exact bytes (SHA-256) of one of its layer files,
by the file's real path, or a plugin it commits (``path`` its real directory,
``sha256`` of all its files, dp.layers.pins). The records live in the user's
store, never in the repository: a clone carries rules but never permission for
them, any change to a file (a pull, an edit) makes it inert again until
re-trusted, and trust given in one repository is never borrowed by another (a
link to a trusted file, or a copy of it, is a file of a repository nobody
trusted).

``records`` is the hook's read: one indexed query per repository on the
read-only connection, kept in ``dp.store.read`` with the hook's other reads
(a module of its own cost the hook more than the query). A store not yet
migrated (the hook never migrates) is read the way its migrations will move
its records; a store older than trust records trusts nothing. The writes go
through ``Store`` transactions like every other change.
"""

import os

from dp.store.connection import sqlite3  # the C module (dp.store.connection)
from dp.store.read import _LEGACY_TRUST_FILES as _LEGACY_FILES
from dp.store.read import REPOSITORY  # noqa: F401 (re-exported)
from dp.store.read import TRUST_TABLE as TABLE
from dp.store.read import trust_records as records

# What a record trusts (its ``kind``, migrations/0010_trust_by_identity.sql).
REPOSITORY_KIND, FILE, PLUGIN = "repository", "file", "plugin"
# The identity of a record whose repository was gone when it was bound: it matches nothing.
NOWHERE = "none:"
# ``trusted_at``: UTC to the second, the format of every dp timestamp (dp.store.write.utc_now).
_NOW = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"


def repository_trusted(conn, root: str) -> bool:
    """Has this user trusted the repository whose real root is ``root`` (``dp trust`` there)?"""
    return REPOSITORY in records(conn, root)


def trusted_files(conn) -> list[tuple[str, str, str]]:
    """Every ``(root, path, sha256)`` of a layer file trusted, oldest first ([] for a store without
    the table): what the hook filters and the gate are kept in line with."""
    if conn is None:
        return []
    for query in (f"SELECT root, path, sha256 FROM {TABLE} WHERE kind = '{FILE}' ORDER BY rowid",
                  f"SELECT root, path, sha256 FROM {TABLE} WHERE path != '' ORDER BY rowid"):  # before 0010
        try:
            return [tuple(row) for row in conn.execute(query)]
        except sqlite3.OperationalError:
            continue
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


def record(store, root: str, entries) -> None:
    """Trust ``entries`` — ``(kind, path, sha256)`` — in the repository whose real root is ``root``,
    as the repository there is now (``dp.gitdir.identity``), each replacing an earlier record of
    its path; the records of another repository once at ``root`` go. DpError when the
    repository's git directory cannot be read (nothing is trusted)."""
    from dp.errors import DpError
    from dp.gitdir import identity

    now = identity(root)
    if now is None:
        raise DpError(f"cannot read the git directory of {root} (.git), so dp cannot tell this repository from "
                      "another made at its path later; nothing was trusted")
    with store.transaction(rules=True):
        store.conn.execute(f"DELETE FROM {TABLE} WHERE root = ? AND identity IS NOT ?", (root, now))
        store.conn.executemany(f"INSERT OR REPLACE INTO {TABLE} (root, path, sha256, trusted_at, identity, kind) "
                               f"VALUES (?, ?, ?, {_NOW}, ?, ?)",
                               [(root, path, sha256, now, kind) for kind, path, sha256 in entries])


def recorded_hashes(conn) -> set[str]:
    """Every SHA-256 a trust record names (the copies ``dp.layers.since`` keeps are named by them)."""
    return {row[0] for row in conn.execute(f"SELECT DISTINCT sha256 FROM {TABLE}")}


def forget(store, root: str) -> list[tuple[str, str]]:
    """Drop every record of the repository ``root``; the ``(kind, path)`` that had one."""
    with store.transaction(rules=True):
        rows = [tuple(row) for row in store.conn.execute(
            f"SELECT kind, path FROM {TABLE} WHERE root = ? ORDER BY rowid", (root,))]
        store.conn.execute(f"DELETE FROM {TABLE} WHERE root = ?", (root,))
    return rows


def bind(conn) -> None:
    """Bind the records no first commit holds yet to the repository at their root: those made
    before migration 0010 (identity NULL: to the repository found there now, or to nothing when
    none is), and those made before the repository's first commit, once it has one and is
    still the repository they were made in.

    ``Store.open`` runs it, so the first dp command that opens the store for writing after an
    upgrade (every command migrates an older store) or after a trusted new repository's first
    commit (``dp alias``, ``dp trust`` …) does it. Meanwhile the hook, which never writes, reads
    a record from before 0010 by its path alone, and one from before the first commit by the
    HEAD it names (``dp.store.read.trust_records``).
    """
    from dp.gitdir import COMMIT, HEAD, has_commits, identity, matches
    from dp.store.connection import transaction

    rows = conn.execute(f"SELECT DISTINCT root, identity FROM {TABLE} WHERE identity IS NULL OR identity LIKE ?",
                        (f"{HEAD}:%",)).fetchall()
    changes = []
    for root, recorded in rows:
        if recorded is None:
            changes.append((identity(root) or NOWHERE, root, recorded))
        elif has_commits(root) and matches(root, recorded):
            now = identity(root)
            if now is not None and now.startswith(f"{COMMIT}:"):
                changes.append((now, root, recorded))
    if changes:
        with transaction(conn):
            conn.executemany(f"UPDATE {TABLE} SET identity = ? WHERE root = ? AND identity IS ?", changes)
