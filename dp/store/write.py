"""The CLI's path into the store: create, migrate, and change rules.

Every write runs in a ``BEGIN IMMEDIATE`` transaction, so concurrent
``dp alias`` processes queue on SQLite's write lock (busy timeout) instead of
failing, and readers in WAL mode only ever see whole, committed rules.
All of it is plain ``sqlite3``: explicit SQL keeps our transactions whole, and
the CLI does not pay for importing a database library.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from dp import UPGRADE_HINT, changes
from dp.errors import DpError
from dp.files import rehearsing
from dp.rules.model import FIELDS, KEY_FIELDS, RECIPE, TOOL_ALIAS, Rule, kind_label
from dp.store.checks import check_location, read_only_message
from dp.store.connection import connect_for_writes, transaction, write_refused
from dp.store.location import RULES_STAMP, hook_gate
from dp.store.migrations import enable_wal, load_migrations, migrate
from dp.store.origins import ORIGINS, SWITCHED_OFF, has_table, rules_with_origin
from dp.store.read import DEFAULT_DB, SUGGESTED, TABLE, open_file_readonly
from dp.store.trust import bind as bind_trust

WRITE_BUSY_TIMEOUT_MS = 15000
SHADOW = "shadow_rules"  # migration 0011: the same columns and key
SCHEMA_VERSION = len(load_migrations())

_COLUMNS = ", ".join(FIELDS)
_KEY_WHERE = " AND ".join(f"{name} = ?" for name in KEY_FIELDS)
_BY_KEY = "WHERE " + " AND ".join(f"r.{name} = ?" for name in KEY_FIELDS)  # of a rule read with its origin


def utc_now() -> str:
    """ISO-8601 UTC, second precision: the ``created_at`` format."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class ImportReport:
    """What an import did (or, with dry_run, would do), entry by entry."""

    def __init__(self):
        self.actions: list[tuple[str, Rule]] = []  # ("imported"|"skipped"|"overwritten", rule)

    def count(self, action: str) -> int:
        return sum(1 for done, _ in self.actions if done == action)

    def to_dict(self) -> dict:
        return {
            "imported": self.count("imported"),
            "skipped": self.count("skipped"),
            "overwritten": self.count("overwritten"),
            "total": len(self.actions),
        }


