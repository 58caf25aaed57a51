"""Finding and ending every process a child of dp started, wherever it went.

A process-group kill misses whatever left the group: ``setsid sleep 300 &``
in a task or recipe step starts a new session, its parent exits, and the
sleeper is reparented away from dp, outliving it. Two things close that gap
(Linux; elsewhere the process group is all there is):

* dp makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``), so
  orphaned descendants are reparented to dp instead of init and stay in its
  process tree, where dp can reap them;
* every child gets a tag in its environment (``DP_PROCESS_TREE``), which all
  its descendants inherit whatever session or group they move to, so the
  processes of one run are found by tag and ended with the run.

A descendant that scrubs its environment escapes the tag, but not the
subreaper: ``end_descendants`` at exit ends whatever is left below dp.
"""

from __future__ import annotations

import itertools
import os
import signal
import sys
import time

TAG_VARIABLE = "DP_PROCESS_TREE"
PR_SET_CHILD_SUBREAPER = 36
_counter = itertools.count(1)
_subreaper = None


def become_subreaper() -> bool:
    """Make dp the subreaper of its descendants (Linux, once); False where unsupported."""
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                libc = ctypes.CDLL(None, use_errno=True)
                _subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):
                _subreaper = False
    return _subreaper


def new_tag() -> str:
    """A tag no other run of this dp process uses."""
    return f"{os.getpid()}.{next(_counter)}"


def tagged_environment(env, tag: str) -> dict:
    """``env`` (or ours) plus the tag every descendant will inherit."""
    return {**(os.environ if env is None else env), TAG_VARIABLE: tag}


def processes():
    """(pid, parent pid, state, process group) of every process we can see (empty off Linux)."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        yield int(name), int(fields[1]), fields[0], int(fields[2])


def tagged(tag: str) -> list[int]:
    """Live (non-zombie) processes carrying ``tag`` in their environment."""
    marker = f"\0{TAG_VARIABLE}={tag}\0".encode()
    found = []
    for pid, _, state, _ in processes():
        if state == b"Z" or pid == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                environ = b"\0" + handle.read() + b"\0"
        except OSError:
            continue
        if marker in environ:
            found.append(pid)
    return found


def descendants(root: int | None = None) -> list[int]:
    """Live processes below ``root`` (default: dp itself) in the process tree."""
    root = os.getpid() if root is None else root
    children: dict[int, list[int]] = {}
    states = {}
    for pid, parent, state, _ in processes():
        children.setdefault(parent, []).append(pid)
        states[pid] = state
    found, stack = [], [root]
    while stack:
        for child in children.get(stack.pop(), []):
            stack.append(child)
            if states.get(child) != b"Z":
                found.append(child)
    return found


def signal_all(pids, sig: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def reap(pids) -> None:
    """Collect those of ``pids`` that exited as dp's children (the subreaper adopts orphans).

    Only pids found as this run's processes are passed: reaping any child
    would steal the exit status ``subprocess`` waits for in another thread.
    """
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except (ChildProcessError, OSError):
            pass


def end(find, grace: float, seen: set) -> None:
    """SIGTERM what ``find()`` returns, SIGKILL what is still there after ``grace`` seconds.

    Every pid found is added to ``seen`` and reaped once it has exited.
    """

    def look() -> list[int]:
        found = find()
        seen.update(found)
        reap(seen)
        return found

    pids = look()
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 1.0)):
        if not pids:
            break
        signal_all(pids, sig)
        stop = time.monotonic() + wait
        while pids and time.monotonic() < stop:
            time.sleep(0.02)
            pids = look()
    reap(seen)
