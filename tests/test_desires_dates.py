"""Dates as users write them for ``--since`` and ``--before``, turned into stored timestamps.

Stored timestamps are compared as text in SQL, so every one must have the
same shape — four-digit year, microseconds, ``Z`` — whatever the user wrote,
or ``--since 0999-01-01`` would sort after 2026 and hide every event.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from dp.desires.query import parse_date, parse_since
from dp.errors import DpError

NOW = datetime(2026, 1, 31, 12, 0, 0, 5, tzinfo=timezone.utc)


@pytest.mark.parametrize("text, stored", [
    ("30s", "2026-01-31T11:59:30.000005Z"),
    ("15m", "2026-01-31T11:45:00.000005Z"),
    ("12h", "2026-01-31T00:00:00.000005Z"),
    ("7d", "2026-01-24T12:00:00.000005Z"),
    (" 2w ", "2026-01-17T12:00:00.000005Z"),
    ("0d", "2026-01-31T12:00:00.000005Z"),
    ("99999999d", "0001-01-01T00:00:00.000000Z"),        # before year 1: everything
    ("9999999999999999w", "0001-01-01T00:00:00.000000Z"),  # past timedelta's own range
    ("2026-01-01", "2026-01-01T00:00:00.000000Z"),
    ("2026-01-01T10:00:00+02:00", "2026-01-01T08:00:00.000000Z"),
    ("2026-01-01T10:00:00Z", "2026-01-01T10:00:00.000000Z"),
    ("0999-01-01", "0999-01-01T00:00:00.000000Z"),
])
def test_since_becomes_a_stored_timestamp(text, stored):
    assert parse_since(text, NOW) == stored


def test_stored_timestamps_sort_as_the_times_they_are():
    texts = ["0999-01-01", "99999999d", "2026-01-01", "7d", "1d"]
    stored = [parse_since(text, NOW) for text in texts]
    assert sorted(stored) == [stored[1], stored[0], stored[2], stored[3], stored[4]]


@pytest.mark.parametrize("text", ["d", "7", "7y", "-7d", "7.5d", "yesterday", "2026-13-01", ""])
def test_what_is_neither_a_duration_nor_a_date_is_named(text):
    with pytest.raises(DpError) as caught:
        parse_since(text, NOW)
    assert caught.value.message == (
        f"--since {text.strip()!r} is not a date or duration; use 7d, 12h, 2w or 2026-01-31")


@pytest.mark.parametrize("text", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:00:00-05:00"])
def test_a_date_outside_the_comparable_range_is_an_error(text):
    with pytest.raises(DpError, match=r"^--before .* is outside the dates dp can compare"):
        parse_date(text, "--before")
