"""The calls dp's Claude Code mod fixed, moved from its spool into the store.

Once the mod ran ``read_file`` as Read, the transcript and every hook see only
Read: the hallucinated name would vanish from ``dp desires`` and ``dp paths``.
So the mod writes one small JSON file per fix into ``<dp dir>/claude-mod/fixes/``
(it can only write whole files, and has no SQLite). This module turns each
into a desires row — a failure of ``read_file`` with the error saying it was
fixed, source ``mod`` — and deletes the file. dp-capture drains the spool on
every run (the fixed call's own PostToolUse starts it), ``dp desires``,
``dp paths`` and ``dp ingest`` drain it before they read. Stdlib only.
"""

from __future__ import annotations

import json
import os

DIRECTORY = os.path.join("claude-mod", "fixes")
MAX_FILES = 200  # per drain: a flood waits for the next run instead of slowing this one
MAX_FILE_BYTES = 64 << 10
UNKNOWN_TOOL = "No such tool available"


def spool(db: str) -> str:
    """The mod's fix spool for the store file ``db``."""
    return os.path.join(os.path.dirname(os.path.abspath(db)), DIRECTORY)


def pending(db: str) -> list[str]:
    """The spool's files, oldest name first, at most MAX_FILES ([] when there is no spool)."""
    try:
        with os.scandir(spool(db)) as entries:
            names = sorted(entry.path for entry in entries if entry.name.endswith(".json") and entry.is_file())
    except OSError:
        return []
    return names[:MAX_FILES]


def row(record: dict) -> dict | None:
    """The desires row for one fix record (None for a record that is not one)."""
    from dp.capture.events import event_key, failure_row, now_iso

    name, ran_as = record.get("tool_name"), record.get("ran_as")
    if not (isinstance(name, str) and name and isinstance(ran_as, str) and ran_as):
        return None
    error = f"{UNKNOWN_TOOL}: {name} (fixed by dp's Claude Code mod: ran as {ran_as})"
    key = event_key(record.get("session_id"), record.get("tool_use_id"))
    return failure_row("mod", name, record.get("tool_input"), error, record.get("session_id"), record.get("cwd"),
                       _timestamp(record.get("at")) or now_iso(), key and f"mod:{key}")


def _timestamp(value) -> str | None:
    """The mod's ISO time (``…T10:00:00.123Z``) as dp stores times (microseconds)."""
    if not isinstance(value, str) or not value.endswith("Z") or "T" not in value:
        return None
    head, _, fraction = value[:-1].partition(".")
    return f"{head}.{(fraction + '000000')[:6]}Z" if fraction.isdigit() or not fraction else None


def drain(conn, db: str) -> int:
    """Store every pending fix in ``conn`` and delete its file; how many rows were added.

    A file is deleted only after its row is committed; one that cannot be
    read or is not a fix record is deleted too, so it never blocks the spool.
    """
    from dp.store.desires import add

    files = pending(db)
    rows, done = [], []
    for path in files:
        record = _read(path)
        found = row(record) if isinstance(record, dict) else None
        if found is not None:
            rows.append(found)
        done.append(path)
    added = add(conn, rows) if rows else 0
    if done:  # dp.files (and its dry run) only when there is a file to delete: dp-capture runs on every call
        from dp.files import discard

        for path in done:
            discard(path)  # gone already: another drain took it
    return added


def _read(path: str):
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
        return json.loads(data) if len(data) <= MAX_FILE_BYTES else None
    except (OSError, ValueError, RecursionError):
        return None
