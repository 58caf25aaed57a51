"""What a dry run changed in each store it opened (``rehearsed_changes``), table by table, against the file
as it is: the in-memory copies ``dp.store.write.rehearsed_copy`` made are compared, nothing is written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dp.files import rehearsing
from dp.rules.model import FIELDS, Rule
from dp.store.read import TABLE, open_file_readonly

_COLUMNS = ", ".join(FIELDS)


def rehearsed_changes() -> list[dict]:
    """What the dry run did to each store it opened, table by table, against the file as it is.

    ``{"path", "status", "rules": {"added", "removed"}, "events": {"added", "removed"},
    "trust": {…}, "installs": {…}}``: rules as ``Rule``s, events as counts per tool, trust and
    install records as paths. A store with no change is left out.
    """
    reports = []
    rehearsal = rehearsing()
    for key, copy in (rehearsal.stores if rehearsal is not None else {}).items():
        path = Path(key)
        original = open_file_readonly(path) if path.is_file() else None
        try:
            report = {name: _table_change(original, copy, *how) for name, how in _REPORTED.items()}
        finally:
            if original is not None:
                original.close()
        report = {name: change for name, change in report.items() if change["added"] or change["removed"]}
        if report or original is None:
            reports.append({"path": key, "status": "would change" if original is not None else "would be created",
                            **report})
    return reports


# What a dry run reports of each table: (table, columns read, one row in words or as data).
_REPORTED = {
    "rules": (TABLE, _COLUMNS, lambda row: Rule.from_row(row)),
    "events": ("desires", "id, tool_name, outcome", lambda row: f"{row[2]} of {row[1]}"),
    "trust": ("project_trust", "root, path, sha256", lambda row: row[1] or row[0]),
    "installs": ("installs", "path, kind, scope, created_file, details", lambda row: f"{row[1]} in {row[0]}"),
}


def _table_change(original, copy, table: str, columns: str, shown) -> dict:
    """The rows of ``table`` the copy has and the original lacks (``added``) and the other way round."""
    query = f"SELECT {columns} FROM {table}"
    before = _rows(original, query) if original is not None else []
    after = _rows(copy, query)
    gone, new = set(before) - set(after), set(after) - set(before)
    return {"added": [shown(row) for row in after if row in new],
            "removed": [shown(row) for row in before if row in gone]}


def _rows(conn, query: str) -> list[tuple]:
    try:
        return list(conn.execute(query))
    except sqlite3.OperationalError:  # an older store without the table
        return []
