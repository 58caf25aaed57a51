"""Every stored timestamp in one format: UTC, microseconds, ``Z`` — so text order is time order."""

from __future__ import annotations

from datetime import datetime, timezone


def normalize(value, default: str) -> str:
    """An ISO 8601 / RFC 3339 timestamp (any precision, any offset) in the stored format; ``default`` if unreadable."""
    if not isinstance(value, str) or not value:
        return default
    text = value.strip().replace("Z", "+00:00").replace("z", "+00:00")
    date, sep, rest = text.partition("T")
    if sep and "." in rest:
        # Go writes nanoseconds; Python reads at most microseconds.
        clock, _, fraction = rest.partition(".")
        digits = "".join(c for c in fraction if c.isdigit())
        offset = fraction[len(digits):]
        text = f"{date}T{clock}.{(digits + '000000')[:6]}{offset}"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return default
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
