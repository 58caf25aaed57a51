"""Whether a process a test started has ended (import: from process_support import …)."""

from __future__ import annotations

import time
from pathlib import Path


def gone(pid: int) -> bool:
    """Dead: no such process, or a zombie waiting to be reaped (by init, or by a dp subreaper)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state == "Z"


def wait_gone(pid: int, within: float = 5.0) -> bool:
    """Give an ended process up to ``within`` seconds to disappear; whether it did."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if gone(pid):
            return True
        time.sleep(0.05)
    return False
