"""Where dp keeps derived data it can always rebuild (bashlex tables, compiled recipes)."""

from __future__ import annotations

import os


def cache_dir() -> str:
    """``$XDG_CACHE_HOME/dp``, else ``~/.cache/dp``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dp")


def write_atomically(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` through dp's one atomic writer (safe under concurrency).

    ``dp.files`` is imported here, on a cache miss, not on the hook's every call.
    """
    from dp.files import write_atomically as write

    os.makedirs(os.path.dirname(path), exist_ok=True)
    write(path, data)
