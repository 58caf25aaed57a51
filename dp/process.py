"""The one way dp runs a child process (task runners, make, git, recipe steps).

Why not ``subprocess.run``: an agent's task must not outlive its time limit,
leave servers running, or flood memory, and a human watching ``dp run`` wants
to see output as it happens. So the child gets its own session (its whole
process tree is one process group we can signal), both pipes are read as data
arrives (echoed live when asked, captured in arrival order with only the tail
kept), and a timeout sends SIGTERM to the group, waits ``grace`` seconds, then
SIGKILLs it. Whatever the child leaves behind when it exits gets the same
treatment, so no grandchild is orphaned and none can hang the reader by
holding a pipe open. Processes that left the group (``setsid cmd &``) are
found too: dp is their subreaper and they carry the run's tag (``dp.reaper``).
"""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from dp import reaper
from dp.errors import DpError

DEFAULT_TIMEOUT = 300
MAX_TIMEOUT = 1800
TIMEOUT_EXIT_CODE = 124
KILL_GRACE_SECONDS = 5
# How much of a child's output (the tail, both streams) a result keeps by default.
DEFAULT_CAPTURE_LIMIT = 1_000_000
# How long processes the child left behind may keep running after it exits
# before they are terminated like a timed-out task.
STRAGGLER_LINGER_SECONDS = 1.0
# After SIGKILL, how long to keep draining pipes that something outside the
# process group may still hold open.
DRAIN_AFTER_KILL_SECONDS = 1.0
_READ_SIZE = 65536

# What to install when a well-known executable is missing.
INSTALL_HINTS = {
    "make": "GNU make (e.g. apt install make, or xcode-select --install on macOS)",
    "git": "git (https://git-scm.com/downloads)",
    "node": "Node.js (https://nodejs.org)",
    "npm": "Node.js, which ships npm (https://nodejs.org)",
    "pnpm": "pnpm (https://pnpm.io/installation)",
    "yarn": "Yarn (https://yarnpkg.com/getting-started/install)",
    "bun": "Bun (https://bun.sh)",
    "cargo": "Rust with rustup (https://rustup.rs)",
    "pdm": "PDM (https://pdm-project.org)",
    "poetry": "Poetry (https://python-poetry.org/docs/#installation)",
    "uv": "uv (https://docs.astral.sh/uv/getting-started/installation/)",
    "poe": "Poe the Poet (pip install poethepoet)",
    "just": "just (https://just.systems)",
    "task": "Task (https://taskfile.dev/installation)",
}


@dataclass(slots=True, repr=False, eq=False)
class ProcessResult:
    """How a child process ended and the tail of what it printed.

    ``dropped_bytes`` is how much output was cut from the front to keep the
    capture bounded (0 when ``truncated`` is false), so a report can say so.
    """

    exit_code: int
    output: str
    truncated: bool
    timed_out: bool
    duration_ms: int
    dropped_bytes: int = 0
    cancelled: bool = False

    def __repr__(self) -> str:
        return (
            f"ProcessResult(exit_code={self.exit_code}, timed_out={self.timed_out}, "
            f"truncated={self.truncated}, duration_ms={self.duration_ms}, "
            f"output={len(self.output)} chars)"
        )


def check_timeout(seconds: float | None) -> float | None:
    """A user-supplied timeout, refused with a clear message when out of range (None: no limit)."""
    if seconds is None:
        return None
    if not seconds > 0 or seconds > MAX_TIMEOUT:
        raise DpError(
            f"timeout must be more than 0 and at most {MAX_TIMEOUT} seconds (got {seconds:g})"
        )
    return float(seconds)


def find_executable(name: str, env: Mapping[str, str] | None = None, cwd=None) -> str:
    """The program ``name`` would run, or a DpError naming what to install.

    A bare name is looked up on the child's PATH; a path (``./gradlew``) is
    taken relative to the child's working directory, as the child would.
    """
    if os.sep in name:
        candidate = Path(cwd or ".") / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
        raise DpError(f"{name} is not an executable file in {cwd or os.getcwd()}")
    path = (env if env is not None else os.environ).get("PATH", os.defpath)
    found = shutil.which(name, path=path)
    if found is None:
        raise DpError(f'"{name}" not found on PATH; install {INSTALL_HINTS.get(name, name)}')
    return found


