"""The working directory every project action runs in, and paths confined to it.

An agent names the directory and the paths; dp refuses anything that would
act outside the user's own project: ``/`` and system directories, directories
the user does not own or cannot write, and paths that leave the tree through
``..``, an absolute path or a symlink.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Union

from dp.errors import DpError
from dp.paths import inside

# Refused with everything below them.
SYSTEM_TREES = (
    "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr", "/etc", "/sys",
    "/proc", "/dev", "/boot", "/var/lib", "/var/log", "/var/cache", "/var/spool",
    "/var/run", "/var/lock", "/var/mail", "/System", "/private/etc",
)
# Refused themselves; projects may live below them (/var/tmp, /var/www, /private/var/folders).
SYSTEM_DIRECTORIES = ("/", "/var", "/private", "/private/var")

PathLike = Union[str, "os.PathLike[str]"]


def working_directory(requested: PathLike | None = None) -> Path:
    """The real path of ``requested`` (default: the current directory), if dp may act there."""
    spelled = Path(os.path.abspath(os.fspath(requested) if requested is not None else os.getcwd()))
    resolved = Path(os.path.realpath(spelled))
    if not resolved.exists():
        raise DpError(f"working directory {spelled} does not exist; pass --cwd with your project directory")
    if not resolved.is_dir():
        raise DpError(f"{spelled} is not a directory; pass --cwd with your project directory")
    for path in {spelled, resolved}:
        if _is_system_directory(path):
            raise DpError(
                f"refusing to work in {path}: it is a system directory; "
                "pass --cwd with your project directory"
            )
    info = resolved.stat()
    if info.st_uid != os.geteuid():
        raise DpError(
            f"refusing to work in {resolved}: it is owned by uid {info.st_uid}, not you "
            f"(uid {os.geteuid()}); pass --cwd with a directory you own"
        )
    if not info.st_mode & stat.S_IWUSR:
        raise DpError(
            f"refusing to work in {resolved}: it is not writable by its owner "
            f"(mode {stat.filemode(info.st_mode)}); run `chmod u+w {resolved}` or pass --cwd"
        )
    return resolved


def _is_system_directory(path: Path) -> bool:
    text = str(path)
    if text in SYSTEM_DIRECTORIES:
        return True
    return any(inside(text, tree) for tree in SYSTEM_TREES)


def confine(root: Path, raw: str) -> str:
    """``raw`` (relative to ``root``, or absolute) as a path relative to ``root``.

    Parent directories are resolved through symlinks; the last component is
    kept as named, so an in-tree symlink is staged as the link itself, but a
    symlink pointing outside ``root`` is refused like any other escape.
    ``root`` must be a real path (``working_directory`` returns one).
    """
    shown = json.dumps(raw)
    if not raw:
        raise DpError("empty path; name a file or directory inside the working directory")
    if "\0" in raw:
        raise DpError(f"path {shown} contains a NUL byte")
    joined = os.path.join(root, raw)
    if not inside(Path(os.path.normpath(joined)), root):
        raise DpError(f"path {shown} is outside the working directory {root}; name paths inside it")
    parent, name = os.path.split(joined.rstrip("/"))
    if name in (".", ".."):
        candidate = Path(os.path.realpath(joined))
        escapes = not inside(candidate, root)
    else:
        candidate = Path(os.path.realpath(parent)) / name
        escapes = not inside(candidate, root) or (
            candidate.is_symlink() and not inside(Path(os.path.realpath(candidate)), root)
        )
    if escapes:
        raise DpError(
            f"path {shown} leads outside the working directory {root} through a symlink; "
            "name paths inside it"
        )
    return os.path.relpath(candidate, root)
