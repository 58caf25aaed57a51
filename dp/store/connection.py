"""Opening an SQLite file and running a write transaction: the one way dp does both.

Stdlib only and tiny, because both per-tool-call hooks (pave-check reading
rules, dp-capture writing events) import it.

* Every connection is in autocommit mode (``isolation_level=None``): dp
  issues ``BEGIN IMMEDIATE`` itself, so a transaction holds the write lock
  from its first statement and concurrent writers queue on SQLite's busy
  timeout instead of failing halfway.
* The busy timeout is ``sqlite3.connect``'s ``timeout``, which is SQLite's own
  (``sqlite3_busy_timeout``, what ``PRAGMA busy_timeout`` sets), so it holds
  for every statement without a statement of its own.

The hook's store modules (``connection``, ``read``, ``trust``) take ``sqlite3``
from here: the C module, ``_sqlite3``, whose connections, rows and errors are
the very classes ``sqlite3`` re-exports. ``sqlite3``'s own Python layer
(``dbapi2``) imports ``datetime`` and ``collections.abc`` for date adapters dp
never uses: about 1.5 ms of every hook run, a twentieth of it.
"""

try:
    import _sqlite3 as sqlite3
except ImportError:  # a Python whose sqlite3 is laid out otherwise
    import sqlite3  # type: ignore[no-redef]


def connect(target, busy_ms: int, uri: bool = False) -> sqlite3.Connection:
    """A connection to ``target`` (a path, or a ``file:`` URI with ``uri``) that waits ``busy_ms`` on a lock."""
    return sqlite3.connect(target, uri=uri, timeout=busy_ms / 1000, isolation_level=None)


def readonly_uri(path) -> str:
    """``file:PATH?mode=ro`` with what a SQLite URI filename reserves escaped
    (``urllib.parse`` would cost the hook ~2 ms to import)."""
    return "file:" + str(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23") + "?mode=ro"


class transaction:  # noqa: N801 (used as a function: ``with transaction(conn):``)
    """An immediate (write-locked) transaction: ``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any error.

    A class rather than ``contextlib.contextmanager``: the hook imports this module, and an
    isolated (``-I``) Python start has not loaded contextlib.
    """

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, error, traceback) -> None:
        if kind is None:
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error:
                self._rollback()
                raise
            return
        self._rollback()

    def _rollback(self) -> None:
        """Undo what is left of the transaction. SQLite may already have rolled it back itself
        (a full disk, an I/O error): then there is nothing to undo, and the error that ended it —
        not "cannot rollback" — is the one that propagates."""
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass


# SQLite's primary result codes for a write the file system refused (disk full, RLIMIT_FSIZE, EIO).
SQLITE_IOERR, SQLITE_FULL = 10, 13


def write_refused(error: BaseException) -> bool:
    """Whether ``error`` is SQLite saying it could not write its files (not a bug, not a lock)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (SQLITE_IOERR, SQLITE_FULL)
    text = str(error)
    return "disk I/O error" in text or "database or disk is full" in text


def connect_for_writes(path, busy_ms: int) -> sqlite3.Connection:
    """``connect`` for a writer: ``synchronous = NORMAL``, with which, in WAL mode, a commit
    survives a crash of the process without an fsync per transaction."""
    conn = connect(path, busy_ms)
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn
