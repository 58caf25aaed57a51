"""Reading and deleting captured events."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from dp.errors import DpError

_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
STORED_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def parse_since(text: str, now: datetime | None = None) -> str:
    """``7d``, ``12h``, ``30m``, ``2w`` or an ISO date/time → the stored timestamp it starts at."""
    now = now or datetime.now(timezone.utc)
    value = text.strip()
    if len(value) > 1 and value[-1] in _UNITS and value[:-1].isdigit():
        return (now - timedelta(**{_UNITS[value[-1]]: int(value[:-1])})).strftime(STORED_FORMAT)
    return parse_date(value, "--since", "7d, 12h, 2w or 2026-01-31")


def parse_date(text: str, option: str, examples: str = "2026-01-31 or 2026-01-31T12:00:00Z") -> str:
    """An ISO 8601 date or date-time (UTC unless it says otherwise) as a stored timestamp."""
    try:
        parsed = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise DpError(f"{option} {text!r} is not a date or duration; use {examples}") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed.astimezone(timezone.utc).strftime(STORED_FORMAT)


def iso(stored: str) -> str:
    """A stored timestamp as shown: ISO 8601, second precision."""
    return stored[:19] + "Z" if len(stored) >= 19 else stored


def list_failures(conn, since: str | None = None, tool: str | None = None, limit: int | None = None) -> list[dict]:
    """Failed calls, newest first, as the ``dp desires --json`` objects."""
    clauses, params = ["outcome = 'failure'"], []
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
    return [_failure(*row) for row in conn.execute(sql, params)]


def _failure(row_id, tool_name, tool_input, error, klass, source, session_id, cwd, timestamp) -> dict:
    return {
        "id": row_id,
        "tool_name": tool_name,
        "tool_input": parse_input(tool_input),
        "error": error,
        "error_class": klass,
        "source": source,
        "session_id": session_id,
        "cwd": cwd,
        "timestamp": iso(timestamp),
    }


def parse_input(text) -> dict:
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def purge(conn, before: str | None = None) -> int:
    """Delete captured events (all, or those older than ``before``); returns how many rows went."""
    from dp.capture.events import in_transaction

    if before:
        return in_transaction(conn, lambda: conn.execute("DELETE FROM desires WHERE timestamp < ?", (before,)).rowcount)
    return in_transaction(conn, lambda: conn.execute("DELETE FROM desires").rowcount)


def counts(conn) -> dict:
    """``{"failure": n, "success": m}``."""
    found = dict(conn.execute("SELECT outcome, count(*) FROM desires GROUP BY outcome").fetchall())
    return {"failure": found.get("failure", 0), "success": found.get("success", 0)}
