"""Translation tables: data, not code, one TOML file per table in this folder.

Each table says how one family of tools spells the same things (how npm,
yarn, pnpm and bun install, add, run…) under one rule: what the table knows
is translated, anything else leaves the command untouched. Tables for one
tool pair (``grep-to-rg.toml``, ``find-to-fd.toml``: what a user's
``dp alias --cmd grep --replace rg`` translates) are read by
``dp.rules.tables.pairs``.

``load(name)`` is on the hook's path, where importing ``tomllib`` and parsing
costs more than the rest of a rewrite, so the parsed table is cached as JSON
in dp's cache directory, keyed by the TOML file's size and mtime; any problem
with the cache falls back to reading the TOML.
"""

from __future__ import annotations

import json
import os
import sys

from dp.cachedir import cache_dir, write_atomically

_loaded: dict = {}


def path(name: str) -> str:
    return os.path.join(os.path.dirname(__file__), f"{name}.toml")


def load(name: str) -> dict:
    """The table ``name`` (``package-managers`` …) as plain dicts and lists."""
    return load_path(path(name))


def load_path(source: str) -> dict:
    """The TOML file ``source`` as plain dicts and lists, through the JSON cache."""
    if source in _loaded:
        return _loaded[source]
    name = os.path.basename(source)[: -len(".toml")]
    stat = os.stat(source)
    cached = os.path.join(cache_dir(), f"table-{name}-{stat.st_size:x}-{stat.st_mtime_ns:x}.json")
    try:
        with open(cached, "rb") as handle:
            table = json.loads(handle.read())
    except (OSError, ValueError):
        table = _parse(source)
        try:
            write_atomically(cached, json.dumps(table).encode())
        except OSError:
            pass  # a read-only cache only costs the parse next time
    _loaded[source] = table
    return table


def _parse(source: str) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    with open(source, "rb") as handle:
        return tomllib.load(handle)
