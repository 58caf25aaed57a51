"""The ``desires`` table: captured tool calls (migration 0003), every statement on it.

Writers: the capture hook, the transcript reader and the Go-database import
(``insert_rows``, one transaction per batch). Readers: ``dp desires``, ``dp
paths``, ``dp suggest`` and ``dp doctor`` (through ``dp.desires``). Stdlib only:
dp-capture imports it on every tool call. Rows come back as tuples in the
column order each function names; turning them into reports is
``dp.desires``'s job.
"""

from __future__ import annotations

from dp.store.connection import sqlite3, transaction  # the C module: no datetime to import

COLUMNS = ("source", "event_key", "outcome", "tool_name", "tool_input", "error", "command", "subcommand",
           "flags", "input_keys", "error_class", "session_id", "cwd", "timestamp")
_INSERT = f"INSERT OR IGNORE INTO desires ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
# A failure's path: its shape, one per program for the error classes in {whole} (dp.desires.paths).
_SHAPE = """tool_name, command, CASE WHEN error_class IN ({whole}) THEN '' ELSE subcommand END AS sub,
       CASE WHEN error_class IN ({whole}) THEN '[]' ELSE flags END AS options,
       CASE WHEN tool_name = 'Bash' THEN '[]' ELSE input_keys END AS keys,
       error_class"""
_GROUPS = f"""
SELECT {_SHAPE}, count(*) AS n, count(DISTINCT session_id), min(timestamp), max(timestamp), max(id)
FROM desires WHERE outcome = 'failure' {{where}}
GROUP BY tool_name, command, sub, options, keys, error_class
ORDER BY n DESC, max(timestamp) DESC
"""
_DAILY = f"""
SELECT substr(timestamp, 1, 10) AS day, {_SHAPE}, count(*)
FROM desires WHERE outcome = 'failure' {{where}}
GROUP BY day, tool_name, command, sub, options, keys, error_class
ORDER BY day
"""
_BASH_FAILURES = """SELECT id, tool_name, tool_input, error, command, subcommand, flags, error_class, session_id, timestamp
FROM desires WHERE outcome = 'failure' AND tool_name = 'Bash' AND error_class = ? ORDER BY timestamp, id"""
_FOLLOWING = """SELECT command, subcommand, flags FROM desires
WHERE session_id = ? AND outcome = 'success' AND tool_name = 'Bash' AND timestamp >= ? AND id != ?
ORDER BY timestamp, id LIMIT ?"""
_IDS_PER_QUERY = 500


# -- writes -------------------------------------------------------------------


def insert_rows(conn: sqlite3.Connection, rows) -> int:
    """Insert row dicts keyed by ``COLUMNS`` (an event key already stored is skipped); returns how
    many were new. No transaction handling: see ``add``."""
    before = conn.total_changes
    conn.executemany(_INSERT, ([row[name] for name in COLUMNS] for row in rows))
    return conn.total_changes - before


def add(conn: sqlite3.Connection, rows) -> int:
    """``insert_rows`` in one immediate transaction: all of ``rows`` land or none do."""
    with transaction(conn):
        return insert_rows(conn, rows)


def delete(conn: sqlite3.Connection, before: str | None = None) -> int:
    """Delete captured events (all, or those older than the stored timestamp ``before``); how many went."""
    with transaction(conn):
        if before:
            return conn.execute("DELETE FROM desires WHERE timestamp < ?", (before,)).rowcount
        return conn.execute("DELETE FROM desires").rowcount


# -- reads --------------------------------------------------------------------


def count(conn: sqlite3.Connection, before: str | None = None) -> int:
    """How many captured events there are (all, or those older than the stored timestamp ``before``)."""
    if before:
        return conn.execute("SELECT count(*) FROM desires WHERE timestamp < ?", (before,)).fetchone()[0]
    return conn.execute("SELECT count(*) FROM desires").fetchone()[0]


def outcome_counts(conn: sqlite3.Connection) -> dict:
    """``{"failure": n, "success": m}``."""
    found = dict(conn.execute("SELECT outcome, count(*) FROM desires GROUP BY outcome").fetchall())
    return {"failure": found.get("failure", 0), "success": found.get("success", 0)}


