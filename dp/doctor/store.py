"""The ``store`` and rule-count lines of ``dp doctor``: does the store open, is its schema current?

Read-only: the store is opened the way the hook opens it, never created or migrated.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dp import UPGRADE_HINT
from dp.doctor.findings import ERROR, OK, WARNING, Finding
from dp.rules.model import Rule

_MOVE_ASIDE = "move the file aside, then run: dp init"


def check_store(db_path: Path, layered: int = 0) -> tuple[list[Finding], list[Rule] | None]:
    """The store's findings and its rules (None when they cannot be read); ``layered`` is how many
    project-layer rules act here (an empty store is then no warning)."""
    from dp.store import all_rules, open_readonly, schema_version

    try:
        conn = open_readonly(db_path)
    except sqlite3.Error as exc:
        return [Finding("store", ERROR, f"cannot open {db_path}: {exc}", _MOVE_ASIDE)], None
    if conn is None:
        from dp.doctor.hook import init_command

        return [Finding("store", WARNING, f"{db_path} does not exist yet", init_command())], None
    try:
        version = schema_version(conn)
        rules = all_rules(conn)
    except sqlite3.Error as exc:
        return [Finding("store", ERROR, f"{db_path} is not a dp store: {exc}", _MOVE_ASIDE)], None
    finally:
        conn.close()
    return [_schema(db_path, version), _rule_counts(rules, layered)], rules


def _schema(db_path: Path, version: int) -> Finding:
    from dp.store import SCHEMA_VERSION

    if version > SCHEMA_VERSION:
        return Finding(
            "store",
            ERROR,
            f"{db_path} has schema {version}, newer than this dp ({SCHEMA_VERSION})",
            f"upgrade dp: {UPGRADE_HINT}",
        )
    if version < SCHEMA_VERSION:
        return Finding(
            "store",
            WARNING,
            f"{db_path} has schema {version}, current is {SCHEMA_VERSION}",
            "dp init (migrates the store)",
        )
    return Finding("store", OK, f"{db_path} opens, schema {version} (current)")


def _rule_counts(rules: list[Rule], layered: int = 0) -> Finding:
    if not rules and layered:
        return Finding("rules", OK, f"the store has no rules; the project layers' {layered} rule"
                                    f"{'s' if layered != 1 else ''} act here")
    if not rules:
        return Finding(
            "rules",
            WARNING,
            "the store has no rules yet, so the hook changes nothing",
            "dp alias read_file Read (see dp alias --help)",
        )
    counts: dict[str, int] = {}
    for rule in rules:
        counts[rule.kind_label] = counts.get(rule.kind_label, 0) + 1
    by_kind = ", ".join(f"{kind} {count}" for kind, count in sorted(counts.items()))
    return Finding("rules", OK, f"{len(rules)} rule{'s' if len(rules) != 1 else ''}: {by_kind}", counts=counts)
