"""The ``actions`` table (migration 0009): what dp did to agents' calls, every statement on it.

Writers: ``dp.capture.actions`` (the hook's notes, moved from their spool by
dp-capture, ``dp ingest`` and ``dp stats``) and dp-capture's after-failure
answer (``add``). Reader: ``dp stats`` through ``dp.desires.stats``, which
joins each action to the captured calls of its session (``calls_after``): what
happened next is never stored, so calls ``dp ingest`` reads later count too.
Stdlib only: dp-capture imports it.
"""

from __future__ import annotations

from dp.store.connection import sqlite3, transaction  # the C module: sqlite3's Python layer imports datetime
from dp.store.desires import under

COLUMNS = ("event_key", "session_id", "agent", "kind", "rule", "rule_source", "from_command", "to_command", "cwd",
           "timestamp")
_INSERT = f"INSERT OR IGNORE INTO actions ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
# The calls of a session from a moment on, oldest first: the acted-on call and the ones after it. The moment is
# the action's, or the acted-on call's own time when that is earlier: a call read from an agent's session file
# carries the time the agent wrote there (Codex CLI: before its PostToolUse hook ran, when dp-capture recorded the
# answer it told after that call), and it is still the call the action was on.
_CALLS_AFTER = """SELECT event_key, outcome, command, error_class, timestamp FROM desires
WHERE session_id = ? AND tool_name = 'Bash' AND timestamp >= coalesce((SELECT min(timestamp) FROM desires
WHERE session_id = ? AND event_key IN (?, ? || '#0') AND timestamp < ?), ?) ORDER BY timestamp, id LIMIT ?"""


# A call made in ``project`` or below it (the directory itself, or a path starting with it and a slash).
def add(conn: sqlite3.Connection, rows) -> int:

    """Store action dicts keyed by ``COLUMNS`` in one transaction (one already stored, by its call, kind
    and rule, is skipped); returns how many were new."""
    with transaction(conn):
        before = conn.total_changes
        conn.executemany(_INSERT, ([row.get(name) or "" if name != "event_key" else row.get(name) for name in COLUMNS]
                                   for row in rows))
        return conn.total_changes - before


def actions(conn: sqlite3.Connection, since: str = "", agent: str = "", project: str = "") -> list[dict]:
    """The actions from ``since`` on (a stored timestamp), of one agent and under one directory when given,
    oldest first."""
    sql = f"SELECT id, {', '.join(COLUMNS)} FROM actions WHERE timestamp >= ?"
    args: list = [since]
    if agent:
        sql, args = sql + " AND agent = ?", [*args, agent]
    if project:
        clause, under_it = under(project)
        sql, args = f"{sql} AND {clause}", [*args, *under_it]
    return [dict(zip(("id", *COLUMNS), row)) for row in conn.execute(sql + " ORDER BY timestamp, id", args)]


def sent_or_recent(conn: sqlite3.Connection, after_id: int, since: str) -> list[dict]:
    """The actions a team sync sends (``dp.team.outcomes``): those after row ``after_id`` and those from
    ``since`` on (their judgement may have changed), oldest first."""
    sql = f"SELECT id, {', '.join(COLUMNS)} FROM actions WHERE id > ? OR timestamp >= ? ORDER BY id"
    return [dict(zip(("id", *COLUMNS), row)) for row in conn.execute(sql, (after_id, since))]


def calls_after(conn: sqlite3.Connection, session_id: str, timestamp: str, event_key: str | None = None,
                limit: int = 16) -> list[tuple]:
    """``(event_key, outcome, command, error_class, timestamp)`` of the session's Bash calls (one row per
    shape) from ``timestamp`` on, or from the call ``event_key``'s own time when that is earlier."""
    return conn.execute(_CALLS_AFTER, (session_id, session_id, event_key, event_key, timestamp, timestamp,
                                       limit)).fetchall()


def earlier_outcomes(conn: sqlite3.Connection, command: str, before: str, session_id: str) -> set:
    """The outcomes (``failure``, ``success``) ``command`` had in Bash calls of other sessions before ``before``."""
    rows = conn.execute("SELECT DISTINCT outcome FROM desires WHERE tool_name = 'Bash' AND command = ? "
                        "AND timestamp < ? AND session_id != ?", (command, before, session_id))
    return {row[0] for row in rows}


def calls_seen(conn: sqlite3.Connection, since: str = "", project: str = "") -> int:
    """How many tool calls were captured from ``since`` on (under ``project`` when given): each failed call,
    and each successful call once (its first shape's row, or one per moment for calls without an id)."""
    where = "timestamp >= ?"
    args: list = [since]
    if project:
        clause, under_it = under(project)
        where, args = f"{where} AND {clause}", [*args, *under_it]
    sql = (f"SELECT (SELECT count(*) FROM desires WHERE outcome = 'failure' AND {where})"
           f" + (SELECT count(*) FROM desires WHERE outcome = 'success' AND event_key LIKE '%#0' AND {where})"
           f" + (SELECT count(DISTINCT session_id || timestamp) FROM desires WHERE outcome = 'success'"
           f" AND event_key IS NULL AND {where})")
    return conn.execute(sql, args * 3).fetchone()[0]
