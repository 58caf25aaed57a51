"""``dp doctor``'s team line: when the team database was unreachable and events wait, say so once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dp.doctor.findings import OK, WARNING, Finding


def check_team(db_path: Path) -> list[Finding]:
    """One line per team database this store synced with (none when it never connected or synced)."""
    from dp.store import open_readonly
    from dp.store.desires import count_after
    from dp.team import config

    state = config.load(db_path)
    databases = state.get("databases", {})
    if not databases and not state.get("url"):
        return []
    try:
        conn = open_readonly(db_path)
    except sqlite3.Error:
        conn = None
    found = []
    try:
        for url in sorted(set(databases) | ({state["url"]} if state.get("url") else set())):
            mark = databases.get(url, {})
            queued = count_after(conn, mark.get("sent_up_to", 0)) if conn is not None else 0
            waiting = f"{queued} event{'s' if queued != 1 else ''} queued"
            if mark.get("last_error"):
                found.append(Finding("team", WARNING, f"offline since {mark.get('error_at')}: {mark['last_error']}; "
                                     f"{waiting}, uploaded when it answers", "dp team sync (once the database answers)"))
            else:
                found.append(Finding("team", OK, f"{url}: last sync {mark.get('last_sync') or 'never'}; {waiting}"))
    finally:
        if conn is not None:
            conn.close()
    return found
