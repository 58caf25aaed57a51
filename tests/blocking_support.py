"""Calling something that must not block (import: from blocking_support import …)."""

from __future__ import annotations

import threading


def outcome_within(call, seconds: float = 10.0):
    """What ``call()`` returned or raised; fails the test if it is still running after ``seconds``
    (it blocked: on a FIFO, a lock, a scan without end). The stuck thread is a daemon: it cannot
    keep the test session alive."""
    outcome = []

    def run():
        try:
            outcome.append(call())
        except BaseException as exc:  # noqa: BLE001 (handed to the test)
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still running after {seconds:g} s"
    return outcome[0]
