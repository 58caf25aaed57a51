"""A directory a repository commits for an agent to run (a plugin), pinned by its files.

A committed Claude Code plugin (``.claude/dp-plugin``) is the committer's code: once registered,
the client runs its hook commands, its mod's TypeScript and its MCP server in every session of
the project. So dp registers one (``dp init``) only in a repository the person trusted, and only
while its files are the ones they trusted, like a layer file's bytes: ``dp trust`` records one
SHA-256 over every file under the directory (its path there, whether it is executable, the
SHA-256 of its bytes) with the repository (``dp.store.trust``, kind ``plugin``), and ``state``
compares the directory as it is now. Any change — an edited hook command, a new or removed file,
a mode bit — makes it a plugin nobody trusted until ``dp trust`` again.

A directory dp cannot pin is never trusted: a link leading out of the repository (or to a
directory: the walk does not follow them), anything but files and directories, more than
``MAX_FILES`` entries or ``MAX_BYTES`` bytes.
"""

from __future__ import annotations

import os
import stat

from dp.layers.effective import BROKEN, CHANGED, OUTSIDE, TRUSTED, UNTRUSTED

MAX_FILES = 1000
MAX_BYTES = 32 << 20


class Pinned:
    """A committed directory as read now: ``files`` (relative path, size, sha256, executable),
    their digest ``sha256``, or the ``problem`` that keeps it from being pinned."""

    __slots__ = ("path", "real", "files", "sha256", "problem", "outside")

    def __init__(self, path: str, real: str, files=(), sha256: str = "", problem: str = "", outside: bool = False):
        self.path, self.real, self.files, self.sha256 = path, real, list(files), sha256
        self.problem, self.outside = problem, outside


def read(directory, real_root: str) -> Pinned:
    """The directory ``directory`` of the repository whose real root is ``real_root``, pinned."""
    import hashlib

    from dp.paths import inside

    path = os.path.abspath(str(directory))
    real = os.path.realpath(path)
    if not inside(real, real_root):
        return Pinned(path, real, problem=f"it is a link to {real}, outside this repository", outside=True)
    try:
        files = _files(real, real_root)
    except _Refused as exc:
        return Pinned(path, real, problem=str(exc), outside=exc.outside)
    digest = hashlib.sha256()
    for relative, _, sha256, executable in files:
        digest.update(f"{relative}\0{'x' if executable else '-'}\0{sha256}\n".encode("utf-8", "surrogateescape"))
    return Pinned(path, real, files, digest.hexdigest())


class _Refused(Exception):
    """What keeps a directory from being pinned, in words (``outside``: a link leaves the repository)."""

    def __init__(self, message: str, outside: bool = False):
        super().__init__(message)
        self.outside = outside


def _files(real: str, real_root: str) -> list[tuple[str, int, str, bool]]:
    """``(relative path, size, sha256, executable)`` of every file under ``real``, sorted."""
    import hashlib

    from dp.files import read_regular
    from dp.paths import inside

    found, total, seen = [], 0, 0

    def fail(error: OSError) -> None:
        raise _Refused(f"cannot read {error.filename}: {error.strerror}")

    for folder, directories, names in os.walk(real, onerror=fail):
        seen += len(directories) + len(names)
        if seen > MAX_FILES:
            raise _Refused(f"it holds more than {MAX_FILES} entries")
        for name in sorted(directories + names):
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, real)
            target = os.path.realpath(path)
            if not inside(target, real_root):
                raise _Refused(f"{relative} is a link to {target}, outside this repository", outside=True)
            try:
                info = os.stat(path)
            except OSError as exc:
                raise _Refused(f"cannot read {relative}: {exc.strerror}") from None
            if name in directories:
                if os.path.islink(path):
                    raise _Refused(f"{relative} is a link to a directory ({target})")
                continue
            if not stat.S_ISREG(info.st_mode):
                from dp.files import kind_of

                raise _Refused(f"{relative} is {kind_of(info.st_mode)}, not a file")
            total += info.st_size
            if total > MAX_BYTES:
                raise _Refused(f"its files hold more than {MAX_BYTES >> 20} MiB")
            data = read_regular(path, MAX_BYTES)
            found.append((relative, len(data), hashlib.sha256(data).hexdigest(), bool(info.st_mode & 0o111)))
    return sorted(found)


def state(records: dict, pinned: Pinned) -> str:
    """Whether ``pinned`` is trusted as it is, given the repository's trust ``records``
    (``dp.store.read.trust_records``): TRUSTED, UNTRUSTED, CHANGED, or BROKEN/OUTSIDE when it
    cannot be pinned at all."""
    if pinned.problem:
        return OUTSIDE if pinned.outside else BROKEN
    recorded = records.get(pinned.real)
    return TRUSTED if recorded == pinned.sha256 else UNTRUSTED if recorded is None else CHANGED
