"""Finding a project's rule files: a bounded, stat-only walk up to the repository root.

Imported by the hook on every call that carries a working directory, so it is
stdlib-only, never opens a file and never imports ``pathlib``: one ``stat``
per directory up to the nearest ``.git`` (a directory, or a worktree's file),
bounded by ``dp.paths.MAX_DEPTH``, then one per layer file at that root. A
call outside any repository has no project layer.
"""

import os

from dp.paths import walk_up_text

PROJECT = "project"
LOCAL = "local"
USER = "user"
# The layers a repository can hold, lowest first; the user's store is below both.
FILES = ((PROJECT, os.path.join(".dp", "rules.toml")), (LOCAL, os.path.join(".dp", "rules.local.toml")))
# A layer file over this size is refused as a whole (its layer is inert).
MAX_BYTES = 1 << 20


def repo_root(directory: str) -> str | None:
    """The nearest directory at or above ``directory`` holding ``.git``, or None.

    ``directory`` must be absolute; it is taken as given (the agent's ``cwd``),
    so the walk costs one ``stat`` per level and no ``realpath``.
    """
    if not directory or not os.path.isabs(directory):
        return None
    for folder in walk_up_text(directory):
        try:
            if os.access(os.path.join(folder, ".git"), os.F_OK):  # not a stat: one that fails raises, at a cost
                return folder
        except ValueError:  # a NUL in the agent's cwd
            return None
    return None


def layer_files(directory: str):
    """``(root, [(source, path, stat_result | OSError), …])`` for the layer files present
    under the repository root of ``directory``; ``(None, [])`` outside a repository.

    A path that exists but cannot be stat'ed as a file is returned with its
    error, so the layer can be reported as broken instead of silently absent.
    """
    root = repo_root(directory)
    if root is None:
        return None, []
    found: list[tuple[str, str, os.stat_result | OSError | ValueError]] = []
    for source, relative in FILES:
        path = os.path.join(root, relative)
        try:
            found.append((source, path, os.stat(path)))
        except FileNotFoundError:
            continue
        except (OSError, ValueError) as exc:
            found.append((source, path, exc))
    return root, found


def real_location(real_root: str, path: str) -> tuple[str, bool]:
    """``(real path, whether it is inside real_root)`` for a layer file ``path`` of the repository
    whose real root is ``real_root``: a file whose real path leaves its repository (a link, or a
    linked ``.dp``, to another repository's file) is never that repository's, and never acts."""
    from dp.paths import inside

    real = os.path.realpath(path)
    return real, inside(real, real_root)
