"""pave-check's notes of what it did, moved from their spool into the store (issue 51).

The hook appends one JSON line per call it acted on to ``actions.jsonl`` beside
the store (``dp.hook.notes.noted``): it never opens SQLite to write, so a rewrite
costs one small append. This module turns each line into ``actions`` rows, one
per rule that acted. It takes the spool by renaming it (a hook appending at
that moment writes into the taken file or a new one, never loses its line),
and reads a taken file only once it has been still for ``SETTLE_SECONDS``, so
no line is read half-written. dp-capture drains on every run (taking what
settled; the rest waits for its next run); ``dp stats`` and ``dp ingest`` wait
for the spool to settle, so they see every action so far. Stdlib only.
"""

from __future__ import annotations

import json
import os
import time

SETTLE_SECONDS = 1.0
MAX_LINES = 20_000  # per taken file: the hook stops appending at dp.hook.notes.MAX_SPOOL_BYTES anyway
_TAKEN = ".taken-"


def spool(db: str) -> str:
    """The hook's action spool for the store file ``db``."""
    from dp.hook.notes import ACTIONS_SPOOL

    return os.path.join(os.path.dirname(os.path.abspath(db)), ACTIONS_SPOOL)


def pending(db: str) -> bool:
    """Whether the hook noted anything not yet in the store (a spool, or a taken file left over)."""
    path = spool(db)
    return os.path.exists(path) or bool(_taken(path))


def drain(conn, db: str, wait: bool = False) -> int:
    """Store the spool's settled notes in ``conn``, then delete their files; how many rows were added.

    ``wait``: sleep until every taken file has settled (the CLI's readers), instead of leaving the
    unsettled ones for the next run (dp-capture, on the agent's every call).
    """
    path = spool(db)
    try:
        os.rename(path, f"{path}{_TAKEN}{time.time_ns()}-{os.getpid()}")
    except OSError:
        pass  # no spool: nothing new since the last drain
    added = 0
    for taken in _taken(path):
        still = _still_for(taken)
        if still is None:
            continue
        if still < SETTLE_SECONDS:
            if not wait:
                continue
            time.sleep(SETTLE_SECONDS - still)
        added += _store(conn, taken)
    return added


def _taken(path: str) -> list[str]:
    folder, prefix = os.path.dirname(path), os.path.basename(path) + _TAKEN
    try:
        return sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.startswith(prefix))
    except OSError:
        return []


def _still_for(path: str) -> float | None:
    try:
        return time.time() - os.stat(path).st_mtime
    except OSError:
        return None  # another drain took it


def _store(conn, path: str) -> int:
    """Store one taken file's rows and delete it (only after they are committed)."""
    from dp.store.actions import add

    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = [line for _, line in zip(range(MAX_LINES), handle)]
    except OSError:
        return 0
    rows = [row for line in lines for row in rows_for(_record(line))]
    added = add(conn, rows) if rows else 0
    try:
        os.unlink(path)
    except OSError:
        pass  # another drain took it first; its rows were ignored here as already stored
    return added


def _record(line: str):
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None  # a line cut short (the disk filled): skipped, never blocks the rest


def rows_for(record) -> list[dict]:
    """The ``actions`` rows of one spool line: one per rule it names ([] for a line that is not a note)."""
    from dp.capture.events import event_key

    if not isinstance(record, dict) or not isinstance(record.get("rules"), list):
        return []
    at = record.get("at")
    if not isinstance(at, (int, float)) or isinstance(at, bool):
        return []
    fields = {name: record.get(name) if isinstance(record.get(name), str) else ""
              for name in ("session", "call", "agent", "kind", "cwd")}
    base = {"event_key": event_key(fields["session"], fields["call"]), "session_id": fields["session"],
            "agent": fields["agent"], "kind": fields["kind"], "cwd": fields["cwd"], "timestamp": iso(at)}
    rows = []
    for rule in record["rules"]:
        if isinstance(rule, list) and len(rule) == 4 and all(isinstance(part, str) for part in rule):
            rows.append({**base, "rule": rule[0], "rule_source": rule[1], "from_command": rule[2],
                         "to_command": rule[3]})
    return rows


def iso(seconds: float) -> str:
    """``seconds`` since the epoch as dp stores times (UTC, microseconds, ``Z``)."""
    whole = int(seconds)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + f".{int((seconds - whole) * 1_000_000):06d}Z"


def answered(conn, agent, row: dict, rule: str, source: str, leads_to: str) -> None:
    """Record an answer dp-capture just told after the failed call ``row`` (its own action, in the same
    store it already holds open): the rule is the answer (``learned #ID: from → to``, or ``known (kind):
    from → to`` for what dp knew: issue 50), ``source`` ``learned`` or the kind dp knew it by, and the
    program it leads to (``leads_to``, '' for none) is what the agent's next call is compared with
    (``dp.desires.stats``). A store from before 0009 records nothing."""
    from dp.store.actions import add
    from dp.store.connection import sqlite3  # the C module: sqlite3's Python layer imports datetime

    action = {"event_key": row.get("event_key"), "session_id": row["session_id"], "agent": agent.name,
              "kind": "answer", "rule": rule, "rule_source": "learned" if source == "learned" else "known",
              "from_command": row["command"], "to_command": leads_to or row["command"], "cwd": row["cwd"],
              "timestamp": row["timestamp"]}
    try:
        add(conn, [action])
    except sqlite3.OperationalError:
        pass