def failures(conn: sqlite3.Connection, since: str | None = None, tool: str | None = None,
             limit: int | None = None) -> list[tuple]:
    """Failed calls, newest first: (id, tool_name, tool_input, error, error_class, source, session_id,
    cwd, timestamp)."""
    clauses: list[str] = ["outcome = 'failure'"]
    params: list = []
    if since:
        clauses.append("timestamp >= ?")
        params.append(since)
    if tool:
        clauses.append("tool_name = ?")
        params.append(tool)
    sql = ("SELECT id, tool_name, tool_input, error, error_class, source, session_id, cwd, timestamp FROM desires "
           f"WHERE {' AND '.join(clauses)} ORDER BY timestamp DESC, id DESC")
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return conn.execute(sql, params).fetchall()


def failure_groups(conn: sqlite3.Connection, since: str | None = None, whole: tuple = (),
                   project: str = "") -> list[tuple]:
    """Failures grouped by shape, most frequent first: (tool_name, command, subcommand, flags,
    input_keys ('[]' for Bash), error_class, count, sessions, first, last, newest id). A failure of
    an error class in ``whole`` groups by its program alone (no subcommand, no flags); only calls
    under the directory ``project`` when given."""
    return _failures_by(_GROUPS, conn, since, whole, project)


def failures_by_day(conn: sqlite3.Connection, since: str | None = None, whole: tuple = (),
                    project: str = "") -> list[tuple]:
    """Failures counted per UTC day and shape, oldest day first: (day, tool_name, command, subcommand,
    flags, input_keys, error_class, count), the shapes as ``failure_groups`` makes them."""
    return _failures_by(_DAILY, conn, since, whole, project)


def _failures_by(sql: str, conn: sqlite3.Connection, since, whole: tuple, project: str) -> list[tuple]:
    where, params = ("AND timestamp >= ?", [since]) if since else ("", [])
    if project:
        clause, args = under(project)
        where, params = f"{where} AND {clause}", [*params, *args]
    sql = sql.format(where=where, whole=", ".join("?" * len(whole)) or "NULL")
    return conn.execute(sql, [*whole, *whole, *params]).fetchall()


def under(project: str) -> tuple[str, list]:
    """The SQL condition (and its arguments) for a call made in the directory ``project`` or below it."""
    return "(cwd = ? OR substr(cwd, 1, ?) = ?)", [project, len(project) + 1, project + "/"]


def inputs_and_errors(conn: sqlite3.Connection, ids: list[int]) -> list[tuple]:
    """(id, tool_input, error) of the events with these ids, in batches SQLite accepts."""
    found = []
    for start in range(0, len(ids), _IDS_PER_QUERY):
        chunk = ids[start : start + _IDS_PER_QUERY]
        found += conn.execute(
            f"SELECT id, tool_input, error FROM desires WHERE id IN ({', '.join('?' * len(chunk))})", chunk
        ).fetchall()
    return found


def has_session(conn: sqlite3.Connection, source: str, session_id: str) -> bool:
    """Whether events of ``session_id`` from ``source`` are stored (a session a hook already captured)."""
    return conn.execute("SELECT 1 FROM desires WHERE source = ? AND session_id = ? LIMIT 1",
                        (source, session_id)).fetchone() is not None


def unknown_tool_failures(conn: sqlite3.Connection) -> list[tuple]:
    """Calls of tools Claude Code does not have, oldest first: (id, tool_name, tool_input, error,
    input_keys, session_id, timestamp)."""
    return conn.execute(
        "SELECT id, tool_name, tool_input, error, input_keys, session_id, timestamp FROM desires "
        "WHERE outcome = 'failure' AND error_class = 'unknown tool' ORDER BY timestamp, id"
    ).fetchall()


def bash_failures(conn: sqlite3.Connection, error_class: str) -> list[tuple]:
    """Bash failures of one class, oldest first: (id, tool_name, tool_input, error, command,
    subcommand, flags, error_class, session_id, timestamp)."""
    return conn.execute(_BASH_FAILURES, (error_class,)).fetchall()


def bash_successes_after(conn: sqlite3.Connection, session: str, timestamp: str, event_id: int,
                         limit: int) -> list[tuple]:
    """The first ``limit`` Bash shapes (command, subcommand, flags) that succeeded in ``session``
    from ``timestamp`` on, other than event ``event_id``."""
    return conn.execute(_FOLLOWING, (session, timestamp, event_id, limit)).fetchall()


