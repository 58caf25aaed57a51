"""The record of where dp installed itself.

dp writes into files it does not own — Claude Code settings (hook entries),
``.mcp.json`` (its MCP server), ``CLAUDE.md`` (an import line). Each such
install is recorded here, one row per (file, kind), so that

* a rule change can re-sync dp's hook entries in every settings file that has them,
* ``dp doctor`` can check each recorded file is still what dp left there,
* ``dp uninstall`` can take everything out again, and delete a file dp created
  when nothing of the user's is left in it (``created_file``).

Callers record after a successful write and forget after a successful removal;
the file is the truth, the record says where to look.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from dp.jsonobject import json_object
from dp.store.read import open_readonly
from dp.store.write import Store, utc_now

TABLE = "installs"
# Kinds in use; a new kind needs no migration, only a name of its own.
HOOK = "hook"  # dp's entries in a Claude Code settings file (details: permission, mode, events)
MCP = "mcp"  # dp's MCP server registration
IMPORT_LINE = "claude-md"  # the @AGENTS.md import line in the default agent's instructions file (CLAUDE.md); the stored kind keeps its name
BLOCK = "block"  # dp's <!-- dp:begin --> block written by dp pave --agents-md --output FILE
PLUGIN = "plugin"  # dp's Claude Code plugin: its marketplace directory (dp init --plugin)
AGENT_PLUGIN = "agent-plugin"  # an agent's plugin file dp ships (details: agent, created directories)


@dataclass(frozen=True)
class Install:
    path: str
    kind: str
    scope: str = ""
    created_file: bool = False
    details: dict = field(default_factory=dict)
    installed_at: str = ""
    updated_at: str = ""

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "kind": self.kind,
            "scope": self.scope,
            "created_file": self.created_file,
            "details": self.details,
            "installed_at": self.installed_at,
            "updated_at": self.updated_at,
        }


def key_path(path) -> str:
    """How a path is recorded: absolute, ``~`` expanded, symlinks kept (the user's name for the file)."""
    return str(Path(path).expanduser().absolute())


def require_recordable(path) -> None:
    """Refuse, before anything is written, a file whose name the store cannot hold (not UTF-8):
    dp would change it and then have no record for ``dp uninstall`` to undo."""
    from dp.errors import DpError

    recorded = key_path(path)
    try:
        recorded.encode("utf-8")
    except UnicodeEncodeError:
        shown = recorded.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        raise DpError(f"{shown}: the path holds bytes that are not UTF-8, so dp could not record the change "
                      "for dp uninstall; use a UTF-8 path (nothing was changed)") from None


def record(store: Store, path, kind: str, scope: str = "", created_file: bool = False, details: dict | None = None) -> Install:
    """Add or refresh the record of one install.

    ``created_file`` is sticky: once dp created the file, a later install into
    it (which finds the file existing) does not make it the user's.
    """
    path = key_path(path)
    now = utc_now()
    payload = json.dumps(details or {}, sort_keys=True)
    with store.transaction():
        store.conn.execute(
            f"INSERT INTO {TABLE} (path, kind, scope, created_file, details, installed_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (path, kind) DO UPDATE SET scope = excluded.scope, details = excluded.details,"
            " updated_at = excluded.updated_at, created_file = max(created_file, excluded.created_file)",
            (path, kind, scope, int(bool(created_file)), payload, now, now),
        )
    written = get(store, path, kind)
    assert written is not None, "just written in the same connection"
    return written


def forget(store: Store, path, kind: str) -> bool:
    """Drop the record of one install; whether there was one."""
    with store.transaction():
        cursor = store.conn.execute(f"DELETE FROM {TABLE} WHERE path = ? AND kind = ?", (key_path(path), kind))
    return cursor.rowcount > 0


def get(store: Store, path, kind: str) -> Install | None:
    rows = _rows(store.conn, "WHERE path = ? AND kind = ?", (key_path(path), kind))
    return rows[0] if rows else None


def listed(store: Store, kind: str | None = None) -> list[Install]:
    """Every recorded install (of ``kind``), oldest first."""
    if kind is None:
        return _rows(store.conn, "", ())
    return _rows(store.conn, "WHERE kind = ?", (kind,))


def read(db_path, kind: str | None = None) -> list[Install]:
    """``listed`` for readers that must not create or migrate the store (dp doctor):
    a missing store, or one from before this table existed, has no installs."""
    try:
        conn = open_readonly(Path(db_path).expanduser())
    except sqlite3.Error:  # not a regular file, or not a database
        return []
    if conn is None:
        return []
    try:
        where, params = ("WHERE kind = ?", (kind,)) if kind else ("", ())
        return _rows(conn, where, params)
    except sqlite3.Error:
        return []
    finally:
        conn.close()


def _rows(conn: sqlite3.Connection, where: str, params) -> list[Install]:
    cursor = conn.execute(
        f"SELECT path, kind, scope, created_file, details, installed_at, updated_at FROM {TABLE} {where} ORDER BY rowid",
        params,
    )
    return [
        Install(path, kind, scope, bool(created), _details(details), installed, updated)
        for path, kind, scope, created, details, installed, updated in cursor
    ]


def _details(text: str) -> dict:
    return json_object(text)
