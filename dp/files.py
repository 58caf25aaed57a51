"""Reading and changing a user's files safely: the one place dp does either.

Writes are lossless and atomic, or nothing happens: the new content goes to a
temporary file in the same directory as the real file, is fsynced, and
replaces it with one rename, so a crash, a full disk or a concurrent writer
never leaves half a settings.json, AGENTS.md or Makefile behind.

Symbolic links (dotfile managers, CLAUDE.md → AGENTS.md) are followed to the
file they name: that target is rewritten and the link stays a link. A link to
anything but a regular file (device, FIFO, socket, directory), a dangling
link and a link loop are refused before anything is written.

Reads never block: a user-named file is opened with ``O_NONBLOCK`` and read
only after ``fstat`` says it is a regular file, so a FIFO or a device in
place of a settings file, a commit message or a recipe is an error, not a
hang. Reads are bounded in size.

Backups of files dp changes go to the user's dp directory
(``~/.dp/backups/``), never beside the file: a repository's ``.claude/``
must not collect dp litter. They are named after the real (link-resolved)
file and the last ``BACKUP_GENERATIONS`` of each are kept.

A dry run (``--dry-run`` of every command that changes a person's files) is a
``Rehearsal``: while one is active, every change that goes through here —
writes, removals, directories, the ``claude plugin`` commands dp would run —
is recorded instead of made, and reads see the recorded content, so a command
runs its real code path and the rehearsal says exactly what it would have
changed. The store joins in (``dp.store.write``: an in-memory copy).
"""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path

from dp.errors import DpError

MAX_USER_FILE_BYTES = 16 * 1024 * 1024
BACKUP_GENERATIONS = 5
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


_rehearsal = None  # the active Rehearsal, if any


class Rehearsal:
    """A dry run: what dp would write, remove and run, recorded instead of done (``with Rehearsal() as r:``).

    One mechanism at the bottom, so a command needs no dry-run branch of its own: ``replace_file``,
    ``remove_file``, ``remove_tree``, ``make_directory``, ``set_mode`` and ``write_atomically`` (caches,
    backups) change nothing while it is active, and ``read_bytes`` returns what the rehearsal wrote.
    ``stores`` holds the store layer's in-memory copies of the stores the command opened.
    """

    def __init__(self):
        self.files: dict[str, list] = {}  # real path -> [content before, content now]; None: no file
        self.trees: list[str] = []
        self.commands: list[str] = []
        self.stores: dict = {}

    def __enter__(self) -> Rehearsal:
        global _rehearsal
        _rehearsal = self
        return self

    def __exit__(self, *exc) -> None:
        global _rehearsal
        _rehearsal = None
        for copy in self.stores.values():
            copy.close()

    def holds(self, path) -> bool:
        return os.path.realpath(path) in self.files

    def content(self, path) -> bytes | None:
        return self.files[os.path.realpath(path)][1]

    def record(self, target: Path, before: bytes | None, after: bytes | None) -> None:
        self.files.setdefault(str(target), [before, None])[1] = after

    def changes(self) -> list[dict]:
        """Each file whose content would change: ``describe_change`` of it, in the order first touched."""
        return [describe_change(Path(path), before, after) for path, (before, after) in self.files.items()
                if before != after]


def rehearsing() -> Rehearsal | None:
    """The active dry run, if any."""
    return _rehearsal


def would_run(command: str) -> bool:
    """Whether ``command`` (as a person would type it) must not run because a dry run records it instead."""
    if _rehearsal is None:
        return False
    _rehearsal.commands.append(command)
    return True


def describe_change(path: Path, before: bytes | None, after: bytes | None) -> dict:
    """One file a dry run would write or delete: its status and a unified diff of the change."""
    import difflib

    if before == after:
        status = "unchanged"
    elif after is None:
        status = "would be deleted"
    else:
        status = "would be created" if before is None else "would change"
    old = (before or b"").decode("utf-8", "replace").splitlines(keepends=True)
    new = (after or b"").decode("utf-8", "replace").splitlines(keepends=True)
    diff = difflib.unified_diff(old, new, fromfile=str(path) if before is not None else "/dev/null",
                                tofile=str(path) if after is not None else "/dev/null")
    return {"path": str(path), "status": status, "diff": "".join(diff)}


class FileChanged(DpError):
    """The file is not what the caller based its change on (a concurrent writer); nothing was written."""


