"""A fast reader for the flat TOML that rule collections are written in.

``tomllib`` is pure Python: a 100,000-rule collection took twice as long to
import from TOML as from JSON, all of it in the parser. Collections are flat
— a ``[meta]`` table and ``[[aliases]]`` tables of ``key = "string"`` lines —
so this reader handles exactly that shape line by line and decodes strings with
the C JSON decoder (TOML basic strings with the escapes both formats share are
JSON strings). Anything else — other tables, dotted or quoted keys, multi-line
strings, ``\\U`` escapes, a repeated key, bad syntax — returns None, and the
caller reads the document with ``tomllib``, which gives the exact error.
Values other than strings (integers, dates of ``[meta]``) go through
``tomllib`` one by one, so every value is what ``tomllib`` would return.
"""

from __future__ import annotations

import json
import re
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

# Characters TOML forbids unescaped in strings and comments (tab is allowed).
_CONTROL = r"\x00-\x08\x0a-\x1f\x7f"
_LINE = re.compile(
    rf"""[ \t]*(?:
        (?P<key>[A-Za-z0-9_-]+)[ \t]*=[ \t]*
        (?:"(?P<basic>(?:[^"\\{_CONTROL}]|\\[btnfr"\\]|\\u[0-9A-Fa-f]{{4}})*)"
          |'(?P<literal>[^'{_CONTROL}]*)'
          |(?P<other>[^ \t#"'{_CONTROL}][^#{_CONTROL}]*?))
        |(?P<table>\[[ \t]*meta[ \t]*\]|\[\[[ \t]*aliases[ \t]*\]\])
    )?[ \t]*(?:\#[^{_CONTROL}]*)?""",
    re.VERBOSE,
)
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def loads(text: str) -> dict | None:
    """The collection in ``text`` as ``tomllib.loads`` would return it, or None to use tomllib."""
    document: dict = {}
    current: dict = document
    for line in text.split("\n"):
        match = _LINE.fullmatch(line[:-1] if line.endswith("\r") else line)
        if match is None:
            return None
        key = match["key"]
        if key is None:
            if match["table"] is not None:
                table = _open_table(document, match["table"])
                if table is None:
                    return None
                current = table
            continue
        if current is document or key in current:  # top-level keys: not a collection's shape
            return None
        value = _value(match)
        if value is None:
            return None
        current[key] = value
    return document


def _open_table(document: dict, header: str) -> dict | None:
    if header.startswith("[["):
        table: dict = {}
        document.setdefault("aliases", []).append(table)
        return table
    if "meta" in document:
        return None
    document["meta"] = {}
    return document["meta"]


def _value(match: re.Match):
    if match["basic"] is not None:
        raw = match["basic"]
        if "\\u" in raw and _SURROGATE.search(raw):
            return None
        return json.loads(f'"{raw}"', strict=False) if "\\" in raw else raw
    if match["literal"] is not None:
        return match["literal"]
    try:
        return tomllib.loads(f"v = {match['other']}")["v"]
    except tomllib.TOMLDecodeError:
        return None