def run_process(
    argv: Sequence[str],
    *,
    cwd,
    env: Mapping[str, str] | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    stdin: bytes | None = None,
    echo: bool = False,
    capture_limit: int = DEFAULT_CAPTURE_LIMIT,
    grace: float = KILL_GRACE_SECONDS,
    cancel: threading.Event | None = None,
    on_output: Callable[[bytes], None] | None = None,
) -> ProcessResult:
    """Run ``argv`` in ``cwd`` and wait for it (and everything it started).

    ``env`` replaces the environment when given. ``timeout`` None means no
    limit. ``stdin`` bytes are fed to the child; without them the child reads
    EOF, so a prompt cannot hang an unattended agent. ``echo`` copies the
    child's stdout/stderr to ours as it arrives. ``output`` keeps the last
    ``capture_limit`` bytes of both streams in arrival order. Setting
    ``cancel`` (from another thread: a Ctrl-C seen by the main thread) ends
    the child's group like a timeout, without marking it timed out (the MCP
    server sets it when a request is cancelled). ``on_output`` is called with
    every chunk as it arrives, on this thread (the MCP server turns it into
    progress notifications).
    """
    if not argv:
        raise ValueError("run_process needs a program to run")
    if not Path(cwd).is_dir():
        raise DpError(f"working directory {cwd} does not exist or is not a directory")
    executable = find_executable(argv[0], env, cwd)
    reaper.become_subreaper()
    tag = reaper.new_tag()
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(argv),
            executable=executable,
            cwd=cwd,
            env=reaper.tagged_environment(env, tag),
            stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        raise DpError(f"cannot run {argv[0]}: {exc.strerror or exc}") from None
    supervisor = None
    try:
        if stdin is not None:
            threading.Thread(target=_feed, args=(proc.stdin, stdin), daemon=True).start()
        supervisor = _Supervisor(proc, timeout, grace, echo, capture_limit, cancel, on_output, tag)
        supervisor.run()
    except BaseException:
        # Ctrl-C reaches only us (the child has its own session): take the
        # child's whole group down before giving up — also when it arrives
        # while the supervisor is still being set up.
        if supervisor is None:
            _signal_group(proc.pid, signal.SIGKILL)
            proc.wait()
        else:
            supervisor.abort()
        raise
    output, truncated = supervisor.captured()
    return ProcessResult(
        exit_code=TIMEOUT_EXIT_CODE if supervisor.timed_out or supervisor.exit_code is None else supervisor.exit_code,
        output=output,
        truncated=truncated,
        timed_out=supervisor.timed_out,
        duration_ms=int((time.monotonic() - started) * 1000),
        dropped_bytes=supervisor.dropped,
        cancelled=supervisor.cancelled,
    )


def _feed(pipe: IO[bytes], data: bytes) -> None:
    try:
        pipe.write(data)
    except OSError:  # the child exited without reading it all
        pass
    finally:
        try:
            pipe.close()
        except OSError:
            pass