def backups_dir() -> Path:
    """``~/.dp/backups``: beside the default store, in the user's dp directory."""
    return Path.home() / ".dp" / "backups"


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words (for error messages)."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def resolve(path) -> Path:
    """The regular file ``path`` stands for, following symbolic links.

    A path that does not exist (and is not a link) resolves to itself, ready
    to be created. Raises DpError for a dangling link, a link loop, and
    anything that exists but is not a regular file.
    """
    path = Path(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise DpError(
                f"{path} is a symbolic link to {os.readlink(path)}, which does not exist; "
                "create the target or remove the link (nothing was changed)"
            ) from None
        return Path(os.path.realpath(path))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise DpError(f"{path} is a symbolic link loop; fix or remove the link (nothing was changed)") from None
        raise DpError(f"cannot use {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise DpError(_not_regular(path, info.st_mode))
    return Path(os.path.realpath(path))


def _not_regular(path, mode: int) -> str:
    what = kind_of(mode)
    if os.path.islink(path):
        return f"{path} is a symbolic link to {what} ({os.path.realpath(path)}), not a regular file; dp reads and writes only regular files"
    return f"{path} is {what}, not a regular file; dp reads and writes only regular files"


def read_bytes(path, limit: int = MAX_USER_FILE_BYTES) -> bytes | None:
    """The content of the regular file ``path``, or None when it does not exist.

    Never blocks (FIFOs and devices are refused before they are read) and
    refuses files over ``limit`` bytes; both are DpErrors naming the file.
    During a dry run a file it changed reads as the rehearsal left it.
    """
    if _rehearsal is not None and _rehearsal.holds(path):
        return _rehearsal.content(path)
    try:
        return read_regular(path, limit)
    except FileNotFoundError:
        if os.path.islink(path):
            resolve(path)  # raises: a dangling link is not "no file"
        return None


def read_regular(path, limit: int = MAX_USER_FILE_BYTES, what: str = "", whole: bool = True) -> bytes:
    """Like ``read_bytes`` but a missing file raises ``FileNotFoundError``.

    ``what`` names the file in errors ("commit message file"). With ``whole``
    False a longer file is not an error: its first ``limit`` bytes are
    returned (callers pass limit + 1 to word their own size error).
    """
    label = f"{what} {path}" if what else str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise DpError(f"{label} is a symbolic link loop; fix or remove the link") from None
        if exc.errno == errno.EISDIR:
            raise DpError(f"{label} is a directory, not a file") from None
        raise DpError(f"cannot read {label}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise DpError(_not_regular(path, info.st_mode).replace(str(path), label, 1))
        if info.st_size > limit and whole:
            raise DpError(f"{label} is {info.st_size} bytes; dp reads at most {limit} bytes from it")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + int(whole) - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit and whole:
                raise DpError(f"{label} is over {limit} bytes; dp reads at most {limit} bytes from it")
        return b"".join(chunks)
    except OSError as exc:
        raise DpError(f"cannot read {label}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def replace_file(path, data: bytes, *, expected: bytes | None, backup: bool = False,
                 mode: int | None = None) -> Path | None:
    """Atomically give the user's file ``path`` the content ``data``.

    ``expected`` is the content the caller based its change on (None: the
    file did not exist, and it must still not exist when the new one is put
    in place); if the file changed in the meantime nothing is written. With
    ``backup`` the previous content is kept in the backups directory and the
    backup's path is returned. ``mode`` sets the file's permissions (default:
    the old file's, or the umask's for a new one).
    """
    target = resolve(path)
    if read_bytes(target) != expected:
        raise FileChanged(f"{path} changed while dp was editing it; nothing was written, run the command again")
    if expected is not None and _read_only(target) and not (_rehearsal and _rehearsal.holds(target)):
        # Replacing by rename would succeed anyway; a read-only file is the
        # user saying "do not change this", so we ask instead of overriding.
        raise DpError(f"{path} is read-only; make it writable (chmod u+w) and run again (nothing was changed)")
    if _rehearsal is not None:
        _rehearsal.record(target, expected, data)
        return None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode is None:
            mode = target.stat().st_mode & 0o7777 if expected is not None else default_mode()
        backup_path = save_backup(target, expected) if backup and expected is not None else None
        write_atomically(target, data, mode, exclusive=expected is None)
    except FileExistsError:
        raise FileChanged(f"{path} appeared while dp was writing it; nothing was written, run the command again") from None
    except OSError as exc:
        raise DpError(f"cannot write {path}: {exc.strerror or exc}; the file was not changed") from None
    return backup_path


def remove_file(path, *, expected: bytes) -> Path | None:
    """Delete the user's file ``path`` (content ``expected``) after backing it up; returns the backup
    (None in a dry run)."""
    target = resolve(path)
    if os.path.islink(path) or read_bytes(target) != expected:
        raise FileChanged(f"{path} changed while dp was editing it; nothing was written, run the command again")
    if _rehearsal is not None:
        _rehearsal.record(target, expected, None)
        return None
    try:
        backup_path = save_backup(target, expected)
        os.unlink(target)
    except OSError as exc:
        raise DpError(f"cannot remove {path}: {exc.strerror or exc}; the file was not changed") from None
    _fsync_directory(target.parent)
    return backup_path


def remove_tree(path) -> None:
    """Delete the directory ``path`` and everything in it (a dry run records it)."""
    import shutil

    if _rehearsal is not None:
        _rehearsal.trees.append(str(path))
        return
    try:
        shutil.rmtree(path)
    except OSError as exc:
        raise DpError(f"cannot remove {path}: {exc.strerror or exc}") from None


def remove_empty_directory(path) -> bool:
    """Remove ``path`` if it is an empty directory; whether it did (a dry run removes nothing)."""
    if _rehearsal is not None:
        return False
    try:
        os.rmdir(path)
    except OSError:
        return False
    return True


def discard(path) -> None:
    """Delete a file of dp's own working data (a spooled record), if it is still there; a dry run keeps it."""
    if _rehearsal is None:
        try:
            os.unlink(path)
        except OSError:
            pass


def missing_directories(path) -> list[Path]:
    """The directories a write of the file ``path`` would create, outermost first ([] when its directory
    exists): what dp made is what ``dp uninstall`` may take away again once it is empty."""
    missing, directory = [], resolve(path).parent
    while not directory.exists() and directory != directory.parent:
        missing.append(directory)
        directory = directory.parent
    return missing[::-1]


def make_directory(path) -> None:
    """``mkdir -p path`` (a dry run creates nothing: the writes into it are recorded instead)."""
    if _rehearsal is None:
        Path(path).mkdir(parents=True, exist_ok=True)


def set_mode(path, mode: int) -> None:
    """Give the existing file ``path`` the permissions ``mode`` (a dry run leaves them)."""
    if _rehearsal is None and stat.S_IMODE(os.stat(path).st_mode) != mode:
        os.chmod(path, mode)


def save_backup(target: Path, data: bytes) -> Path:
    """Keep ``data`` as the newest backup of ``target``; older generations beyond the limit go."""
    directory = backups_dir()
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    stem = _backup_stem(target)
    now = time.time_ns()
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now // 1_000_000_000)) + f".{now % 1_000_000_000:09d}Z"
    backup_path = directory / f"{stem}.{stamp}"
    write_atomically(backup_path, data, 0o600)
    generations = sorted(p for p in directory.iterdir() if _is_backup_of(p.name, stem))
    for old in generations[:-BACKUP_GENERATIONS]:
        try:
            old.unlink()
        except OSError:
            pass
    return backup_path


def backups_of(path) -> list[Path]:
    """The kept backups of the file ``path`` stands for, newest first ([] when none or unreadable)."""
    try:
        stem = _backup_stem(resolve(path))
        names = [p for p in backups_dir().iterdir() if _is_backup_of(p.name, stem)]
    except (DpError, OSError):
        return []
    return sorted(names, reverse=True)


def _backup_stem(target: Path) -> str:
    return str(target).strip(os.sep).replace(os.sep, "%")


def _is_backup_of(name: str, stem: str) -> bool:
    return name.startswith(stem + ".") and name[len(stem) + 1 : len(stem) + 2].isdigit()


def _read_only(path: Path) -> bool:
    """No write permission for us, or (even for root) no owner write bit."""
    return not os.access(path, os.W_OK) or not path.stat().st_mode & stat.S_IWUSR


def write_atomically(target, data: bytes, mode: int | None = None, exclusive: bool = False) -> None:
    """Put ``data`` at ``target`` by temp file + fsync + rename (the only atomic writer).

    With ``exclusive`` the file is linked into place instead, which fails with
    ``FileExistsError`` if something appeared there meanwhile.
    """
    import tempfile  # not at the top: the hook writes its cache through here only on a miss

    if _rehearsal is not None:  # a cache or a backup: nothing a dry run reports, nothing it may write
        return
    target = Path(target)
    mode = default_mode() if mode is None else mode
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, mode)
        if exclusive:
            _link_into_place(temp_name, target)
        else:
            os.replace(temp_name, target)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise
    _fsync_directory(target.parent)


def _link_into_place(temp_name: str, target: Path) -> None:
    """Hard-link the finished file to its name (fails if taken); rename where links are unsupported."""
    try:
        os.link(temp_name, target)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK):
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "File exists", str(target)) from None
        os.replace(temp_name, target)
        return
    os.unlink(temp_name)


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


def default_mode() -> int:
    """What a new file gets under the current umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
