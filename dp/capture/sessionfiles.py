"""The loop every session-file reader shares (``dp ingest``): read each file's rows, store them one
transaction per file, count what was read, skipped and added.

The readers themselves are parts of the agents' folders (``dp/agents/<agent>/sessions.py``, the "sessions" role):
each knows one agent's file format and hands its rows to ``ingest_files``.
"""

from __future__ import annotations

import json
from pathlib import Path

from dp.capture.events import keep_after_failures
from dp.store import desires

MAX_LINE_BYTES = 32 << 20


class Totals:
    """What an ingest did."""

    def __init__(self):
        self.files = 0
        self.lines = 0
        self.skipped_lines = 0
        self.failures = 0
        self.successes = 0
        self.added = 0

    def to_dict(self) -> dict:
        return dict(vars(self))


def ingest_files(conn, files: list[Path], rows_of, progress=None) -> Totals:
    """Store the rows ``rows_of(path, totals)`` yields for each file, one transaction per file
    (every agent's session-file reader); the calls right after a failure keep their command
    (``keep_after_failures``), for ``dp.learn``."""
    totals = Totals()
    for index, path in enumerate(files, 1):
        rows = list(keep_after_failures(rows_of(path, totals)))
        totals.added += desires.add(conn, rows)
        totals.files += 1
        if progress:
            progress(index, len(files), path)
    return totals


def json_lines(path: Path, totals: Totals):
    """The JSON objects of a JSON-lines session file; unreadable lines are counted and skipped."""
    with open(path, "rb") as handle:
        for raw in handle:
            totals.lines += 1
            if len(raw) > MAX_LINE_BYTES:
                totals.skipped_lines += 1
                continue
            try:
                entry = json.loads(raw.decode("utf-8"))
            except (ValueError, RecursionError):  # not JSON, or nested deeper than json reads
                totals.skipped_lines += 1
                continue
            if isinstance(entry, dict):
                yield entry
            else:
                totals.skipped_lines += 1
