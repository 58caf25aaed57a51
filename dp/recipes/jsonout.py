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
# Characters the bracket search may scan in all, about two passes over the largest captured
# output: text full of brackets that never close would otherwise cost every candidate a full scan.
MAX_SCAN_CHARS = 2_000_000


def parse_output(text: str) -> Any:
    """``text`` as JSON when all of it is JSON, else ``text`` itself (for the context)."""
    stripped = text.strip()
    if not stripped:
        return stripped
    try:
        return json.loads(stripped)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than json can read
        return stripped


def extract_json(text: str) -> tuple[bool, Any]:
    """(True, value) for the first JSON document found in ``text``, else (False, None)."""
    for candidate in _candidates(text):
        try:
            value = json.loads(candidate)
        except (ValueError, RecursionError):
            continue
        return True, value
    return False, None


def _candidates(text: str):
    yield text.strip()
    for match in _FENCE.finditer(text):
        yield match.group(1).strip()
    start = _first_bracket(text, 0)
    tries, budget = 0, MAX_SCAN_CHARS
    while start != -1 and tries < MAX_BRACKET_CANDIDATES and budget > 0:
        tries += 1
        stop = min(len(text), start + budget)
        end = _balanced_end(text, start, stop)
        budget -= (end + 1 if end != -1 else stop) - start
        if end != -1:
            yield text[start:end + 1]
        start = _first_bracket(text, start + 1)


def _first_bracket(text: str, start: int) -> int:
    positions = [p for p in (text.find("{", start), text.find("[", start)) if p != -1]
    return min(positions) if positions else -1


def _balanced_end(text: str, start: int, stop: int) -> int:
    """Index of the bracket closing the one at ``start`` (strings respected) before ``stop``, or -1."""
    closing = {"{": "}", "[": "]"}
    stack = [closing[text[start]]]
    in_string = escaped = False
    for index in range(start + 1, stop):
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
