"""dp-capture: the PostToolUse / PostToolUseFailure hook that records tool calls.

Claude Code runs it after every tool call (``async: true``, so the agent never
waits). A ``PostToolUseFailure`` is stored with its redacted input and error;
a ``PostToolUse`` only as the shapes of what ran. It never prints and always
exits 0: capture must not change a session in any way. Stdlib only — it is
started once per tool call.

Many sessions write at once: each event is one short ``BEGIN IMMEDIATE``
transaction on the WAL store with a long busy timeout, so writers queue on
SQLite's lock instead of dropping events.
"""

from __future__ import annotations

import sys

# PostToolUse payloads carry the tool's whole output; past this the event is dropped.
MAX_PAYLOAD_BYTES = 16 << 20
BUSY_TIMEOUT_SECONDS = 60
FAILURE_EVENT = "PostToolUseFailure"
SUCCESS_EVENT = "PostToolUse"
USAGE = """usage: dp-capture [--db PATH]

Claude Code PostToolUse/PostToolUseFailure hook (installed by `dp init`): records
failed calls (redacted) and the shapes of successful ones in the dp store. It
prints nothing and always exits 0.
"""


def main(argv=None) -> int:
    """Console entry point: always 0, nothing printed (except for ``--help``)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] in (["-h"], ["--help"]):
        sys.stdout.write(USAGE)
        return 0
    try:
        from dp.hook import parse_options  # pave-check's: same --db, same leniency

        data = sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1)
        if 0 < len(data) <= MAX_PAYLOAD_BYTES:
            record(parse_options(args).db, data)
    except BaseException:  # capture is best effort; the session must never notice it
        pass
    return 0


def rows_for(payload: dict) -> list[dict]:
    """The rows to store for one hook payload ([] for anything that is not a tool call)."""
    from dp.capture.events import event_key, failure_row, now_iso, success_rows

    event = payload.get("hook_event_name")
    tool = payload.get("tool_name")
    if event not in (FAILURE_EVENT, SUCCESS_EVENT) or not isinstance(tool, str) or not tool:
        return []
    session, cwd = payload.get("session_id"), payload.get("cwd")
    key = event_key(session, payload.get("tool_use_id"))
    if event == FAILURE_EVENT:
        return [failure_row("hook", tool, payload.get("tool_input"), payload.get("error"), session, cwd, now_iso(), key)]
    return success_rows("hook", tool, payload.get("tool_input"), session, cwd, now_iso(), key)


def record(db, data: bytes) -> int:
    """Store the event in ``data``; returns how many rows were added."""
    import json

    payload = json.loads(data.decode("utf-8"))
    if not isinstance(payload, dict):
        return 0
    rows = rows_for(payload)
    if not rows:
        return 0
    from dp.store.location import db_location

    conn = _connect(db_location(db))
    try:
        return _write(conn, rows)
    finally:
        conn.close()


def _connect(path: str):
    import os

    from dp.store.connection import connect_for_writes

    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    return connect_for_writes(path, BUSY_TIMEOUT_SECONDS * 1000)


def _write(conn, rows) -> int:
    import sqlite3

    from dp.store.desires import add

    try:
        return add(conn, rows)
    except sqlite3.OperationalError as exc:
        if "no such table" not in str(exc):
            raise
    # A store from before capture (or a new file): bring it up to date first.
    # Rare, so the migration machinery is imported only here.
    from dp.store.migrations import enable_wal, migrate

    enable_wal(conn)
    migrate(conn)
    return add(conn, rows)
