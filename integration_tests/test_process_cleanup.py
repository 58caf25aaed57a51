"""Nothing a task or recipe step starts outlives dp, whatever session it escapes to.

Each case starts a sleeper with a unique duration (so it can be found in
/proc by its command line) in a way that leaves dp's process group: setsid,
a double fork, nohup with output detached. After dp returns — the task
ended on its own, or was stopped by --timeout — no sleeper may be left.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and subreapers are Linux's")

ESCAPES = {
    "setsid": "setsid sleep {n} >/dev/null 2>&1 &",
    "setsid-keeping-the-pipe": "setsid sleep {n} &",
    "double-fork": "( (sleep {n} >/dev/null 2>&1 &) & )",
    "nohup": "nohup sleep {n} >/dev/null 2>&1 &",
}


def _sleepers(n: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().split(b"\0")
                state = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[0]
            except OSError:
                continue
            if cmdline[:2] == [b"sleep", n.encode()] and state != b"Z":
                found.append(int(entry.name))
    return found


def _unique() -> str:
    return f"{random.randint(300, 900)}.{random.randint(10**5, 10**6)}"


def _assert_gone(n: str) -> None:
    deadline = time.monotonic() + 3
    while _sleepers(n) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _sleepers(n)
    for pid in left:  # do not leave them behind for the next test either
        os.kill(pid, 9)
    assert left == [], f"sleep {n} outlived dp"


@pytest.mark.parametrize("escape", ESCAPES)
@pytest.mark.parametrize("timed_out", [False, True], ids=["task-ends", "timeout"])
def test_a_task_cannot_leave_processes_behind(dp, tmp_path, escape, timed_out):
    n = _unique()
    line = ESCAPES[escape].format(n=n)
    if timed_out:
        line += " sleep 60" if line.endswith("&") else "; sleep 60"
    (tmp_path / "Makefile").write_text(f"work:\n\t{line}\n")
    result = dp("run", "--timeout", "2" if timed_out else "60", "work", cwd=tmp_path, timeout=60)
    assert result.returncode == (124 if timed_out else 0), result.stderr
    _assert_gone(n)


@pytest.mark.parametrize("escape", ESCAPES)
def test_a_recipe_step_cannot_leave_processes_behind(dp, tmp_path, escape):
    n = _unique()
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f"name: r\nsteps:\n  - id: start\n    command: '{ESCAPES[escape].format(n=n)}'\n")
    result = dp("recipe", "run", recipe, cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stderr
    _assert_gone(n)
