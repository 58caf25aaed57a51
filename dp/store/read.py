"""The hook's read path: stdlib only, no file creation, no migrations.

Every connection sets its busy timeout explicitly; the database is in WAL
mode (set by the writer), so readers see only committed rules and never
block the writer.
"""

from dp.rules import FIELDS
from dp.store.connection import connect, readonly_uri, sqlite3  # the C module (dp.store.connection)
from dp.store.location import DEFAULT_DB, db_location  # noqa: F401 (re-exported)

TABLE = "aliases_v3"  # the rules (the Go tool's third version of the table, kept by name)

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: the hook imports this module
    from typing import Any

BUSY_TIMEOUT_MS = 2000
# A rule's origin (migration 0013): made by ``dp suggest --apply`` from captured evidence. Any other rule
# (origin '') is a person's, which dp only flags and never switches off (dp.desires.hurting).
SUGGESTED = "suggest"
_COLUMNS = ", ".join(FIELDS)
# Trust records (dp.store.trust writes them): the table, and the ``path`` of the record that
# trusts the repository itself.
TRUST_TABLE = "project_trust"
REPOSITORY = ""
# The layer files a record from before 0006 counts for, relative to the repository root
# (dp.layers.locate.FILES; migrations/0006_trust_by_repository.sql moves exactly these).
_LEGACY_TRUST_FILES = (".dp/rules.toml", ".dp/rules.local.toml")


def read_or_empty(path, read) -> "Any":
    """``read(conn)`` on the store opened read-only, or ``[]`` when it is missing or unreadable.

    For what dp derives from the store beside the user's command (hook filters, the mod's
    snapshot): a broken store must not stop the command, and ``dp doctor`` names it.
    """
    try:
        conn = open_readonly(path)
    except sqlite3.Error:
        return []
    return _reading(conn, read)


def read_store(path, read) -> list:
    """``read(conn)`` on the store opened read-only, or ``[]`` when it is missing; raises when it
    cannot be read. For what must not be derived from less than the store holds (the hook's gate,
    dp.hook.gate: it would answer for calls the missing rules act on)."""
    return _reading(open_readonly(path), read)


def _reading(conn, read) -> list:
    if conn is None:
        return []
    try:
        return read(conn)
    finally:
        conn.close()


def open_readonly(path) -> sqlite3.Connection | None:
    """Open the store for reading, or None when the file does not exist.

    Never creates, blocks on or writes anything: the path must be a regular
    file (a FIFO would hang ``open``), it is opened with ``mode=ro``, and when
    even a WAL reader cannot work (a read-only directory or file system, where
    SQLite cannot create the ``-shm`` file) it is read as an immutable file,
    so the rules still apply. Raises ``sqlite3.Error`` when the file exists
    but cannot be read as a database. In a dry run, the store as the dry run left it.
    """
    rehearsed = _rehearsed(path)
    return rehearsed if rehearsed is not None else open_file_readonly(path)


