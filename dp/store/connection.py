"""Opening an SQLite file and running a write transaction: the one way dp does both.

Stdlib only and tiny, because both per-tool-call hooks (pave-check reading
rules, dp-capture writing events) import it.

* Every connection is in autocommit mode (``isolation_level=None``): dp
  issues ``BEGIN IMMEDIATE`` itself, so a transaction holds the write lock
  from its first statement and concurrent writers queue on SQLite's busy
  timeout instead of failing halfway.
* The busy timeout is set both on the connection and as ``PRAGMA
  busy_timeout`` so it holds for every statement.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager


def connect(target, busy_ms: int, uri: bool = False) -> sqlite3.Connection:
    """A connection to ``target`` (a path, or a ``file:`` URI with ``uri``) that waits ``busy_ms`` on a lock."""
    conn = sqlite3.connect(target, uri=uri, timeout=busy_ms / 1000, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {busy_ms}")
    return conn


def readonly_uri(path) -> str:
    """``file:PATH?mode=ro`` with what a SQLite URI filename reserves escaped
    (``urllib.parse`` would cost the hook ~2 ms to import)."""
    return "file:" + str(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23") + "?mode=ro"


@contextmanager
def transaction(conn: sqlite3.Connection):
    """An immediate (write-locked) transaction: ``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any error.

    (contextlib is loaded by Python's own startup, so this costs the hooks nothing.)
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def connect_for_writes(path, busy_ms: int) -> sqlite3.Connection:
    """``connect`` for a writer: ``synchronous = NORMAL``, with which, in WAL mode, a commit
    survives a crash of the process without an fsync per transaction."""
    conn = connect(path, busy_ms)
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn
