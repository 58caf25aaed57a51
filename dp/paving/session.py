"""Tell the agent once per session why its commands are paved.

The first paved command of a session in a project carries the whole reason
("this repository uses pnpm (pnpm-lock.yaml found: pnpm): ran …"); later ones
say only what ran instead. What was told is kept in ``paving-sessions.json``
in the user's dp directory, for the most recent sessions only.
"""

from __future__ import annotations

import json
import os

from dp.cachedir import read_json_object

FILE_NAME = "paving-sessions.json"
MAX_SESSIONS = 32


def first_time(dp_dir: str, session: str, topic: str) -> bool:
    """True (and remembered) the first time ``topic`` comes up in ``session``."""
    if not session:
        return True  # no session id: every call may be a new conversation
    path = os.path.join(dp_dir, FILE_NAME)
    sessions = read_json_object(path, 1 << 20)
    told = sessions.pop(session, [])
    if not isinstance(told, list):
        told = []
    first = topic not in told
    if first:
        told.append(topic)
    sessions[session] = told
    while len(sessions) > MAX_SESSIONS:
        del sessions[next(iter(sessions))]
    if first and os.path.isdir(dp_dir):  # the hook never creates the dp directory
        from dp.cachedir import write_atomically

        try:
            write_atomically(path, json.dumps(sessions).encode())
        except OSError:
            pass
    return first
