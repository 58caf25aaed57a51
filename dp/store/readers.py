"""The store for a command that only reads: a missing store is empty, one dp may not write is read as far as
it can be, and only an older schema in a writable store is migrated first (``reading``); ``read_rules`` and
``read_shadow_rules`` read through it."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from dp import UPGRADE_HINT
from dp.errors import DpError
from dp.rules.model import Rule
from dp.store.checks import check_location
from dp.store.read import DEFAULT_DB, open_readonly, schema_version
from dp.store.write import SCHEMA_VERSION, Store


def read_rules(path, tool=None, command=None, kind=None) -> list[Rule]:
    """``Store.list_rules`` for commands that only read (see ``reading``)."""
    with reading(path) as store:
        return store.list_rules(tool=tool, command=command, kind=kind) if store is not None else []


def read_shadow_rules(path) -> list[Rule]:
    """``Store.shadow_rules`` for commands that only read: what the hook's gate and the agents' filters must
    start pave-check for, so that a shadow rule records what it would have done (none in an older store)."""
    with reading(path) as store:
        if store is None:
            return []
        try:
            return store.shadow_rules()
        except sqlite3.OperationalError:
            return []


@contextlib.contextmanager
def reading(path):
    """The store for a command that only reads (``dp aliases``, ``desires``, ``paths``, ``suggest``), or None.

    One way for every such command: a missing store is an empty one (None; nothing is created), and a
    store dp may not write — a read-only file or file system, one from a newer dp — is read as far as
    it can be, never refused. Only an older schema in a store dp may write is opened for writing,
    to be migrated first.
    """
    path = Path(path).expanduser()
    check_location(path, create=path.absolute() == Path(DEFAULT_DB).expanduser().absolute(), write=False)
    try:
        conn = open_readonly(path)
        version = schema_version(conn) if conn is not None else None
    except sqlite3.Error as exc:
        raise DpError(f"cannot read the alias store {path}: {exc} (check the path, or set --db / DP_DB)") from None
    if conn is None:
        yield None
        return
    if version < SCHEMA_VERSION and os.access(path, os.W_OK) and os.access(path.parent, os.W_OK):
        conn.close()
        with Store.open(path) as store:
            yield store
        return
    try:
        yield Store(conn, path)
    except sqlite3.Error as exc:
        hint = (
            f"it was written by a newer dp (schema {version}, this dp knows {SCHEMA_VERSION}); upgrade dp ({UPGRADE_HINT})"
            if version > SCHEMA_VERSION
            else "check the path, or set --db / DP_DB"
        )
        raise DpError(f"cannot read the alias store {path}: {exc}; {hint}") from None
    finally:
        conn.close()
