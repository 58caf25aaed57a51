"""``dp team sync``: upload what this store captured, as shapes, to each team database it belongs to.

Each event goes to one database: the one its repository suggests in a trusted
``.dp/rules.toml`` when the person took it with ``dp team connect`` there
(``dp.team.config.repository_url``), else the one ``dp team connect URL`` set. Per database, ``team.json`` keeps the highest local event id
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
    shaped = (shaper.row(row) for row in rows if router(row[11]) == url)
    return [row for row in shaped if row is not None]


def pending_actions(db_path, local, url: str, router: Router) -> tuple[list[tuple], int]:
    """``(rows, last id)``: the action rows a sync to ``url`` sends now (``dp.team.outcomes.pending``)."""
    from dp.team import outcomes

    sent = mark(config.load(db_path), url).get("actions_sent_up_to", 0)
    shaper = Shaper(local, config.machine_id(db_path))
    return outcomes.pending(local, sent, shaper, lambda cwd: router(cwd) == url)


def _send_actions(db_path, local, conn, url: str, router: Router, batch: int, report: dict) -> None:
    """Upload what dp did (and what happened next) for ``url``, a batch per transaction."""
    rows, last = pending_actions(db_path, local, url, router)
    for start in range(0, len(rows), batch):
        sent, refused = server.upload_actions(conn, rows[start:start + batch])
        report["actions"] += sent
        report["refused"] += refused
    config.update(db_path, lambda state: mark(state, url).update(actions_sent_up_to=last))


def sync_one(db_path, local, url: str, router: Router, batch: int = BATCH, deadline: float | None = None) -> dict:
    """Upload everything pending for ``url``, batch by batch; ``{"url", "sent", "looked_at"}``.
    Raises ``server.Unreachable`` (recorded in the state) when the database cannot be reached."""
    from dp.store import desires

    machine = config.machine_id(db_path)
    shaper = Shaper(local, machine)
    report: dict = {"url": url, "sent": 0, "looked_at": 0, "refused": 0, "actions": 0}
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
                shaped = {event_id(row): shaper.row(row) for row in [*again, *mine]}
                upload = {key: row for key, row in shaped.items() if row is not None}
                if upload:
                    sent, refused = server.upload(conn, list(upload.values()))
                    report["sent"] += sent
                    report["refused"] += refused
                report["looked_at"] += len(rows)
                last = rows[-1][0]
                config.update(db_path, lambda state: mark(state, url).update(sent_up_to=last))
            if deadline is None or time.monotonic() < deadline:
                _send_actions(db_path, local, conn, url, router, batch, report)
            found = server.groups(conn)
    except server.Unreachable as exc:
        failed(db_path, url, exc)
        raise
    downloaded(db_path, url, found)
    config.update(db_path, lambda state: mark(state, url).update(last_sync=now(), refused=report["refused"]))
    return report


def failed(db_path, url: str, exc: DpError) -> None:
    """Record that ``url`` could not be reached or refused (``dp team status``, ``dp doctor``)."""
    config.update(db_path, lambda state: mark(state, url).update(last_error=exc.message, error_at=now()))


def downloaded(db_path, url: str, found) -> None:
    """Keep the team's aggregates as accepted (``dp.team.download``), for the ``--team`` views when
    the database is unreachable, and record what the download skipped or left out."""
    import json

    from dp.files import write_atomically

    path = aggregates_path(db_path, url)
    write_atomically(path, json.dumps({"url": url, "at": now(), "groups": found.groups}).encode())
    config.update(db_path, lambda state: mark(state, url).update(
        last_error=None, error_at=None, downloaded_at=now(), skipped=found.skipped, left_out=found.left_out))


def saved(db_path, url: str):
    """``(download, when)``: the aggregates the last download kept for ``url``, read back through
    the same checks and bounds as a download (None when there are none)."""
    import json

    from dp.files import read_bytes
    from dp.team.download import MAX_BYTES, Download

    try:
        data = read_bytes(aggregates_path(db_path, url), 2 * MAX_BYTES)
        kept = json.loads(data) if data else None
    except (OSError, ValueError, RecursionError, DpError):
        return None, None
    if not isinstance(kept, dict) or kept.get("url") != url or not isinstance(kept.get("groups"), list):
        return None, None
    found = Download()
    for row in kept["groups"]:
        found.offer(row if isinstance(row, dict) else {})
    return found, str(kept.get("at"))


def aggregates_path(db_path, url: str) -> str:
    import os

    from dp.team.shapes import digest

    return os.path.join(os.path.dirname(config.state_path(db_path)), f"team-{digest(url, 12)}.json")


def queued(db_path, local, url: str) -> int:
    """How many stored events a sync to ``url`` has yet to look at."""
    from dp.store import desires

    return desires.count_after(local, mark(config.load(db_path), url).get("sent_up_to", 0))