class _Supervisor:
    """Reads a child's pipes and escalates TERM → KILL on its process group."""

    def __init__(self, proc: subprocess.Popen, timeout, grace: float, echo: bool, limit: int,
                 cancel: threading.Event | None = None,
                 on_output: Callable[[bytes], None] | None = None, tag: str = ""):
        self.proc = proc
        self.tag = tag
        self.seen: set[int] = set()  # this run's processes other than proc, to reap
        self.cancel = cancel
        self.cancelled = False
        self.on_output = on_output
        self.group = proc.pid  # start_new_session: the child leads its own group
        self.deadline = None if timeout is None else time.monotonic() + timeout
        self.grace = grace
        self.limit = max(0, limit)
        self.buffer = bytearray()
        self.dropped = 0
        self.exit_code: int | None = None
        self.timed_out = False
        self.term_at: float | None = None  # when SIGTERM is due
        self.kill_at: float | None = None  # when SIGKILL is due
        self.give_up_at: float | None = None  # stop draining after SIGKILL
        self.selector = selectors.DefaultSelector()
        targets = (sys.stdout, sys.stderr) if echo else (None, None)
        for pipe, target in zip((proc.stdout, proc.stderr), targets):
            assert pipe is not None, "started with stdout and stderr piped"
            self.selector.register(pipe, selectors.EVENT_READ, target)

    def run(self) -> None:
        while True:
            now = time.monotonic()
            self._reap(now)
            self._escalate(now)
            if self._finished(now):
                break
            if self.selector.get_map():
                self._read(self._wait_time(now))
            else:
                time.sleep(self._wait_time(now))
        self._close_pipes()
        if self.exit_code is None:
            self.exit_code = _shell_exit_code(self.proc.wait())
        self._end_escaped()

    def _reap(self, now: float) -> None:
        if self.exit_code is not None:
            return
        code = self.proc.poll()
        if code is None:
            if self.deadline is not None and now >= self.deadline and self.term_at is None:
                self.timed_out = True
                self.term_at = now
            elif self.cancel is not None and self.cancel.is_set() and self.term_at is None:
                self.cancelled = True
                self.term_at = now
            return
        self.exit_code = _shell_exit_code(code)
        if self.term_at is None:
            self.term_at = now + STRAGGLER_LINGER_SECONDS

    def _escalate(self, now: float) -> None:
        if self.term_at is not None and now >= self.term_at and self.kill_at is None:
            if self._group_alive():
                _signal_group(self.group, signal.SIGTERM)
                reaper.signal_all(self._escaped(), signal.SIGTERM)
                self.kill_at = now + self.grace
            elif self.exit_code is not None:
                self.kill_at = now  # nothing left to terminate
        if self.kill_at is not None and now >= self.kill_at and self.give_up_at is None:
            _signal_group(self.group, signal.SIGKILL)
            reaper.signal_all(self._escaped(), signal.SIGKILL)
            self.give_up_at = now + DRAIN_AFTER_KILL_SECONDS

    def _finished(self, now: float) -> bool:
        if self.give_up_at is not None and now >= self.give_up_at:
            return True
        if self.exit_code is None or self.selector.get_map():
            return False
        return self.give_up_at is not None or not self._group_alive()

    def _wait_time(self, now: float) -> float:
        due = [t for t in (self.deadline, self.term_at, self.kill_at, self.give_up_at) if t is not None]
        soonest = min((t - now for t in due if t > now), default=0.05)
        return max(0.0, min(0.05, soonest))

    def _read(self, wait: float) -> None:
        for key, _ in self.selector.select(wait):
            try:
                chunk = os.read(key.fd, _READ_SIZE)
            except OSError:
                chunk = b""
            if not chunk:
                self.selector.unregister(key.fileobj)
                _close(key.fileobj)
                continue
            self._keep(chunk)
            if self.on_output is not None:
                self.on_output(chunk)
            if key.data is not None:
                _echo(key.data, chunk)

    def _keep(self, chunk: bytes) -> None:
        self.buffer += chunk
        excess = len(self.buffer) - self.limit
        if excess > 0:
            del self.buffer[:excess]
            self.dropped += excess

    def _group_alive(self) -> bool:
        if _signal_group(self.group, 0) and self._live_members():
            return True
        return bool(self._escaped())

    def _live_members(self) -> bool:
        """Whether a non-zombie process is in the group.

        A zombie still answers ``kill(0)``, so on Linux look at /proc instead.
        """
        if not os.path.exists("/proc/self/stat"):
            return True
        members = {pid for pid, _, state, group in reaper.processes() if group == self.group and state != b"Z"}
        self.seen.update(members - {self.proc.pid})
        return bool(members)

    def _escaped(self) -> list[int]:
        """The run's processes outside its group (new sessions), found by tag."""
        found = [pid for pid in reaper.tagged(self.tag) if pid != self.proc.pid] if self.tag else []
        self.seen.update(found)
        return found

    def _end_escaped(self) -> None:
        """Nothing of this run outlives it, whatever session it moved to; its zombies are reaped."""
        if self.tag:
            reaper.end(self._escaped, self.grace, self.seen)

    def _close_pipes(self) -> None:
        for key in list(self.selector.get_map().values()):
            self.selector.unregister(key.fileobj)
            _close(key.fileobj)
        self.selector.close()



    def abort(self) -> None:
        _signal_group(self.group, signal.SIGTERM)
        try:
            self.proc.wait(timeout=self.grace)
        except subprocess.TimeoutExpired:
            pass
        _signal_group(self.group, signal.SIGKILL)
        self.proc.wait()
        self._close_pipes()
        self._end_escaped()

    def captured(self) -> tuple[str, bool]:
        data = bytes(self.buffer)
        if self.dropped:
            # The cut may have split a UTF-8 character: start at the next one.
            start = 0
            while start < min(len(data), 3) and 0x80 <= data[start] <= 0xBF:
                start += 1
            data = data[start:]
        return data.decode("utf-8", errors="replace"), bool(self.dropped)


def _shell_exit_code(returncode: int) -> int:
    """Like a shell: death by signal N is exit code 128 + N (Popen says -N)."""
    return returncode if returncode >= 0 else 128 - returncode


def _signal_group(group: int, sig: int) -> bool:
    """Send ``sig`` to the process group; False when no process is left in it."""
    try:
        os.killpg(group, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _echo(stream: IO[str], chunk: bytes) -> None:
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(chunk.decode("utf-8", errors="replace"))
    else:
        stream.flush()
        buffer.write(chunk)
        buffer.flush()
    stream.flush()


def _close(pipe: IO | object) -> None:
    """Close a pipe the selector watched (registered as the Popen's file object, never a bare fd)."""
    if hasattr(pipe, "close"):
        pipe.close()
