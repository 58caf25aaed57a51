"""Where dp keeps derived data it can always rebuild (bashlex tables, compiled recipes),
and how its own small state files (paving switch, cache, session notes) are read and written."""

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


def read_json_object(path: str, limit: int) -> dict:
    """The JSON object in dp's own file ``path``; ``{}`` when it is missing, broken, over ``limit``
    bytes or not an object — such a file is only ever a cache or a default, never worth an error."""
    import json

    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read(limit))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
