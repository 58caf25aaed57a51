"""What dp accepts from a team database: the aggregates, every field checked and bounded.

The rows come from every member's uploads, and one member's row (or a
server that is not what it claims) must not break, flood or paint another
member's terminal. So nothing downloaded is trusted: each row is checked
here against the bounds the schema's ``dp_event_is_sane`` enforces
(``migrations/postgres/0002_*``: the same numbers, so a row a sane database
holds always passes), a row that fails is skipped and counted, never fatal;
and the download stops at ``MAX_ROWS`` rows and ``MAX_BYTES`` bytes (rows
beyond are left out and counted), the database sending the most-shared
paths first. ``dp team status`` shows both counts; the cached copy
(``team-<hash>.json``) is written from accepted rows only and read back
through the same check.
"""

from __future__ import annotations

import json
import math
import re
import time
from datetime import datetime, timezone

MAX_ROWS = 10_000
MAX_BYTES = 8 << 20
WORD = 200  # characters in a tool name, command word, subcommand, flag, input key, error class
WORDS = 64  # flags or input keys in a shape
HINT = 1_000  # characters in an error hint (lines)
THEN = 4  # shapes that worked next
PSEUDONYMS = 1_000  # people, machines or repositories per row
GROUP_COLUMNS = ("outcome", "tool_name", "command", "subcommand", "flags", "input_keys", "error_class",
                 "error_hint", "then_shapes", "events", "sessions", "people", "machines", "repositories",
                 "first_seen", "last_seen")
_EARLIEST = datetime(2000, 1, 1, tzinfo=timezone.utc).timestamp()
_SLACK_SECONDS = 2 * 86_400  # a day of the schema's own slack and a day of clock skew
_PSEUDONYM = re.compile(r"[0-9A-Za-z_-]{1,64}")
# Control characters and bidi overrides: what would act on a terminal instead of showing.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


class Download:
    """The accepted rows, and how many were skipped (failed the check) or left out (past the bounds)."""

    def __init__(self):
        self.groups: list[dict] = []
        self.skipped = 0
        self.left_out = 0
        self.size = 0

    def offer(self, row: dict) -> None:
        """Take ``row`` (``GROUP_COLUMNS``, times as epoch seconds or dp's stamps) if it passes and fits."""
        if len(self.groups) >= MAX_ROWS or self.size >= MAX_BYTES:
            self.left_out += 1
            return
        accepted = accept(row)
        if accepted is None:
            self.skipped += 1
            return
        size = _size(accepted)
        if self.size + size > MAX_BYTES:
            self.left_out += 1
            self.size = MAX_BYTES
            return
        self.size += size
        self.groups.append(accepted)


def accept(row: dict) -> dict | None:
    """``row`` with its times as dp's stamps when every field is what dp writes, else None."""
    try:
        first, last = _moment(row["first_seen"]), _moment(row["last_seen"])
        ok = _shape_ok(row) and _counts_ok(row)
    except (KeyError, TypeError, ValueError, RecursionError):
        return None
    if not ok or first is None or last is None or first > last:
        return None
    return {**{key: row[key] for key in GROUP_COLUMNS}, "people": list(row["people"] or []),
            "machines": list(row["machines"] or []), "repositories": list(row["repositories"] or []),
            "first_seen": _stamp(first), "last_seen": _stamp(last)}


def _shape_ok(row: dict) -> bool:
    """The row's shape is what dp writes: an outcome, bounded words without control characters, shapes'
    JSON of words."""
    return (row["outcome"] in ("failure", "success") and row["tool_name"] != ""
            and all(word(row[key]) for key in ("tool_name", "command", "subcommand", "error_class"))
            and word(row["error_hint"], HINT, lines=True)
            and _words(_json(row["flags"])) and _words(_json(row["input_keys"]))
            and _then(_json(row["then_shapes"])))


def _counts_ok(row: dict) -> bool:
    """Its counts are counts (sessions no more than events) and its people, machines and repositories
    pseudonyms."""
    return (_count(row["events"]) and row["events"] >= 1 and _count(row["sessions"])
            and row["sessions"] <= row["events"]
            and all(_pseudonyms(row[key]) for key in ("people", "machines", "repositories")))


def word(value, longest: int = WORD, lines: bool = False) -> bool:
    if not isinstance(value, str) or len(value) > longest:
        return False
    return not _CONTROL.search(value.replace("\n", "") if lines else value)


def _json(text):
    if not isinstance(text, str) or len(text) > 65_536:
        raise ValueError("not a shape's JSON")
    return json.loads(text)


def _words(value) -> bool:
    return isinstance(value, list) and len(value) <= WORDS and all(word(item) for item in value)


def _then(value) -> bool:
    return isinstance(value, list) and len(value) <= THEN and all(
        isinstance(item, list) and len(item) == 3 and word(item[0]) and word(item[1]) and _words(item[2])
        for item in value)


def _count(value) -> bool:
    return type(value) is int and 0 <= value < 1 << 53


def _pseudonyms(value) -> bool:
    if value is None:
        return True
    return (isinstance(value, list) and len(value) <= PSEUDONYMS
            and all(isinstance(item, str) and _PSEUDONYM.fullmatch(item) for item in value))


def _moment(value) -> float | None:
    """Epoch seconds of a time dp may show (after 2000, not past tomorrow), else None."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.removesuffix("Z")).replace(tzinfo=timezone.utc).timestamp()
        except ValueError:
            return None
    if type(value) not in (int, float) or not math.isfinite(value):
        return None
    return value if _EARLIEST <= value <= time.time() + _SLACK_SECONDS else None


def _stamp(seconds: float) -> str:
    """A time as dp stores times (``2026-01-31T00:00:00.000000Z``)."""
    moment = datetime.fromtimestamp(seconds, timezone.utc).replace(tzinfo=None)
    return moment.isoformat(timespec="microseconds") + "Z"


def _size(row: dict) -> int:
    """About what the row costs in memory and in the cached copy (its text, in bytes)."""
    return sum(len(value) for value in row.values() if isinstance(value, str)) + sum(
        len(item) + 8 for key in ("people", "machines", "repositories") for item in row[key]) + 64
