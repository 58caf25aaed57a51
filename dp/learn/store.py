"""A learning pass: the store's captured calls → fail→fix pairs → the learned answers it keeps.

Run by ``dp ingest`` after reading session files and by ``dp suggest`` before
proposing, never by a hook: the hook only reads what this wrote
(``dp.store.learned``).
"""

from __future__ import annotations

import sqlite3

from dp.learn.generalise import MIN_SESSIONS, generalise
from dp.learn.pairs import stored_pairs
from dp.store import learned


def learn(conn: sqlite3.Connection, min_sessions: int = MIN_SESSIONS) -> tuple[list, list]:
    """(the generalised answers, the pairs left as evidence) of the captured calls; nothing written."""
    return generalise(stored_pairs(conn), min_sessions)


def relearn(conn: sqlite3.Connection, now: str, min_sessions: int = MIN_SESSIONS) -> list[dict]:
    """Learn from the store and make the result its learned answers; returns them."""
    kept, _loose = learn(conn, min_sessions)
    answers = [item.to_answer(now) for item in kept]
    learned.replace_all(conn, answers)
    return answers


def relearn_at(db_path, now: str) -> list[dict] | None:
    """``relearn`` on the store at ``db_path`` when it exists and dp may write it (``dp suggest``);
    None when it may not: the suggestions are then learned in memory only."""
    from pathlib import Path

    from dp.errors import DpError
    from dp.store import Store

    if not Path(db_path).expanduser().exists():
        return None
    try:
        with Store.open(db_path) as store:
            return relearn(store.conn, now, MIN_SESSIONS)
    except DpError:
        return None
