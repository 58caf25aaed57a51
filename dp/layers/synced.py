"""Whether the hook filters still match the project files this user trusts: a stamp of what the last sync saw.

The ``if`` filters in an agent's settings hold the words of every trusted
project file (``dp.install.hook.wanted_entries``); ``dp trust``, ``dp
untrust`` and every ``--project`` write bring them up to date. A trusted file
that changes by other means (a pull, an edit) stops acting at once (its hash
no longer matches), but its words would stay in the filters. So every sync
records here which trusted files acted (``state``), and the SessionStart
answer compares that record with the files as they are now (``stale``): one
stat per trusted file (the parse is cached by ``dp.layers.effective``),
never on the per-call path, and a sync only when they differ.
"""

from __future__ import annotations

import json
import os

STAMP = "layers-synced.json"


def state(conn) -> list:
    """``[[root, path, trusted sha256, acts]]`` for every file this user trusts, with the
    repository it was trusted in (``conn``: the store)."""
    from dp.layers.trusting import trusted_projects
    from dp.store.trust import trusted_files

    trusted = trusted_files(conn)
    if not trusted:
        return []
    acting = {(project.real_root, layer.file.real) for project in trusted_projects(conn)
              for layer in project.layers if layer.acts}
    return sorted([root, path, sha256, (root, path) in acting] for root, path, sha256 in trusted)


def stamp_path(db_path) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(os.path.expanduser(str(db_path)))), STAMP)


def stale(db_path, conn) -> bool:
    """Whether the trusted files act differently from when the filters were last synced
    (no stamp and nothing trusted: nothing to do)."""
    try:
        with open(stamp_path(db_path), "rb") as handle:
            recorded = json.loads(handle.read(1 << 20))
    except (OSError, ValueError):
        recorded = []
    return recorded != state(conn)


def record(db_path, conn) -> None:
    """Remember the trusted files' state the filters were just synced with."""
    from dp.files import read_bytes, replace_file

    path = stamp_path(db_path)
    now = state(conn)
    data = (json.dumps(now) + "\n").encode()
    before = read_bytes(path, 1 << 20)
    if before != data and (before is not None or now):
        replace_file(path, data, expected=before)
