"""Changing a user's file losslessly and atomically, or not at all.

A crash, a full disk or a concurrent writer must never leave a half-written
settings.json or AGENTS.md: the new content goes to a temporary file in the
same directory, is fsynced, and replaces the old file with one rename. A
symlinked file (dotfile managers, CLAUDE.md → AGENTS.md) is written through to
its target, so the link survives.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from dp.errors import DpError

BACKUP_SUFFIX = ".dp-backup"


def read_bytes(path: Path) -> bytes | None:
    """The file's content, or None when it does not exist."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise DpError(f"{path} is a directory, not a file") from None
    except OSError as exc:
        raise DpError(f"cannot read {path}: {exc.strerror}") from None


def replace_file(path: Path, data: bytes, *, expected: bytes | None, backup: bool = False) -> Path | None:
    """Atomically give ``path`` the content ``data``.

    ``expected`` is the content the caller based its change on (None: the
    file did not exist); if the file changed in the meantime nothing is
    written. With ``backup`` the previous content is kept next to the file
    as ``<name>.dp-backup``, whose path is returned.
    """
    target = Path(os.path.realpath(path))
    if read_bytes(target) != expected:
        raise DpError(f"{path} changed while dp was editing it; nothing was written, run the command again")
    if expected is not None and _read_only(target):
        # Replacing by rename would succeed anyway; a read-only file is the
        # user saying "do not change this", so we ask instead of overriding.
        raise DpError(f"{path} is read-only; make it writable (chmod u+w) and run again (nothing was changed)")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        mode = target.stat().st_mode & 0o7777 if expected is not None else _default_mode()
        backup_path = None
        if backup and expected is not None:
            backup_path = target.with_name(target.name + BACKUP_SUFFIX)
            _write_atomically(backup_path, expected, mode)
        _write_atomically(target, data, mode)
    except OSError as exc:
        raise DpError(f"cannot write {path}: {exc.strerror or exc}; the file was not changed") from None
    return backup_path


def _read_only(path: Path) -> bool:
    """No write permission for us, or (even for root) no owner write bit."""
    return not os.access(path, os.W_OK) or not path.stat().st_mode & stat.S_IWUSR


def _write_atomically(target: Path, data: bytes, mode: int) -> None:
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, target)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise
    _fsync_directory(target.parent)


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable (POSIX); not possible everywhere."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
