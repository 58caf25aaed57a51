"""``main([STORE])``: the team sync a SessionStart starts, detached, bounded, silent.

The SessionStart hook (``dp.hook.session._start_team_sync``) only starts this process
(``own_python``, in a session of its own, in ``/``) when the store has a team
state or the session's repository has a trusted layer, and never waits for
it: the agent's session does not wait on the network. Here, at most one sync
runs per store (a lock file; a second start exits at once), at most one
starts every ``MIN_INTERVAL_SECONDS``, and it stops after ``BOUND_SECONDS``.
Every failure is recorded in the team state (``dp team status``, ``dp
doctor``) and the events stay queued for the next sync.
"""

from __future__ import annotations

import os
import sys
import time

BOUND_SECONDS = 120
MIN_INTERVAL_SECONDS = 60
LOCK = "team-sync.lock"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        return 0
    try:
        run(argv[0])
    except Exception:  # noqa: BLE001 - a background sync never complains; its state says what went wrong
        pass
    return 0


def run(db_path: str) -> None:
    import fcntl
    import signal

    from dp.team import config

    directory = os.path.dirname(config.state_path(db_path))
    if not os.path.isdir(directory):
        return
    with open(os.path.join(directory, LOCK), "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return  # another sync of this store is running
        if time.time() - config.load(db_path).get("background_at", 0) < MIN_INTERVAL_SECONDS:
            return
        config.update(db_path, lambda state: state.update(background_at=time.time()))
        signal.alarm(BOUND_SECONDS)  # the last word on the bound, whatever the network does
        sync_all(db_path, time.monotonic() + BOUND_SECONDS - 10)


def sync_all(db_path: str, deadline: float) -> None:
    """One sync per team database this store's events go to; an unreachable one is recorded and skipped."""
    from dp.desires.query import captured
    from dp.errors import DpError
    from dp.team import config
    from dp.team.sync import Router, destinations, sync_one

    with captured(db_path) as local:
        if local is None:
            return
        router = Router(db_path, config.load(db_path).get("url"))
        for url in destinations(db_path, local, router):
            try:
                sync_one(db_path, local, url, router, deadline=deadline)
            except DpError:
                continue


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