def bash_calls(conn: sqlite3.Connection):
    """Every Bash call, by session then time, one row per call (a success's first shape): (id,
    outcome, tool_input, error, error_class, command, session_id, cwd, timestamp). ``dp.learn`` reads
    the sessions' order from it; a success's ``tool_input`` is set only right after a failure."""
    return conn.execute(
        "SELECT id, outcome, tool_input, error, error_class, command, session_id, cwd, timestamp FROM desires "
        "WHERE tool_name = 'Bash' AND session_id != '' AND (event_key IS NULL OR event_key NOT LIKE '%#_%' "
        "OR event_key LIKE '%#0') ORDER BY session_id, timestamp, id")


def failed_recently(conn: sqlite3.Connection, session_id: str, calls: int) -> bool:
    """Whether one of the last ``calls`` rows stored for ``session_id`` is a failure (the capture hook
    keeps a success's command only then); one indexed query."""
    rows = conn.execute("SELECT outcome FROM desires WHERE session_id = ? ORDER BY timestamp DESC, id DESC LIMIT ?",
                        (session_id, calls)).fetchall()
    return any(row[0] == "failure" for row in rows)


def ran_as_typed(conn: sqlite3.Connection, command: str) -> bool:
    """Whether ``command`` is one of the commands of a Bash call that succeeded in some session: the
    program was there, on some machine or in some environment (``source .venv/bin/activate && python``).
    A shape after ``||`` may not have run; counting it anyway errs toward leaving calls alone."""
    return conn.execute("SELECT 1 FROM desires WHERE outcome = 'success' AND tool_name = 'Bash' AND command = ? "
                        "LIMIT 1", (command,)).fetchone() is not None


def succeeded_subcommands(conn: sqlite3.Connection, command: str) -> list[str]:
    """Every subcommand of ``command`` seen succeeding in Bash."""
    rows = conn.execute(
        "SELECT DISTINCT subcommand FROM desires WHERE outcome = 'success' AND tool_name = 'Bash' AND command = ?"
        " AND subcommand != ''", (command,))
    return [row[0] for row in rows]


# -- the team sync (dp.team.sync) ------------------------------------------------------------------

_UPLOAD_COLUMNS = ("id, event_key, outcome, tool_name, error, command, subcommand, flags, input_keys, error_class, "
                   "session_id, cwd, timestamp")


def after(conn: sqlite3.Connection, last_id: int, limit: int) -> list[tuple]:
    """Up to ``limit`` events with an id above ``last_id``, by id: (id, event_key, outcome, tool_name,
    error, command, subcommand, flags, input_keys, error_class, session_id, cwd, timestamp)."""
    return conn.execute(f"SELECT {_UPLOAD_COLUMNS} FROM desires WHERE id > ? ORDER BY id LIMIT ?",
                        (last_id, limit)).fetchall()


def count_after(conn: sqlite3.Connection, last_id: int) -> int:
    """How many events have an id above ``last_id`` (what a sync has yet to look at)."""
    return conn.execute("SELECT count(*) FROM desires WHERE id > ?", (last_id,)).fetchone()[0]


def bash_failures_in(conn: sqlite3.Connection, sessions: list[str], up_to_id: int) -> list[tuple]:
    """The Bash failures of these sessions with an id up to ``up_to_id`` (columns as ``after``): what
    worked next in their session may have grown since they were last sent."""
    found = []
    for start in range(0, len(sessions), _IDS_PER_QUERY):
        chunk = sessions[start : start + _IDS_PER_QUERY]
        found += conn.execute(
            f"SELECT {_UPLOAD_COLUMNS} FROM desires WHERE outcome = 'failure' AND tool_name = 'Bash' AND id <= ? "
            f"AND session_id IN ({', '.join('?' * len(chunk))}) ORDER BY id", (up_to_id, *chunk)).fetchall()
    return found


def distinct_cwds(conn: sqlite3.Connection) -> list[str]:
    """Every working directory an event was captured in."""
    return [row[0] for row in conn.execute("SELECT DISTINCT cwd FROM desires")]
