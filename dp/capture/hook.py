"""dp-capture: the PostToolUse / PostToolUseFailure hook that records tool calls.

The agent's adapter (``--agent``, default Claude Code; dp/agents/) reads the
payload into a neutral event — a failure, a success, or nothing to record —
and names the rows' ``source``. Claude Code runs it after every tool call
(``async: true`` after a success, so the agent never waits for it). A
``PostToolUseFailure`` is stored with its redacted input and error; a
``PostToolUse`` only as the shapes of what ran, and, within a few calls after
a failure of its session, its redacted command (what the agent ran next is
what ``dp.learn`` learns). It always exits 0 and prints one thing only: after
a failed call, the answer dp knows (``dp.learn.known``) or learned, once per
session and change, in the agent's after-failure channel (``dp.capture.answer``). Stdlib only — it is
started once per tool call.

Many sessions write at once: each event is one short ``BEGIN IMMEDIATE``
transaction on the WAL store with a long busy timeout, so writers queue on
SQLite's lock instead of dropping events.
"""

from __future__ import annotations

import sys

# PostToolUse payloads carry the tool's whole output; past this the event is dropped.
MAX_PAYLOAD_BYTES = 16 << 20
# At most this many payloads in one array (the mod hands over a failure and the calls around it).
MAX_PAYLOADS = 16
BUSY_TIMEOUT_SECONDS = 60
USAGE = """usage: dp-capture [--agent NAME] [--db PATH]

The after-tool hook dp installs into coding agents (`dp init`; Claude Code's
PostToolUse/PostToolUseFailure, --agent gemini for Gemini CLI's AfterTool): records
failed calls (redacted) and the shapes of successful ones in the dp store (one hook
payload on stdin, or a JSON array of them, stored in order). It
always exits 0 and prints nothing, except an answer right after a failed call:
what dp knows about this machine and project, or learned (once per session and
change; see `dp suggest`).
"""


def main(argv=None) -> int:
    """Console entry point: always 0, nothing printed (except for ``--help`` and a learned answer).
    Its stdin is read within pave-check's deadline (``dp.hook.read_stdin``): a writer that never
    closes it gets no answer and nothing stored, never a wait."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] in (["-h"], ["--help"]):
        sys.stdout.write(USAGE)
        return 0
    try:
        from dp.hook import parse_options, read_stdin  # pave-check's: same --db, same leniency, same deadline

        data = read_stdin(MAX_PAYLOAD_BYTES)
        if data:
            options = parse_options(args)
            told = capture(options.db, data, options.agent)[1]
            if told:
                sys.stdout.write(told)
    except BaseException:  # capture is best effort; the session must never notice it
        pass
    return 0


def rows_for(payload: dict, agent_name: str | None = None) -> list[dict]:
    """The rows to store for one hook payload ([] for anything that is not a tool call)."""
    return _read(payload, agent_name)[0]


def _read(payload: dict, agent_name: str | None):
    """(rows, event, agent) for one hook payload; rows [] for anything that is not a tool call."""
    from dp.agents import get
    from dp.agents.base import POST_FAILURE, POST_TOOL
    from dp.capture.events import event_key, failure_row, now_iso, success_rows

    agent = get(agent_name)
    event = agent.read_event(payload)
    if event is None or event.kind not in (POST_FAILURE, POST_TOOL):
        return [], event, agent
    session, cwd = event.session, event.cwd  # as the adapter read them (Copilot CLI: sessionId)
    source, key = agent.capture_source, event_key(session, event.call_id)
    if event.kind == POST_FAILURE:
        return [failure_row(source, event.tool, event.tool_input, event.error, session, cwd, now_iso(), key)], event, agent
    return success_rows(source, event.tool, event.tool_input, session, cwd, now_iso(), key), event, agent


def record(db, data: bytes, agent_name: str | None = None) -> int:
    """Store the event in ``data`` (read by the adapter of ``agent_name``); returns how many rows were added."""
    return capture(db, data, agent_name)[0]


def capture(db, data: bytes, agent_name: str | None = None) -> tuple[int, str]:
    """Store the event in ``data``; (rows added, what to print: a learned answer after a failure, or '').

    ``data`` is one hook payload, or a JSON array of them stored in order (dp's Claude Code mod
    hands over the calls after a failure in one process: dp/agents/claude/mod/register.ts);
    what is printed is the last payload's.
    """
    import json

    payload = json.loads(data.decode("utf-8"))
    added, told = 0, ""
    for one in payload[:MAX_PAYLOADS] if isinstance(payload, list) else [payload]:
        if isinstance(one, dict):
            stored, told = _capture_one(db, one, agent_name)
            added += stored
    return added, told


def _capture_one(db, payload: dict, agent_name: str | None) -> tuple[int, str]:
    rows, event, agent = _read(payload, agent_name)
    if not rows:
        return 0, ""
    from dp.store.location import db_location

    path = db_location(db)
    conn = _connect(path)
    try:
        _keep_if_following_failure(conn, rows)
        added = _write(conn, rows)
        from dp.capture.fixes import drain

        added += drain(conn, path)  # the mod's fixes: the fixed call's own PostToolUse lands here
        _take_actions(conn, path)
        if rows[0]["outcome"] != "failure":
            return added, ""
        from dp.capture.answer import told

        return added, told(conn, agent, event, rows[0])
    finally:
        conn.close()


def _take_actions(conn, path: str) -> None:
    """pave-check's notes of what it did (dp.capture.actions), moved into the store; a store from before
    their table (0009) keeps them in the spool until a dp command migrates it."""
    from dp.capture.actions import drain
    from dp.store.connection import sqlite3  # the C module: sqlite3's Python layer imports datetime

    try:
        drain(conn, path)
    except sqlite3.OperationalError:
        pass


def _keep_if_following_failure(conn, rows) -> None:
    """A success right after a failure of its session keeps its command (redacted): the answer dp.learn learns."""
    from dp.capture.events import CALL_COMMAND, FOLLOW_CALLS, keep_command
    from dp.store.connection import sqlite3  # the C module: sqlite3's Python layer imports datetime
    from dp.store.desires import failed_recently

    if CALL_COMMAND not in rows[0]:
        return
    try:
        if rows[0]["session_id"] and failed_recently(conn, rows[0]["session_id"], FOLLOW_CALLS):
            keep_command(rows[0])
    except sqlite3.OperationalError:  # a store from before capture: nothing to follow yet
        pass
    rows[0].pop(CALL_COMMAND, None)


def _connect(path: str):
    import os

    from dp.store.connection import connect_for_writes

    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    return connect_for_writes(path, BUSY_TIMEOUT_SECONDS * 1000)


def _write(conn, rows) -> int:
    from dp.store.connection import sqlite3
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