class Store:
    """A read-write handle on the alias store. Use ``Store.open(path)``."""

    def __init__(self, conn: sqlite3.Connection, path: Path, rehearsed: bool = False):
        self.conn = conn
        self.path = path
        self.rehearsed = rehearsed  # a dry run's in-memory copy: the rehearsal closes it
        self.rules_changed = False  # a rule or trust change was committed: announced once closed

    @classmethod
    def open(cls, path) -> Store:
        """Open for writing (creating the file) and bring the schema up to date.

        Only the default store's directory (``~/.dp``) is created: a
        directory named by --db or DP_DB must exist, so a typo is an error
        rather than a new, empty store somewhere. A read-only store and one
        written by a newer dp are refused with what to do, before anything
        is written; a newer schema is never migrated down. In a dry run
        (``dp.files.Rehearsal``) it is an in-memory copy of the store
        (``rehearsed_copy``): the command's writes land there, the file is not touched.
        """
        path = Path(path).expanduser()
        if rehearsing() is not None:
            return cls(rehearsed_copy(path), path, rehearsed=True)
        check_location(path, create=path.absolute() == Path(DEFAULT_DB).expanduser().absolute())
        try:
            conn = connect_for_writes(path, WRITE_BUSY_TIMEOUT_MS)
            _refuse_newer(conn, path)
            enable_wal(conn)
            migrate(conn)
            _recompile_stale_programs(conn)
            bind_trust(conn)
        except sqlite3.Error as exc:
            if "readonly" in str(exc):
                raise DpError(read_only_message(path)) from None
            raise DpError(f"cannot open the alias store {path}: {exc} (check the path, or set --db / DP_DB)") from None
        return cls(conn, path)

    def close(self) -> None:
        """Close the store, then announce a committed rule or trust change (dp.changes; a dry run's
        too, so its plan shows what would follow): what follows reads the store as others will,
        with no connection of this one still open."""
        if not self.rehearsed:
            self.conn.close()
        if self.rules_changed:
            self.rules_changed = False
            changes.announce(self.path)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    def transaction(self, nothing: str = "nothing was changed", rules: bool = False):
        """An immediate (write-locked) transaction; rolled back on any error. A write the file
        system refuses (a full disk, a file-size limit) is a DpError saying so and ``nothing``.
        ``rules``: it changes what a rule acts on, so a commit touches the rules stamp."""
        return _WriteTransaction(self, nothing, rules)

    # -- reads --------------------------------------------------------------

    @functools.cached_property
    def _origins(self) -> bool:
        """Whether the store has rule origins (0013): not an older store read as it is."""
        return has_table(self.conn, ORIGINS)

    def _rules(self, table: str, where: str = "", args=()) -> list[Rule]:
        """The rules of ``table`` (``WHERE where``) in the order they were set, each with its origin."""
        return rules_with_origin(self.conn, table, where, args, self._origins)

    def get_rule(self, key_rule: Rule) -> Rule | None:
        """The stored rule with the same key as ``key_rule``, if any."""
        found = self._rules(TABLE, _BY_KEY, key_rule.key)
        return found[0] if found else None

    def list_rules(self, tool=None, command=None, kind=None) -> list[Rule]:
        """Rules in insertion order, optionally filtered (kind ``alias`` = tool-name aliases)."""
        clauses, params = [], []
        for column, value in (("tool", tool), ("command", command)):
            if value is not None:
                clauses.append(f"r.{column} = ?")
                params.append(value)
        if kind is not None:
            clauses.append("r.match_kind = ?")
            params.append(TOOL_ALIAS if kind == "alias" else kind)
        return self._rules(TABLE, f"WHERE {' AND '.join(clauses)}" if clauses else "", params)

    def count_by_kind(self) -> dict[str, int]:
        """``{"alias": 3, "flag": 1, …}`` for the kinds present."""
        rows = self.conn.execute(f"SELECT match_kind, count(*) FROM {TABLE} GROUP BY match_kind")
        return {kind_label(kind): count for kind, count in rows}

    # -- writes -------------------------------------------------------------

    def set_rule(self, rule: Rule) -> str:
        """Insert the rule, or update the one with its key. Returns "set" or "updated".

        An update keeps the row (and so its place in the apply order, its
        ``created_at`` and its origin) and replaces ``to_name`` and ``message``. A shadow rule with
        its key is promoted: it leaves ``shadow_rules`` in the same transaction, its origin with it.
        A rule dp switched off is enabled again: the person chose it over dp's evidence, so from now
        on it is theirs (origin ''), which dp only flags.
        """
        with self.transaction(rules=True):
            self._set_origin(rule)
            self.conn.execute(f"DELETE FROM {SHADOW} WHERE {_KEY_WHERE}", rule.key)
            return self._put(rule, overwrite=True)

    def _set_origin(self, rule: Rule) -> None:
        """The origin of ``rule``, about to be set: a rule with its key already there (acting or in shadow)
        keeps its own, so a person's rule never becomes dp's and a promoted one stays dp's; a new one takes
        ``rule.origin``; one dp switched off leaves that table and is the person's from now on."""
        if not self._origins:
            return
        if self.conn.execute(f"DELETE FROM {SWITCHED_OFF} WHERE {_KEY_WHERE}", rule.key).rowcount:
            self.conn.execute(f"DELETE FROM {ORIGINS} WHERE {_KEY_WHERE}", rule.key)
        elif rule.origin and not self._rules(TABLE, _BY_KEY, rule.key) \
                and not self._rules(SHADOW, _BY_KEY, rule.key):
            self.conn.execute(f"INSERT OR REPLACE INTO {ORIGINS} ({', '.join(KEY_FIELDS)}, origin) "
                              f"VALUES ({', '.join('?' * len(KEY_FIELDS))}, ?)", (*rule.key, rule.origin))

    def _forget_origin(self, rule: Rule) -> None:
        """Drop the origin of a rule whose key no table holds any more: a rule set later with that key is new."""
        if self._origins and not any(self._rules(table, _BY_KEY, rule.key)
                                     for table in (TABLE, SHADOW, SWITCHED_OFF)):
            self.conn.execute(f"DELETE FROM {ORIGINS} WHERE {_KEY_WHERE}", rule.key)

    def delete_rule(self, key_rule: Rule) -> Rule | None:
        """Delete the rule with ``key_rule``'s key; returns what was deleted, or None."""
        with self.transaction(rules=True):
            existing = self.get_rule(key_rule)
            if existing:
                self.conn.execute(f"DELETE FROM {TABLE} WHERE {_KEY_WHERE}", key_rule.key)
                self._prune_programs()
            elif self._origins:  # one dp switched off: the person deletes its record
                off = self._rules(SWITCHED_OFF, _BY_KEY, key_rule.key)
                self.conn.execute(f"DELETE FROM {SWITCHED_OFF} WHERE {_KEY_WHERE}", key_rule.key)
                existing = off[0] if off else None
            self._forget_origin(key_rule)
        return existing

    def import_rules(self, rules: list[Rule], conflict: str = "skip", dry_run: bool = False) -> ImportReport:
        """Add many rules in ONE transaction: all land or none do.

        ``conflict`` decides what happens to a rule whose key exists:
        ``skip`` keeps the stored one, ``overwrite`` replaces its payload.
        With ``dry_run`` the transaction is rolled back after computing the report.
        """
        if conflict not in ("skip", "overwrite"):
            raise ValueError(f"conflict must be skip or overwrite, not {conflict!r}")
        report = ImportReport()
        try:
            with self.transaction("nothing was imported; the store is as it was", rules=not dry_run):
                for rule in rules:
                    outcome = self._put(rule, overwrite=conflict == "overwrite")
                    report.actions.append((_IMPORT_ACTION[outcome], rule))
                if dry_run:
                    raise _DryRun
        except _DryRun:
            pass
        return report

    def _put(self, rule: Rule, overwrite: bool) -> str:
        """Insert ``rule`` (with its origin), or replace the payload of the rule with its key (keeping
        that rule's origin: a person's rule never becomes dp's)."""
        if self.get_rule(rule) is None:
            self._insert(TABLE, rule)
            return "set"
        if not overwrite:
            return "kept"
        self.conn.execute(
            f"UPDATE {TABLE} SET to_name = ?, message = ? WHERE {_KEY_WHERE}",
            (rule.to_name, rule.message, *rule.key),
        )
        self._remember_program(rule)
        self._prune_programs()
        return "updated"

    def _remember_program(self, rule: Rule) -> None:
        """Store a recipe template's compiled form, so that the hook renders it without Jinja2."""
        if rule.match_kind != RECIPE:
            return
        from dp.rules.recipe import program_for

        program = program_for(rule.to_name)
        if program is not None:
            self.conn.execute(
                "INSERT OR REPLACE INTO recipe_programs (template, program) VALUES (?, ?)", (rule.to_name, program)
            )

    def _prune_programs(self) -> None:
        self.conn.execute(
            f"DELETE FROM recipe_programs WHERE template NOT IN "
            f"(SELECT to_name FROM {TABLE} WHERE match_kind = '{RECIPE}') AND template NOT IN "
            f"(SELECT to_name FROM {SHADOW} WHERE match_kind = '{RECIPE}')"
        )

    # -- shadow rules (migration 0011): record what they would do, rewrite nothing --------------

    def set_shadow(self, rule: Rule) -> str:
        """Make ``rule`` a shadow rule: "set", or "updated" when one with its key was a shadow already.
        A rule with its key that acts is refused: a shadow never takes an acting rule's place unasked."""
        from dp.errors import DpError

        if self.get_rule(rule) is not None:
            raise DpError("this rule already acts (dp aliases lists it); delete it first to watch it in shadow: "
                          "dp alias --delete …")
        with self.transaction(rules=True):
            self._set_origin(rule)
            before = self.conn.execute(f"DELETE FROM {SHADOW} WHERE {_KEY_WHERE}", rule.key).rowcount
            self._insert(SHADOW, rule)
        return "updated" if before else "set"

    def _insert(self, table: str, rule: Rule, **extra) -> None:
        """One rule row into ``table`` (``extra`` columns too), its recipe program kept."""
        values = {**rule.to_dict(), "created_at": rule.created_at or utc_now(), **extra}
        names = [*FIELDS, *extra]
        self.conn.execute(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                          [values[name] for name in names])
        self._remember_program(rule)

    def delete_shadow(self, key_rule: Rule) -> Rule | None:
        """Delete the shadow rule with ``key_rule``'s key; what was deleted, or None."""
        existing = self.shadow_rules(key_rule)
        if existing:
            with self.transaction(rules=True):
                self.conn.execute(f"DELETE FROM {SHADOW} WHERE {_KEY_WHERE}", key_rule.key)
                self._prune_programs()
                self._forget_origin(key_rule)
        return existing[0] if existing else None

    def shadow_rules(self, key_rule: Rule | None = None) -> list[Rule]:
        """Every shadow rule in the order they were set (or the one with ``key_rule``'s key)."""
        where, args = (_BY_KEY, key_rule.key) if key_rule is not None else ("", ())
        return self._rules(SHADOW, where, args)

    # -- rules dp switched off (migration 0013): kept for the record, acting no more ---------------

    def switch_off(self, rule: Rule, label: str, reason: str) -> bool:
        """Move the rule with ``rule``'s key out of the rules that act into ``switched_off_rules``, with
        why; only a rule dp made (origin ``suggest``): a person's rule stays as it is (False)."""
        stored = self.get_rule(rule)
        if stored is None or stored.origin != SUGGESTED:
            return False
        with self.transaction(rules=True):
            self.conn.execute(f"DELETE FROM {SWITCHED_OFF} WHERE {_KEY_WHERE}", rule.key)
            self._insert(SWITCHED_OFF, stored, label=label, reason=reason, switched_off_at=utc_now())
            self.conn.execute(f"DELETE FROM {TABLE} WHERE {_KEY_WHERE}", rule.key)
            self._prune_programs()
        return True

    def told_switched_off(self, labels) -> None:
        """Record that the person was told of the rules dp switched off with these labels."""
        with self.transaction():
            self.conn.executemany(f"UPDATE {SWITCHED_OFF} SET told_at = ? WHERE label = ? AND told_at = ''",
                                  [(utc_now(), label) for label in labels])


