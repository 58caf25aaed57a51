"""dp-capture: the PostToolUse / PostToolUseFailure hook that records tool calls.

The agent's adapter (``--agent``, default Claude Code; dp/agents/) reads the
payload into a neutral event — a failure, a success, or nothing to record —
and names the rows' ``source``. Claude Code runs it after every tool call (``async: true``, so the agent never
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
USAGE = """usage: dp-capture [--agent NAME] [--db PATH]

The after-tool hook dp installs into coding agents (`dp init`; Claude Code's
PostToolUse/PostToolUseFailure, --agent gemini for Gemini CLI's AfterTool): records
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
            options = parse_options(args)
            record(options.db, data, options.agent)
    except BaseException:  # capture is best effort; the session must never notice it
        pass
    return 0


def rows_for(payload: dict, agent_name: str | None = None) -> list[dict]:
    """The rows to store for one hook payload ([] for anything that is not a tool call)."""
    from dp.agents import get
    from dp.agents.base import POST_FAILURE, POST_TOOL
    from dp.capture.events import event_key, failure_row, now_iso, success_rows

    agent = get(agent_name)
    event = agent.read_event(payload)
    if event is None or event.kind not in (POST_FAILURE, POST_TOOL):
        return []
    session, cwd = event.session, event.cwd  # as the adapter read them (Copilot CLI: sessionId)
    source, key = agent.capture_source, event_key(session, event.call_id)
    if event.kind == POST_FAILURE:
        return [failure_row(source, event.tool, event.tool_input, event.error, session, cwd, now_iso(), key)]
    return success_rows(source, event.tool, event.tool_input, session, cwd, now_iso(), key)


def record(db, data: bytes, agent_name: str | None = None) -> int:
    """Store the event in ``data`` (read by the adapter of ``agent_name``); returns how many rows were added."""
    import json

    payload = json.loads(data.decode("utf-8"))
    if not isinstance(payload, dict):
        return 0
    rows = rows_for(payload, agent_name)
    if not rows:
        return 0
    from dp.store.location import db_location

    path = db_location(db)
    conn = _connect(path)
    try:
        added = _write(conn, rows)
        from dp.capture.fixes import drain

        return added + drain(conn, path)  # the mod's fixes: the fixed call's own PostToolUse lands here
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
