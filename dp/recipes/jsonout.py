"""Getting JSON out of step output that may wrap it in prose or Markdown.

Agents asked for JSON often answer "Here is the result: ```json {...} ```".
Three strategies, in order: the whole output, the first fenced code block
that parses, the first balanced ``{…}`` or ``[…]`` that parses.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n(.*?)```", re.DOTALL)
MAX_BRACKET_CANDIDATES = 100


def parse_output(text: str) -> Any:
    """``text`` as JSON when all of it is JSON, else ``text`` itself (for the context)."""
    stripped = text.strip()
    if not stripped:
        return stripped
    try:
        return json.loads(stripped)
    except ValueError:
        return stripped


def extract_json(text: str) -> tuple[bool, Any]:
    """(True, value) for the first JSON document found in ``text``, else (False, None)."""
    for candidate in _candidates(text):
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        return True, value
    return False, None


def _candidates(text: str):
    yield text.strip()
    for match in _FENCE.finditer(text):
        yield match.group(1).strip()
    start = _first_bracket(text, 0)
    tries = 0
    while start != -1 and tries < MAX_BRACKET_CANDIDATES:
        tries += 1
        end = _balanced_end(text, start)
        if end != -1:
            yield text[start:end + 1]
        start = _first_bracket(text, start + 1)


def _first_bracket(text: str, start: int) -> int:
    positions = [p for p in (text.find("{", start), text.find("[", start)) if p != -1]
    return min(positions) if positions else -1


def _balanced_end(text: str, start: int) -> int:
    """Index of the bracket closing the one at ``start`` (strings respected), or -1."""
    closing = {"{": "}", "[": "]"}
    stack = [closing[text[start]]]
    in_string = escaped = False
    for index in range(start + 1, len(text)):
        ch = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in closing:
            stack.append(closing[ch])
        elif ch in "}]":
            if ch != stack.pop():
                return -1
            if not stack:
                return index
    return -1
