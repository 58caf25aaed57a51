"""Small checks shared by recipe and step validation: names, lists, near-miss suggestions."""

from __future__ import annotations

import re
from typing import Any

from dp.errors import did_you_mean

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


suggest = did_you_mean  # `` (did you mean 'command'?)`` for a near miss, else ''


def string_list(value: Any, label: str, problems: list[str]) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        problems.append(f"{label} must be a list of strings")
        return []
    return value


def is_mapping_of_names(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(key, str) and IDENTIFIER.fullmatch(key) for key in value
    )
