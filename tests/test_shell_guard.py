"""The time guard really interrupts running Python code, and only when it should."""

from __future__ import annotations

import re
import threading
import time

import pytest

from dp.hook import HOOK_TIMEOUT_SECONDS
from dp.shell.guard import Timeout, deadline


def spin(seconds: float) -> None:
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        pass


def test_cpu_budget_interrupts_a_catastrophic_regex():
    started = time.monotonic()
    with pytest.raises(Timeout):
        with deadline(0.2):
            re.match(r"(a+)+$", "a" * 64 + "b")
    assert time.monotonic() - started < HOOK_TIMEOUT_SECONDS


def test_timeout_is_not_swallowed_by_except_exception():
    def busy():
        try:
            spin(5)
        except Exception:  # noqa: BLE001 - what library code in the block may do
            return "swallowed"

    with pytest.raises(Timeout):
        with deadline(0.1):
            busy()


def test_waiting_does_not_spend_the_cpu_budget_but_hits_the_wall_ceiling():
    with deadline(0.1, wall_seconds=2):
        time.sleep(0.3)  # idle: no CPU used, under the wall ceiling
    with pytest.raises(Timeout):
        with deadline(5, wall_seconds=0.2):
            time.sleep(2)


def test_inner_deadline_restores_the_outer_one():
    with pytest.raises(Timeout):
        with deadline(0.3):
            with deadline(5):
                pass
            started = time.monotonic()
            spin(3)
    assert time.monotonic() - started < HOOK_TIMEOUT_SECONDS


def test_block_finishing_in_time_leaves_no_timer_behind():
    with deadline(0.2):
        value = sum(range(1000))
    spin(0.4)  # a stray CPU timer would raise here
    time.sleep(0.9)  # and a stray wall-clock one here
    assert value == 499500


def test_off_the_main_thread_the_block_runs_unguarded():
    outcome = []

    def worker():
        with deadline(0.01):
            spin(0.1)
        outcome.append("finished")

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert outcome == ["finished"]
