"""The alias store: one SQLite file holding the ``aliases_v3`` rules.

Two ways in:

* ``open_readonly(path)`` and the query helpers in ``dp.store.read`` are the
  hook's path: stdlib ``sqlite3`` only, never create the file, never migrate.
* ``Store.open(path)`` (``dp.store.write``) is the CLI's path: creates the file,
  applies ``migrations/`` and writes rules in immediate transactions.
"""

from __future__ import annotations

from dp.store.location import db_location

# The read helpers load with dp.rules.model; dp-capture, which needs only
# db_location, must not pay for them on every tool call.
_READ = ("all_rules", "open_readonly", "rules_for_tool", "schema_version", "tool_alias")


def resolve_db_path(explicit=None) -> "Path":
    """``explicit`` (the --db option) wins, then ``$DP_DB``, then ``~/.dp/dp.db``."""
    from pathlib import Path

    return Path(db_location(explicit))


def __getattr__(name):
    if name == "DEFAULT_DB":  # a Path for callers; pathlib stays off the hook's import path
        from pathlib import Path

        from dp.store.location import DEFAULT_DB

        return Path(DEFAULT_DB)
    if name in _READ:
        from dp.store import read

        return getattr(read, name)
    # The write path (migrations, datetime, pathlib) loads only when asked
    # for, so that importing this package stays cheap for the hook.
    if name in ("Store", "ImportReport", "SCHEMA_VERSION", "read_rules"):
        from dp.store import write

        return getattr(write, name)
    raise AttributeError(name)


__all__ = [
    "DEFAULT_DB",
    "ImportReport",
    "SCHEMA_VERSION",
    "Store",
    "all_rules",
    "db_location",
    "open_readonly",
    "read_rules",
    "resolve_db_path",
    "rules_for_tool",
    "schema_version",
    "tool_alias",
]