def _recompile_stale_programs(conn: sqlite3.Connection) -> None:
    """Compile again the recipe programs an older dp stored (another program version).

    The hook judges and renders such a template itself (correct, but slower);
    the first dp command that opens the store for writing brings them up to date.
    """
    from dp.rules.recipe_program import VERSION

    stale = [row[0] for row in conn.execute(
        "SELECT template FROM recipe_programs WHERE program NOT LIKE ?", (f'{{"v":{VERSION},%',))]
    if not stale:
        return
    from dp.rules.recipe import program_for

    with transaction(conn):
        for template in stale:
            program = program_for(template)
            if program is None:
                conn.execute("DELETE FROM recipe_programs WHERE template = ?", (template,))
            else:
                conn.execute("UPDATE recipe_programs SET program = ? WHERE template = ?", (program, template))


def _refuse_newer(conn: sqlite3.Connection, path: Path) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise DpError(
            f"the alias store {path} has schema {version}, newer than this dp knows ({SCHEMA_VERSION}); "
            f"upgrade dp ({UPGRADE_HINT}) to change it (nothing was changed; reading still works)"
        )


_IMPORT_ACTION = {"set": "imported", "kept": "skipped", "updated": "overwritten"}


class _WriteTransaction(transaction):
    """``transaction`` that words a write refused by the file system for the person."""

    def __init__(self, store: Store, nothing: str, rules: bool = False):
        super().__init__(store.conn)
        self.store, self.path, self.nothing, self.rules = store, store.path, nothing, rules

    def __exit__(self, kind, error, traceback) -> None:
        try:
            super().__exit__(kind, error, traceback)
        except sqlite3.Error as exc:  # the COMMIT itself failed
            if write_refused(exc):
                raise self._refused(exc) from None
            raise
        if kind is not None and issubclass(kind, sqlite3.Error) and write_refused(error):
            raise self._refused(error) from None
        if kind is None and self.rules:
            mark_rules_changed(self.path)
            self.store.rules_changed = True

    def _refused(self, error) -> DpError:
        return DpError(
            f"cannot write the alias store {self.path}: the disk is full or a file-size limit was reached "
            f"({error}); {self.nothing}. Free some space and run the command again"
        )


