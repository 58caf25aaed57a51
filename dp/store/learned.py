"""The ``learned`` and ``learned_told`` tables (migrations 0007, 0008): answers learned from what agents ran next.

Writer: ``dp.learn`` (``dp ingest``, ``dp suggest``), replacing the whole set in one
transaction, never the hooks. Reader on the hook path: ``dp-capture`` after a
failed call (``answers_for``, one indexed query on ``(tool_name, command)``) and
``tell_once`` (one insert, so a session hears each answer once). Stdlib only.
"""

from __future__ import annotations

import json
import sqlite3

from dp.store.connection import transaction

COLUMNS = ("tool_name", "command", "kind", "from_text", "to_text", "pairs", "sessions", "evidence", "learned_at",
           "scope")
_JSON = ("evidence", "scope")  # columns stored as JSON text (scope: migration 0008, NULL before it)
_INSERT = f"INSERT OR REPLACE INTO learned ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"


def replace_all(conn: sqlite3.Connection, answers: list[dict]) -> int:
    """Make ``answers`` (dicts keyed by ``COLUMNS``) the learned set; returns how many are stored.

    An answer that keeps its key keeps its id, so a session already told it is
    not told again after the next learning run.
    """
    with transaction(conn):
        keep = set()
        for answer in answers:
            row = [answer[name] if name not in _JSON else json.dumps(answer[name], ensure_ascii=False)
                   for name in COLUMNS]
            found = conn.execute("SELECT id FROM learned WHERE tool_name = ? AND command = ? AND kind = ? "
                                 "AND from_text = ?", row[:4]).fetchone()
            if found:
                conn.execute(f"UPDATE learned SET {', '.join(f'{c} = ?' for c in COLUMNS)} WHERE id = ?",
                             (*row, found[0]))
                keep.add(found[0])
            else:
                keep.add(conn.execute(_INSERT, row).lastrowid)
        stale = [row[0] for row in conn.execute("SELECT id FROM learned") if row[0] not in keep]
        conn.executemany("DELETE FROM learned WHERE id = ?", [(i,) for i in stale])
        conn.executemany("DELETE FROM learned_told WHERE learned_id = ?", [(i,) for i in stale])
    return len(keep)


def all_answers(conn: sqlite3.Connection) -> list[dict]:
    """Every learned answer, most sessions first."""
    rows = conn.execute(f"SELECT id, {', '.join(COLUMNS)} FROM learned ORDER BY sessions DESC, pairs DESC, id")
    return [_as_dict(row) for row in rows]


def answers_for(conn: sqlite3.Connection, tool_name: str, commands) -> list[dict]:
    """The learned answers keyed on any of ``commands`` (the failed call's command words); one query."""
    words = sorted({word for word in commands if word})[:32]
    if not words:
        return []
    sql = (f"SELECT id, {', '.join(COLUMNS)} FROM learned WHERE tool_name = ? AND command IN "
           f"({', '.join('?' * len(words))}) ORDER BY sessions DESC, id")
    return [_as_dict(row) for row in conn.execute(sql, (tool_name, *words))]


def tell_once(conn: sqlite3.Connection, session_id: str, learned_id: int) -> bool:
    """Record that ``session_id`` was told answer ``learned_id``; False when it already was."""
    with transaction(conn):
        cursor = conn.execute("INSERT OR IGNORE INTO learned_told (session_id, learned_id) VALUES (?, ?)",
                              (session_id, learned_id))
        return cursor.rowcount == 1


def _as_dict(row) -> dict:
    answer = dict(zip(("id", *COLUMNS), row))
    answer["evidence"] = json.loads(answer["evidence"] or "{}")
    answer["scope"] = json.loads(answer["scope"]) if answer["scope"] else {}
    return answer
