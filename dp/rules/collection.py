"""Shareable rule collections: the Go tool's ``[meta]`` + ``[[aliases]]`` format.

TOML or JSON with the same shape, so files exported by the Go ``dp`` import
here unchanged and ours import there. ``created_at`` is not exported: it is
set when a rule is imported.
"""

from __future__ import annotations

import json
import socket
import sys
from datetime import datetime

from dp.errors import DpError
from dp.rules.build import RuleError, normalize_flag, validate_rule
from dp.rules.model import FLAG, Rule

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

FORMAT_VERSION = 1
FORMATS = ("toml", "json")
# Collection field → rule field; the collection omits empty values.
_FIELD_MAP = (
    ("from", "from_name"),
    ("to", "to_name"),
    ("tool", "tool"),
    ("param", "param"),
    ("command", "command"),
    ("match_kind", "match_kind"),
    ("message", "message"),
)
_KNOWN_FIELDS = {name for name, _ in _FIELD_MAP}


def build_collection(rules: list[Rule], exported_at: datetime, name="", description="", author="") -> dict:
    meta: dict = {"version": FORMAT_VERSION}
    for key, value in (("name", name), ("description", description), ("author", author)):
        if value:
            meta[key] = value
    meta.update({"exported_at": exported_at, "source": socket.gethostname(), "count": len(rules)})
    return {"meta": meta, "aliases": [entry(rule) for rule in rules]}


def entry(rule: Rule) -> dict:
    """One ``[[aliases]]`` entry: ``from`` and ``to``, then the fields that are not empty."""
    return {field: getattr(rule, attr) for field, attr in _FIELD_MAP if field in ("from", "to") or getattr(rule, attr)}


def dumps(collection: dict, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(collection, indent=2, ensure_ascii=False, default=_iso_utc) + "\n"
    if fmt == "toml":
        return _dumps_toml(collection)
    raise DpError(f"unknown format {fmt!r}: use toml or json")


def parse(text: str, fmt: str | None = None) -> list[Rule]:
    """Parse and validate a collection. Raises DpError naming the first bad entry.

    ``fmt`` None tries TOML, then JSON.
    """
    data = _load(text, fmt)
    # An export of an empty store has [meta] and no [[aliases]]; a file with neither is something else.
    if not isinstance(data, dict) or not isinstance(data.get("aliases", []), list) \
            or not {"meta", "aliases"} & data.keys():
        raise DpError("not an alias collection: expected a [meta] table and [[aliases]] entries")
    rules = []
    for index, entry in enumerate(data.get("aliases", []), start=1):
        try:
            rules.append(_entry_to_rule(entry))
        except RuleError as exc:
            raise EntryError(index, exc.message) from None
    return rules


class EntryError(DpError):
    """One entry of a collection cannot be a rule: which (1-based) and why, so a caller
    that knows where entries start (a project file) can name the line."""

    def __init__(self, index: int, reason: str):
        super().__init__(f"entry {index}: {reason}; nothing was imported")
        self.index, self.reason = index, reason


def _entry_to_rule(entry) -> Rule:
    if not isinstance(entry, dict):
        raise RuleError("not a table of from/to/… fields")
    unknown = sorted(set(entry) - _KNOWN_FIELDS)
    if unknown:
        raise RuleError(f"unknown field {unknown[0]!r} (known: {', '.join(name for name, _ in _FIELD_MAP)})")
    values = {}
    for field, attr in _FIELD_MAP:
        value = entry.get(field, "")
        if not isinstance(value, str):
            raise RuleError(f"field {field!r} must be a string")
        values[attr] = value
    rule = Rule(**values)
    if rule.match_kind == FLAG:
        rule.from_name, rule.to_name = normalize_flag(rule.from_name), normalize_flag(rule.to_name)
    return validate_rule(rule)


_FORMAT_HINT = "`dp aliases export` prints a collection in the format dp reads"


def _load(text: str, fmt: str | None):
    """The parsed collection; a document nested beyond reason is refused, not a crash."""
    try:
        if fmt == "json" or (fmt is None and text.lstrip().startswith("{")):
            try:
                return json.loads(text)
            except json.JSONDecodeError as exc:
                raise DpError(f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}; "
                              f"correct it there ({_FORMAT_HINT})") from None
        from dp.rules import fast_toml

        fast = fast_toml.loads(text)
        if fast is not None:
            return fast
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise DpError(f"invalid TOML: {exc}; correct it there ({_FORMAT_HINT})") from None
    except RecursionError:
        raise DpError("the collection is nested too deeply to be a dp collection (arrays or tables inside each other)") from None


def _dumps_toml(collection: dict) -> str:
    """TOML for this one flat shape; JSON string escapes are valid TOML basic strings."""
    lines = ["[meta]"]
    lines += [f"{key} = {_toml_value(value)}" for key, value in collection["meta"].items()]
    for entry in collection["aliases"]:
        lines += ["", "[[aliases]]"]
        lines += [f"{key} = {_toml_value(value)}" for key, value in entry.items()]
    return "\n".join(lines) + "\n"


def _toml_value(value) -> str:
    if isinstance(value, datetime):
        return _iso_utc(value)  # a TOML offset date-time, as the Go tool writes it
    if isinstance(value, int):
        return str(value)
    # JSON leaves DEL unescaped; TOML forbids it raw in a string.
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


def _iso_utc(value: datetime) -> str:
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")
