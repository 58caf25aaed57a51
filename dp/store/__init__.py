"""The store: one SQLite file (``~/.dp/dp.db``, or --db / ``$DP_DB``), and every SQL statement dp runs.

Plain ``sqlite3``, no database library, for three reasons:

* **the hooks' import cost** — pave-check and dp-capture start once per tool
  call; the stdlib module is all they may load (a library costs them
  milliseconds every call, see integration_tests/test_hook_imports.py);
* **whole transactions** — every write is one ``BEGIN IMMEDIATE`` …
  ``COMMIT`` (``connection.transaction``), so concurrent ``dp`` processes and
  capturing sessions queue on SQLite's lock and readers in WAL mode only see
  whole changes; explicit SQL keeps that visible in one place;
* **migrations we can read** — numbered ``migrations/NNNN_*.sql`` files,
  applied in one transaction and recorded in ``PRAGMA user_version``
  (``migrations``); a store from a newer dp is never migrated down.

One connection helper (``connection.connect``) sets the busy timeout and
autocommit mode for every opener: the hook's read-only open
(``read.open_readonly``, never creates or migrates; an immutable read on a
read-only file system), the CLI's ``Store.open`` (creates, migrates, WAL) and
the capture hook's writer. The hook reads the store directly through
``read`` — a primary-key lookup and one indexed query — because nothing
between it and ``sqlite3`` may cost it time.

Tables and the modules that hold their SQL (tests/test_maps.py holds this table to the tables a
store migrated from ``migrations/`` has):

==================  =====================================================
``aliases_v3``      ``read`` (the hook's lookups), ``write`` (``Store``:
                    the CLI's reads and writes)
``shadow_rules``    ``read`` (the hook), ``write`` (rules that only record
                    what they would do: ``dp alias --shadow``)
``recipe_programs`` ``read`` (the hook), ``write`` (kept with recipe rules)
``rule_origins``    ``write`` (which rules ``dp suggest --apply`` made:
                    the only ones dp may switch off; migration 0013)
``switched_off_rules`` ``write`` (rules dp switched off, with why and
                    when; ``read`` leaves them out of the acting rules)
``installs``        ``installs`` (where dp wrote itself into user files)
``desires``         ``desires`` (captured tool calls)
``actions``         ``actions`` (what dp did to agents' calls: ``dp stats``)
``learned``         ``learned`` (answers learned from what agents ran next)
``told``            ``learned`` (which session heard which change, learned
                    or known: migration 0012)
``project_trust``   ``trust`` (which project rule files, with which content,
                    in which repository, this user trusts: ``dp trust``;
                    ``project_trust_by_root`` while migration 0006 ran)
schema version      ``migrations`` (``PRAGMA user_version``)
==================  =====================================================

``location`` says where the file is; ``go_desires`` reads the one foreign
database dp imports (the Go desire-path tool's ``desires.db``, read-only).
"""

from dp.store.location import db_location

TYPE_CHECKING = False
if TYPE_CHECKING:  # the annotation below is a string: pathlib loads only when a path is asked for
    from pathlib import Path

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
    if name in ("Store", "ImportReport", "SCHEMA_VERSION"):
        from dp.store import write

        return getattr(write, name)
    if name in ("read_rules", "reading"):
        from dp.store import readers

        return getattr(readers, name)
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
    "reading",
    "resolve_db_path",
    "rules_for_tool",
    "schema_version",
    "tool_alias",
]
