"""Where the store is: one tiny module, because every hook process asks."""

DEFAULT_DB = "~/.dp/dp.db"


def db_location(explicit=None) -> str:
    """The store's path as a string: ``explicit`` (--db), else ``$DP_DB``, else ``~/.dp/dp.db``.

    A string, not a Path: the hook calls this on every tool call and pathlib
    costs it a few milliseconds to import.
    """
    import os

    return os.path.expanduser(str(explicit or os.environ.get("DP_DB") or DEFAULT_DB))
