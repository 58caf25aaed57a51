"""Where dp keeps derived data it can always rebuild (bashlex tables, compiled recipes)."""

from __future__ import annotations

import os


def cache_dir() -> str:
    """``$XDG_CACHE_HOME/dp``, else ``~/.cache/dp``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dp")


def write_atomically(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and a rename (safe under concurrency)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)  # a full disk must not leave litter behind
        except OSError:
            pass
        raise
