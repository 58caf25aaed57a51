"""How condition values read and compare: the rules shared by every layer of the language.

A recipe author writes YAML, where ``1``, ``'1'`` and ``true`` look alike;
these rules make them behave alike (``count == '1'`` when count is 1) and
give every error message the same way of naming a value. Template
rendering uses ``string_form`` too, so ``{{flag}}`` and ``str(flag)`` agree.
"""

from __future__ import annotations

import json
from typing import Any

from dp.errors import DpError


class ConditionError(DpError):
    """A condition that cannot be parsed or evaluated; the step fails (closed)."""


def string_form(value: Any) -> str:
    """How a value reads as text: YAML-style booleans, '' for null, JSON for collections.

    Shared with template rendering so that ``{{flag}}`` and ``str(flag)`` agree.
    """
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def equal(left: Any, right: Any) -> bool:
    """Equality the way a YAML author expects: 1 == '1', true == 'true'."""
    if isinstance(left, str) and not isinstance(right, str):
        left, right = right, left
    if isinstance(right, str) and not isinstance(left, str):
        if isinstance(left, bool):
            return string_form(left) == right.strip().lower()
        if isinstance(left, (int, float)):
            number = as_number(right)
            return number is not None and number == left
        return False
    return left == right


def as_number(text: str) -> float | None:
    try:
        return float(text.strip())
    except ValueError:
        return None


def numeric(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def describe(value: Any) -> str:
    return f"{type_name(value)} {string_form(value)[:40]!r}" if value is not None else "null"
