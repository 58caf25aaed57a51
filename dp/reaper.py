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


def _processes():
    """(pid, parent pid, state) of every process we can see (empty off Linux)."""
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
        yield int(name), int(fields[1]), fields[0]


def tagged(tag: str) -> list[int]:
    """Live (non-zombie) processes carrying ``tag`` in their environment."""
    marker = f"\0{TAG_VARIABLE}={tag}\0".encode()
    found = []
    for pid, _, state in _processes():
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
    for pid, parent, state in _processes():
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


def reap_orphans(keep=()) -> None:
    """Collect exited processes reparented to dp (the subreaper), except those in ``keep``.

    ``keep`` holds the pids ``subprocess`` waits for itself: reaping one of
    them here would steal its exit status.
    """
    for pid, parent, state in list(_processes()):
        if parent == os.getpid() and state == b"Z" and pid not in keep:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def end(find, grace: float, keep=()) -> None:
    """SIGTERM what ``find()`` returns, SIGKILL what is still there after ``grace`` seconds, reap."""
    pids = find()
    if not pids:
        return
    signal_all(pids, signal.SIGTERM)
    stop = time.monotonic() + grace
    while time.monotonic() < stop:
        reap_orphans(keep)
        pids = find()
        if not pids:
            return
        time.sleep(0.02)
    signal_all(pids, signal.SIGKILL)
    stop = time.monotonic() + 1.0
    while find() and time.monotonic() < stop:
        reap_orphans(keep)
        time.sleep(0.02)
    reap_orphans(keep)