def rules_stamp(db_path) -> Path:
    """The file whose token and time say when the rules last changed (beside the store)."""
    return Path(db_path).expanduser().absolute().parent / RULES_STAMP


def mark_rules_changed(db_path) -> None:
    """Give the rules stamp a new token (and so a new time) after a committed rule or trust change.

    What dp derives from the rules for readers without SQLite (the Claude Code
    mod's snapshot, the hook's gate: dp.hook.gate) records the stamp as it was
    when made; a stamp that reads otherwise says the derived copy is stale, even
    when the step that rewrites it never ran. The token tells two changes apart
    within one tick of a coarse file clock. A stamp that cannot be written is no
    reason to fail the change itself, but then the hook's gate goes (it could
    no longer tell it is stale): every call takes the full path until the next sync.
    """
    if rehearsing() is not None:  # a dry run changed no rule
        return
    stamp = rules_stamp(db_path)
    try:
        with open(stamp, "w", encoding="ascii") as handle:
            handle.write(os.urandom(8).hex())
    except OSError:
        try:
            os.unlink(hook_gate(db_path))
        except OSError:
            pass


class _DryRun(Exception):
    """Raised inside a transaction to roll it back on purpose."""


def rehearsed_copy(path: Path) -> sqlite3.Connection:
    """The dry run's in-memory copy of the store at ``path`` (made on first use, migrated like the file would be).

    A store that does not exist yet starts empty, as ``Store.open`` would create it; nothing is
    created on disk, not even ``~/.dp``.
    """
    from dp.store.connection import connect

    rehearsal = rehearsing()
    assert rehearsal is not None, "called only during a dry run"
    copies = rehearsal.stores
    key = os.path.abspath(path)
    if key not in copies:
        copy = connect(":memory:", WRITE_BUSY_TIMEOUT_MS)
        try:
            original = open_file_readonly(path) if path.is_file() else None
            if original is not None:
                try:
                    original.backup(copy)
                finally:
                    original.close()
            _refuse_newer(copy, path)
            migrate(copy)
        except sqlite3.Error as exc:
            copy.close()
            raise DpError(f"cannot open the alias store {path}: {exc} (check the path, or set --db / DP_DB)") from None
        copies[key] = copy
    return copies[key]
