"""Where a path is: inside a root or not, and the directories above it.

Two questions come back all over dp — "does this path stay inside that root?"
(``--cwd``, a recipe file, a git path, a working_dir) and "which directories
lie between here and the project root?" (the repository root, lockfiles of a
workspace, cargo configs, the hook's detection markers). Each is answered
here once, so every caller resolves symlinks the same way and every walk is
bounded the same way.

This is not ``dp.files``: that module reads and writes user files; this one
only computes with paths and ``stat``s directories. It is stdlib-only and
imports neither ``typing`` nor, until a ``Path`` is asked for, ``pathlib`` (3 ms),
so the hook's paving path (``walk_up_text``) can use it for free.
"""

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # for type checkers only: the annotations below are strings, never evaluated
    from collections.abc import Iterator
    from pathlib import Path

    PathLike = str | os.PathLike[str]

# Deeper than this is not a project layout worth walking (and bounds every walk).
MAX_DEPTH = 40


def inside(path: "PathLike", root: "PathLike") -> bool:
    """Whether ``path`` is ``root`` or below it, comparing the paths as given.

    Both must already be absolute and normalised (``realpath``/``resolve``,
    or the way ``pathlib`` spells them): this compares, it does not resolve.
    ``/srv/ab`` is not inside ``/srv/a``.
    """
    path, root = os.fspath(path), os.fspath(root)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def confined(path: "PathLike", root: "PathLike", *, strict: bool = False) -> "Path | None":
    """``path`` with every symlink resolved, if that real path lies inside ``root``'s; else None.

    ``..``, an absolute path elsewhere and a symlink (anywhere along the path)
    pointing out all give None. ``strict`` also gives None when the path does
    not exist (or a symlink loops).
    """
    from pathlib import Path

    try:
        real = Path(path).resolve(strict=strict)
        boundary = Path(root).resolve(strict=strict)
    except (OSError, RuntimeError):
        return None
    return real if inside(real, boundary) else None


def walk_up(start: "PathLike", stop: "PathLike | None" = None, *, limit: int = MAX_DEPTH) -> "Iterator[Path]":
    """``start``, then each parent, nearest first: the one walk up to a project root.

    The walk ends after ``stop`` (the repository root, a workspace root); a
    ``start`` that is not below ``stop`` yields only itself, so nothing
    outside ``stop`` is ever looked at. Without ``stop`` it ends at the
    filesystem root. It never yields more than ``limit`` directories. Paths
    are taken as given (resolve ``start`` first for real parents).
    """
    from pathlib import Path

    folder = Path(start)
    boundary = None if stop is None else Path(stop)
    for _ in range(limit):
        yield folder
        if boundary is not None and (folder == boundary or not inside(folder, boundary)):
            return
        if folder.parent == folder:
            return
        folder = folder.parent


def walk_up_text(start: str, *, limit: int = MAX_DEPTH) -> "Iterator[str]":
    """``walk_up(start)`` for an absolute, normalised ``start`` (a ``realpath``), as strings:
    the hook's walk, without importing ``pathlib``."""
    folder = os.path.normpath(start)
    for _ in range(limit):
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


def find_upwards(start: "PathLike", marker: str, stop: "PathLike | None" = None) -> "Path | None":
    """The nearest directory at or above ``start`` (up to ``stop``) holding ``marker``."""
    return next((folder for folder in walk_up(start, stop) if (folder / marker).exists()), None)
