"""The ``learned`` and ``told`` tables (migrations 0007, 0008, 0012): answers learned from what agents ran
next, and which change each session was told after a failure.

Writer of ``learned``: ``dp.learn`` (``dp ingest``, ``dp suggest``), replacing the whole set in one
transaction, never the hooks. Reader on the hook path: ``dp-capture`` after a failed call
(``answers_for``, one indexed query on ``(tool_name, command)``) and ``tell_once`` (one insert into
``told``, so a session hears each answer once, whether dp learned it or knew it: dp.learn.known). What
was told is an action (``dp.store.actions``). Stdlib only.
"""

from __future__ import annotations

import json

from dp.store.connection import sqlite3, transaction  # the C module: no datetime to import

COLUMNS = ("tool_name", "command", "kind", "from_text", "to_text", "pairs", "sessions", "evidence", "learned_at",
           "scope")
_JSON = ("evidence", "scope")  # columns stored as JSON text (scope: migration 0008, NULL before it)
_INSERT = f"INSERT OR REPLACE INTO learned ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"


def replace_all(conn: sqlite3.Connection, answers: list[dict]) -> int:
    """Make ``answers`` (dicts keyed by ``COLUMNS``) the learned set; returns how many are stored.

    An answer that keeps its key (the change) keeps its id; what sessions were told is keyed by the
    change itself (``told``), so a session already told it is not told again after the next run.
    """
    with transaction(conn):
        keep = set()
        for answer in answers:
            row = [answer[name] if name not in _JSON else json.dumps(answer[name], ensure_ascii=False)
                   for name in COLUMNS]
            found = conn.execute("SELECT id FROM learned WHERE tool_name = ? AND command = ? AND kind = ? "
                                 "AND from_text = ? AND to_text = ?", row[:5]).fetchone()
            if found:
                conn.execute(f"UPDATE learned SET {', '.join(f'{c} = ?' for c in COLUMNS)} WHERE id = ?",
                             (*row, found[0]))
                keep.add(found[0])
            else:
                keep.add(conn.execute(_INSERT, row).lastrowid)
        stale = [row[0] for row in conn.execute("SELECT id FROM learned") if row[0] not in keep]
        conn.executemany("DELETE FROM learned WHERE id = ?", [(i,) for i in stale])
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


KEY = ("kind", "command", "from_text", "to_text")  # a change, as a learned answer and dp.learn.known.Known say it


def tell_once(conn: sqlite3.Connection, session_id: str, key: tuple) -> bool:
    """Record that ``session_id`` was told the change ``key`` (``KEY``); False when it already was."""
    with transaction(conn):
        cursor = conn.execute("INSERT OR IGNORE INTO told (session_id, kind, command, from_text, to_text) "
                              "VALUES (?, ?, ?, ?, ?)", (session_id, *key))
        return cursor.rowcount == 1


def _as_dict(row) -> dict:
    answer = dict(zip(("id", *COLUMNS), row))
    answer["evidence"] = json.loads(answer["evidence"] or "{}")
    answer["scope"] = json.loads(answer["scope"]) if answer["scope"] else {}
    return answer