def open_file_readonly(path) -> sqlite3.Connection | None:
    """``open_readonly`` of the file itself, whatever a dry run has changed in its copy."""
    import os
    import stat

    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise sqlite3.OperationalError(f"cannot use {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise sqlite3.OperationalError(f"{path} is not a regular file")
    uri = readonly_uri(path)
    conn = connect(uri, BUSY_TIMEOUT_MS, uri=True)
    try:
        conn.execute("PRAGMA user_version").fetchone()
    except sqlite3.OperationalError as exc:
        if "unable to open" not in str(exc):
            raise  # busy or corrupt: never read around a writer
        conn.close()
        conn = connect(uri + "&immutable=1", BUSY_TIMEOUT_MS, uri=True)
    return conn


def _rehearsed(path) -> sqlite3.Connection | None:
    """In a dry run that changed the store at ``path``: a copy of its rehearsed content, so what the
    command derives from the rules (hook filters, snapshots) is what it would derive after the change.

    Asked of ``sys.modules``: a process that never loaded ``dp.files`` (the hook) has no dry run,
    and pays nothing for the question.
    """
    import sys

    files = sys.modules.get("dp.files")
    rehearsal = files.rehearsing() if files is not None else None
    if rehearsal is None or not rehearsal.stores:
        return None
    import os

    copy = rehearsal.stores.get(os.path.abspath(os.path.expanduser(str(path))))
    if copy is None:
        return None
    fresh = connect(":memory:", BUSY_TIMEOUT_MS)
    copy.backup(fresh)
    return fresh


def schema_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def _rules(rows) -> list:
    """``Rule``s of rows in ``FIELDS`` order; the class loads only when there is a row (on most
    hook calls there is none: a module less to import)."""
    if not rows:
        return []
    from dp.rules.model import Rule

    return [Rule(*row) for row in rows]


def tool_alias(conn: sqlite3.Connection, tool_name: str):
    """The tool-name alias (a ``Rule``) for ``tool_name``, if one exists (primary-key lookup)."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM aliases_v3 WHERE from_name = ? AND tool = '' AND param = ''"
        " AND command = '' AND match_kind = ''",
        (tool_name,),
    ).fetchall()
    rules = _rules(rows)
    return rules[0] if rules else None


def rules_for_tool(conn: sqlite3.Connection, tool: str, commands=(), table: str = "aliases_v3") -> list:
    """Rules for ``tool`` that apply to the given command words, in insertion order.

    Returns the tool's parameter rules (``command = ''``) plus the rules whose
    ``command`` is one of ``commands``. Served by the ``(tool, command)``
    index, so its cost does not grow with the number of unrelated rules.
    ``table``: ``shadow_rules`` for the rules that only record (``shadow_rules_for_tool``).
    """
    commands = sorted(set(commands))
    marks = ", ".join("?" * (len(commands) + 1))
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM {table} WHERE tool = ? AND command IN ({marks}) ORDER BY rowid",
        (tool, "", *commands),
    ).fetchall()
    return _rules(rows)


def shadow_rules_for_tool(conn: sqlite3.Connection, tool: str, commands=()) -> list:
    """The shadow rules (migration 0011) that could apply, as ``rules_for_tool``; none in an older store."""
    try:
        return rules_for_tool(conn, tool, commands, "shadow_rules")
    except sqlite3.OperationalError:
        return []


def recipe_programs(conn: sqlite3.Connection, templates) -> dict[str, str]:
    """The compiled programs stored for these recipe templates (none in a store older than the table)."""
    templates = sorted(set(templates))
    try:
        rows = conn.execute(
            f"SELECT template, program FROM recipe_programs WHERE template IN ({', '.join('?' * len(templates))})",
            templates,
        ).fetchall()
    except sqlite3.OperationalError:
        return {}
    return dict(rows)


def has_made_rules(conn: sqlite3.Connection) -> bool:
    """Whether a rule dp made (origin ``suggest``) acts: what the SessionStart asks before it starts the check
    that switches off one that hurts clearly (False in a store from before 0013)."""
    try:
        return conn.execute("SELECT 1 FROM rule_origins AS o JOIN aliases_v3 AS r USING (from_name, tool, param, "
                            "command, match_kind) WHERE o.origin = ? LIMIT 1", (SUGGESTED,)).fetchone() is not None
    except sqlite3.OperationalError:
        return False


def all_rules(conn: sqlite3.Connection) -> list:
    """Every rule, in insertion order, without creating or migrating anything."""
    return _rules(conn.execute(f"SELECT {_COLUMNS} FROM aliases_v3 ORDER BY rowid").fetchall())


def trust_records(conn, root: str) -> dict:
    """``{real path: sha256}`` trusted in the repository whose real root is ``root`` (``REPOSITORY``
    present when the repository itself is); {} when nothing is, or no store. Only the records of
    the repository that is there now count: one deleted and replaced by another at the same path
    left its records to a repository nobody trusted (``dp.gitdir``: its first commit, or its HEAD
    before it had one; a record from before migration 0010, not yet bound, counts by its path).

    Here rather than in ``dp.store.trust``: the hook asks on every call in a repository with a
    layer file, and a module of its own cost it more than the query.
    """
    if conn is None:
        return {}
    try:
        rows = conn.execute(f"SELECT path, sha256, identity FROM {TRUST_TABLE} WHERE root = ?", (root,)).fetchall()
    except sqlite3.OperationalError:  # a store from before 0010
        return _unbound_trust_records(conn, root)
    if not rows:
        return {}
    from dp.gitdir import matches

    same = {identity: identity is None or matches(root, identity) for identity in {row[2] for row in rows}}
    return {path: sha256 for path, sha256, identity in rows if same[identity]}


def _unbound_trust_records(conn, root: str) -> dict:
    """A store from before 0010: its records count for the repository at their root, whichever it is."""
    try:
        return dict(conn.execute(f"SELECT path, sha256 FROM {TRUST_TABLE} WHERE root = ?", (root,)).fetchall())
    except sqlite3.OperationalError:
        return _legacy_trust_records(conn, root)


def _legacy_trust_records(conn, root: str) -> dict:
    """A store from before 0006: a file's record counts for the repository it sits at the root of."""
    import os

    paths = [os.path.join(root, name) for name in _LEGACY_TRUST_FILES]
    try:
        found = dict(conn.execute(f"SELECT path, sha256 FROM {TRUST_TABLE} WHERE path IN (?, ?)", paths).fetchall())
    except sqlite3.OperationalError:  # a store from before trust records
        return {}
    if found:
        found[REPOSITORY] = ""
    return found
