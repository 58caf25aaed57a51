"""Where the store is: one tiny module, because every hook process asks."""

DEFAULT_DB = "~/.dp/dp.db"
# Beside the store: the file whose token and time say when the rules last changed (dp.store.write
# writes it on every committed rule or trust change; one per directory, so a change in any store
# there counts for all), and, per store (its name plus this suffix), what the hook derives from
# its rules to answer calls no rule is keyed on without opening it (dp.hook.gate).
RULES_STAMP = "rules.changed"
HOOK_GATE_SUFFIX = ".hook-gate"


def db_location(explicit=None) -> str:
    """The store's path as a string: ``explicit`` (--db), else ``$DP_DB``, else ``~/.dp/dp.db``.

    A string, not a Path: the hook calls this on every tool call and pathlib
    costs it a few milliseconds to import.
    """
    import os

    return os.path.expanduser(str(explicit or os.environ.get("DP_DB") or DEFAULT_DB))


def hook_gate(explicit=None) -> str:
    """The hook's gate of the store ``db_location(explicit)`` names: its own file beside it (stores may
    share a directory), by the store's absolute path."""
    import os

    return os.path.abspath(db_location(explicit)) + HOOK_GATE_SUFFIX
