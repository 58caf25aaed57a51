"""Reading and deleting captured events: dates as the user writes them, events as ``dp desires`` shows them."""

from __future__ import annotations

import contextlib
from datetime import datetime, timedelta, timezone

from dp.errors import DpError
from dp.jsonobject import json_object
from dp.store import desires

_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
# The first timestamp there is: a duration reaching back past it means "everything".
EARLIEST = datetime.min.replace(tzinfo=timezone.utc)


def parse_since(text: str, now: datetime | None = None) -> str:
    """``7d``, ``12h``, ``30m``, ``2w`` or an ISO date/time → the stored timestamp it starts at."""
    now = now or datetime.now(timezone.utc)
    value = text.strip()
    if len(value) > 1 and value[-1] in _UNITS and value[:-1].isdigit():
        try:
            start = now - timedelta(**{_UNITS[value[-1]]: int(value[:-1])})
        except OverflowError:
            start = EARLIEST
        return _stored(start)
    return parse_date(value, "--since", "7d, 12h, 2w or 2026-01-31")


def parse_date(text: str, option: str, examples: str = "2026-01-31 or 2026-01-31T12:00:00Z") -> str:
    """An ISO 8601 date or date-time (UTC unless it says otherwise) as a stored timestamp."""
    try:
        parsed = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise DpError(f"{option} {text!r} is not a date or duration; use {examples}") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    try:
        return _stored(parsed.astimezone(timezone.utc))
    except OverflowError:
        raise DpError(f"{option} {text!r} is outside the dates dp can compare (years 1 to 9999 in UTC); use {examples}") from None


def _stored(moment: datetime) -> str:
    """A UTC time as stored (``2026-01-31T12:00:00.000000Z``), with four-digit years even before 1000."""
    return moment.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def iso(stored: str) -> str:
    """A stored timestamp as shown: ISO 8601, second precision."""
    return stored[:19] + "Z" if len(stored) >= 19 else stored


def list_failures(conn, since: str | None = None, tool: str | None = None, limit: int | None = None) -> list[dict]:
    """Failed calls, newest first, as the ``dp desires --json`` objects."""
    return [_failure(*row) for row in desires.failures(conn, since, tool, limit)]


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
    return json_object(text)


@contextlib.contextmanager
def captured(db_path):
    """A connection for reading what was captured (None: no store yet, nothing captured).

    The one way ``dp desires``, ``dp paths``, ``dp suggest`` and ``dp stats`` read: what the mod and the
    hook spooled (fixes, dp's actions) is moved into the store first (creating it if need be) where dp may write it, else it stays spooled; a
    read-only store (or one from a newer dp) is read as it is, never refused (``dp.store.readers``).
    """
    from dp.capture import actions, fixes
    from dp.store import Store, reading

    fixed, acted = fixes.pending(str(db_path)), actions.pending(str(db_path))
    if fixed or acted:
        try:
            with Store.open(db_path) as store:
                fixes.drain(store.conn, str(db_path))
                actions.drain(store.conn, str(db_path), wait=True)  # every action so far (dp stats)
        except DpError:
            pass  # a store dp may not write: the fixes and actions wait in their spools for one it may
    with reading(db_path) as store:
        yield None if store is None else store.conn


def latest_failures(db_path, since: str | None, tool: str | None, limit: int | None,
                    with_total: bool) -> tuple[list[dict], int | None]:
    """``list_failures`` from the store at ``db_path`` and, ``with_total`` when ``limit`` cut the
    list short, how many failures there are in all (else None)."""
    with captured(db_path) as conn:
        if conn is None:
            return [], None
        events = list_failures(conn, since, tool, limit)
        total = counts(conn)["failure"] if with_total and len(events) == limit else None
    return events, total


def count_before(db_path, before: str | None = None) -> int:
    """How many captured events ``purge_store`` would delete (all, or those older than ``before``)."""
    from dp.store import reading

    with reading(db_path) as store:
        return 0 if store is None else desires.count(store.conn, before)


def purge_store(db_path, before: str | None = None) -> int:
    """``purge`` on the store at ``db_path``."""
    from dp.store import Store

    with Store.open(db_path) as store:
        return purge(store.conn, before)


def purge(conn, before: str | None = None) -> int:
    """Delete captured events (all, or those older than ``before``); returns how many rows went."""
    return desires.delete(conn, before)


def counts(conn) -> dict:
    """``{"failure": n, "success": m}``."""
    return desires.outcome_counts(conn)
