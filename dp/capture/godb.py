"""``dp ingest --desire-path-db``: the Go desire-path tool's ``desires.db``, so its users keep their history.

Its ``desires`` table (schema version 1 onwards; ``category`` from version 4)
holds one row per failed call with the input as JSON and an RFC 3339
timestamp. The file is opened read-only and never changed. Rows are keyed
``desire-path:<id>``, so a second import adds nothing; inputs are redacted
like every other capture (the Go tool stored them as they came).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from dp.capture.events import failure_row, now_iso
from dp.capture.timestamps import normalize
from dp.errors import DpError
from dp.store import desires
from dp.store.go_desires import desire_batches, open_go_db, schema_version

SOURCE = "desire-path"
_BATCH = 2000


def ingest(conn, path: Path) -> dict:
    """Import every desire of the Go database at ``path``; ``{"read", "added", "schema_version"}``."""
    source = open_go_db(path)
    try:
        version = schema_version(source)
        read = added = 0
        for batch in desire_batches(source, _BATCH):
            read += len(batch)
            added += desires.add(conn, [_row(*values) for values in batch])
    except sqlite3.Error as exc:
        raise DpError(f"cannot read {path}: {exc}") from None
    finally:
        source.close()
    return {"read": read, "added": added, "schema_version": version}


def _row(desire_id, tool_name, tool_input, error, session_id, cwd, timestamp) -> dict:
    try:
        parsed = json.loads(tool_input) if tool_input else {}
    except (TypeError, ValueError, RecursionError):
        parsed = {"input": str(tool_input)}
    if not isinstance(parsed, dict):
        parsed = {"input": parsed}
    return failure_row(SOURCE, str(tool_name or "?"), parsed, error, session_id, cwd, normalize(timestamp, now_iso()),
                       f"{SOURCE}:{desire_id}")
