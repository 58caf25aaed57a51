"""``dp team sync``: upload what this store captured, as shapes, to each team database it belongs to.

Each event goes to one database: the one its repository names in a trusted
``.dp/rules.toml`` (``dp.team.config.repository_url``), else the one ``dp team
connect`` set. Per database, ``team.json`` keeps the highest local event id
already sent; a batch is uploaded in one transaction and only then is that
mark moved. So a sync killed anywhere (dp or the server) leaves either the
batch uploaded and the mark behind — the next sync sends it again, and the
upsert on (member, machine, event id) keeps one copy — or nothing uploaded.
Every event is sent, none twice.

A batch also re-sends the earlier Bash failures of the sessions it touches,
so what worked next in a session that went on after a sync reaches the team.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone

from dp.errors import DpError
from dp.team import config, server
from dp.team.shapes import Shaper, event_id

BATCH = 2000


def now() -> str:
    return datetime.now(timezone.utc).replace(tzinfo=None).isoformat(timespec="seconds") + "Z"


class Router:
    """Which team database each local event goes to (by its directory's repository)."""

    def __init__(self, db_path, personal: str | None):
        self.db_path, self.personal = db_path, personal
        self._by_cwd: dict[str, str | None] = {}

    def __call__(self, cwd: str) -> str | None:
        if cwd not in self._by_cwd:
            url = None
            if cwd:
                try:
                    url, _ = config.repository_url(self.db_path, cwd)
                except DpError:
                    url = None
            self._by_cwd[cwd] = url or self.personal
        return self._by_cwd[cwd]


def destinations(db_path, local, router: Router) -> list[str]:
    """Every database some stored event goes to: the connected one, and those repositories name."""
    from dp.store import desires

    found = [router.personal] if router.personal else []
    for cwd in desires.distinct_cwds(local):
        url = router(cwd)
        if url and url not in found:
            found.append(url)
    return found


def mark(state: dict, url: str) -> dict:
    return state.setdefault("databases", {}).setdefault(url, {})


def pending(db_path, local, url: str, router: Router, limit: int | None = None) -> list[tuple]:
    """The upload rows this store has not yet sent to ``url`` (up to ``limit`` looked-at events)."""
    from dp.store import desires

    sent = mark(config.load(db_path), url).get("sent_up_to", 0)
    shaper = Shaper(local, config.machine_id(db_path))
    rows = desires.after(local, sent, limit or 1 << 62)
    return [shaper.row(row) for row in rows if router(row[11]) == url]


def sync_one(db_path, local, url: str, router: Router, batch: int = BATCH, deadline: float | None = None) -> dict:
    """Upload everything pending for ``url``, batch by batch; ``{"url", "sent", "looked_at"}``.
    Raises ``server.Unreachable`` (recorded in the state) when the database cannot be reached."""
    from dp.store import desires

    machine = config.machine_id(db_path)
    shaper = Shaper(local, machine)
    report = {"url": url, "sent": 0, "looked_at": 0}
    try:
        with server.connect(url) as conn:
            server.require_schema(conn)
            while deadline is None or time.monotonic() < deadline:
                sent = mark(config.load(db_path), url).get("sent_up_to", 0)
                rows = desires.after(local, sent, batch)
                if not rows:
                    break
                mine = [row for row in rows if router(row[11]) == url]
                sessions = sorted({row[10] for row in mine if row[10]})
                again = desires.bash_failures_in(local, sessions, sent) if sessions else []
                upload = {event_id(row): shaper.row(row) for row in [*again, *mine]}
                if upload:
                    report["sent"] += server.upload(conn, list(upload.values()))
                report["looked_at"] += len(rows)
                last = rows[-1][0]
                config.update(db_path, lambda state: mark(state, url).update(sent_up_to=last))
            groups = server.groups(conn)
    except server.Unreachable as exc:
        config.update(db_path, lambda state: mark(state, url).update(last_error=exc.message, error_at=now()))
        raise
    save_groups(db_path, url, groups)
    config.update(db_path, lambda state: mark(state, url).update(last_sync=now(), last_error=None, error_at=None))
    return report


def save_groups(db_path, url: str, groups: list[dict]) -> None:
    """Keep the team's aggregates as downloaded, for the ``--team`` views when the database is unreachable."""
    import json

    from dp.files import write_atomically

    path = aggregates_path(db_path, url)
    write_atomically(path, json.dumps({"url": url, "at": now(), "groups": groups}).encode())


def aggregates_path(db_path, url: str) -> str:
    import os

    from dp.team.shapes import digest

    return os.path.join(os.path.dirname(config.state_path(db_path)), f"team-{digest(url, 12)}.json")


def queued(db_path, local, url: str) -> int:
    """How many stored events a sync to ``url`` has yet to look at."""
    from dp.store import desires

    return desires.count_after(local, mark(config.load(db_path), url).get("sent_up_to", 0))
