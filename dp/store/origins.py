"""Where a rule came from, and the rules dp switched off: ``rule_origins`` and ``switched_off_rules``
(migration 0013). A rule ``dp suggest --apply`` made has the origin ``suggest``; only those may dp
switch off, and a switched-off rule is kept with why and when, acting nowhere."""

from __future__ import annotations

import sqlite3

from dp.rules.model import FIELDS, KEY_FIELDS, Rule
from dp.store.read import SUGGESTED, TABLE

SWITCHED_OFF = "switched_off_rules"  # migration 0013: the same columns and key, and why dp switched it off
ORIGINS = "rule_origins"  # migration 0013: a rule's origin by its key, whichever table holds it


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() is not None


_JOINED = " AND ".join(f"o.{name} = r.{name}" for name in KEY_FIELDS)


def rules_with_origin(conn, table: str, where: str = "", args=(), origins: bool = True, more: str = "") -> list:
    """Rows of ``table`` (``WHERE where``, in the order they were set) as rules with their origin, and the
    columns ``more`` after them (a rule then is ``(rule, *more)``)."""
    columns = ", ".join(f"r.{name}" for name in FIELDS)
    joined = f"coalesce(o.origin, '') FROM {table} AS r LEFT JOIN {ORIGINS} AS o ON {_JOINED}" if origins \
        else f"'' FROM {table} AS r"
    rows = conn.execute(f"SELECT {columns}{', ' + more if more else ''}, {joined} {where} ORDER BY r.rowid", args)
    found = []
    for row in rows:
        rule = Rule(*row[:len(FIELDS)])
        rule.origin = row[-1]
        found.append((rule, *row[len(FIELDS):-1]) if more else rule)
    return found


def made_rules(conn: sqlite3.Connection) -> list[Rule]:
    """The acting rules dp made (origin ``suggest``), in the order they were set; none in a store from
    before 0013."""
    if not has_table(conn, ORIGINS):
        return []
    return rules_with_origin(conn, TABLE, "WHERE o.origin = ?", (SUGGESTED,))


def switched_off(conn: sqlite3.Connection) -> list[dict]:
    """The rules dp switched off, oldest first: ``{"rule", "label", "reason", "at", "told"}`` (none in a
    store from before 0013)."""
    if not has_table(conn, SWITCHED_OFF):
        return []
    rows = rules_with_origin(conn, SWITCHED_OFF, more="r.label, r.reason, r.switched_off_at, r.told_at")
    rows.sort(key=lambda row: row[3])
    return [{"rule": rule, "label": label, "reason": reason, "at": at, "told": bool(told)}
            for rule, label, reason, at, told in rows]
