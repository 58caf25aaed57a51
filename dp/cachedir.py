"""Where dp keeps derived data it can always rebuild (bashlex tables, compiled recipes, the
help page), and how its own small state files (paving switch, cache, session notes) are read
and written."""

import os


def cache_dir() -> str:
    """``$XDG_CACHE_HOME/dp``, else ``~/.cache/dp``.

    A relative ``XDG_CACHE_HOME`` is ignored, as the XDG base directory spec says: taken as
    given, it would put a cache into whatever directory dp runs in (a project's work tree).
    """
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dp")


# In the cache directory: the directories above it dp created with it (``~/.cache`` on a new
# machine), one per line, so ``dp uninstall --purge`` takes them too once they are empty.
MADE_ABOVE = "made-above"


def _make(directory: str) -> None:
    """``mkdir -p directory``; when that makes the cache directory and directories above it, note them."""
    root = cache_dir()
    above, current = [], os.path.dirname(root)
    while (directory == root or directory.startswith(root + os.sep)) and not os.path.isdir(current):
        above.append(current)
        current = os.path.dirname(current)
    os.makedirs(directory, exist_ok=True)
    if above:
        with open(os.path.join(root, MADE_ABOVE), "a", encoding="utf-8") as handle:
            handle.writelines(f"{made}\n" for made in above)


def made_above() -> list[str]:
    """The directories above the cache directory that dp created, innermost first."""
    try:
        with open(os.path.join(cache_dir(), MADE_ABOVE), encoding="utf-8") as handle:
            return list(dict.fromkeys(line.rstrip("\n") for line in handle if line.strip()))
    except OSError:
        return []


def write_atomically(path: str, data: bytes) -> None:
    """Put ``data`` at ``path`` whole or not at all (safe under concurrency): a temporary file
    beside it, renamed over it.

    For what can be rebuilt or lost (caches, session notes), unlike ``dp.files.write_atomically``
    for the user's files: no fsync, so a crash costs at most an entry, read back as a miss; and
    no ``pathlib``/``tempfile`` (~3 ms), because the hooks write here on their own paths (Gemini
    CLI's note for every rewrite, a cache miss).
    """
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        _make(directory)
    while True:
        temp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        break
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


# The largest prime below 2**32: a stamp's bytes, read as one integer, modulo this name its file.
_NAME_MODULUS = 0xFFFFFFFB


def stamped_path(prefix: str, stamp: str) -> str:
    """The cache file for ``stamp`` (what the cached value was derived from).

    The name carries a short checksum of the stamp, not a collision-proof hash: the file keeps
    the whole stamp and ``read_stamped`` returns its value only when it matches. The checksum is
    the stamp's bytes as one integer modulo a prime, which Python computes in C without an
    import: importing hashlib costs ~2 ms, a tenth of a hook run, and even zlib (for ``crc32``)
    cost the hook's project-layer path more than the rest of its cache read.
    """
    data = stamp.encode("utf-8", "surrogatepass")
    checksum = int.from_bytes(data, "little") % _NAME_MODULUS
    return os.path.join(cache_dir(), f"{prefix}-{checksum:08x}{len(data):x}.marshal")


def read_stamped(prefix: str, stamp: str):
    """The value kept for exactly ``stamp``, or None (missing, unreadable or another stamp's).

    Read whole, then ``marshal.loads``: ``marshal.load`` on a file reads it in tiny pieces,
    through Python's I/O layer, and took 1.3 ms of every hook run on a 12 kB project-rules entry
    (0.08 ms this way).
    """
    import marshal

    try:
        with open(stamped_path(prefix, stamp), "rb") as handle:
            stored, value = marshal.loads(handle.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return value if stored == stamp else None


def write_stamped(prefix: str, stamp: str, value) -> None:
    """Keep ``value`` (marshal-able) for ``stamp``; a cache that cannot be written is skipped."""
    import marshal

    try:
        write_atomically(stamped_path(prefix, stamp), marshal.dumps((stamp, value)))
    except (OSError, ValueError):
        pass


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
