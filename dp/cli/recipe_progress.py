"""What ``dp recipe run`` shows while a recipe runs.

Text mode streams each step as it runs: a header when it starts, its output
line by line (each line prefixed with the step's id inside a parallel group,
whose steps run at once), a line every ``PROGRESS_EVERY`` seconds while a long
step prints nothing, and a closing line with its status and time; the summary
table follows at the end. ``--progress`` shows a live table on stderr instead
(one line per event when stderr is not a terminal). Warnings and hook output
always go to stderr.
"""

from __future__ import annotations

import os
import sys
import threading
import time

from dp.cli.common import note, status, warning
from dp.recipes.runner import Listener

# Seconds of silence before a long step gets a progress line ($DP_PROGRESS_SECONDS overrides).
PROGRESS_EVERY = 10.0
MIN_PROGRESS_EVERY = 0.1


def progress_every() -> float:
    """$DP_PROGRESS_SECONDS when it is a number of seconds from ``MIN_PROGRESS_EVERY`` on (``inf``:
    never), else the default: 0, a negative number or nan would print a line on every tick, without pause."""
    try:
        every = float(os.environ.get("DP_PROGRESS_SECONDS", PROGRESS_EVERY))
    except ValueError:
        return PROGRESS_EVERY
    return every if every >= MIN_PROGRESS_EVERY else PROGRESS_EVERY  # nan compares false too


def listener(progress: bool, stream: bool) -> CliListener:
    """The listener for a run: live table / event lines with ``progress``, else streamed output in text mode."""
    if progress:
        return CliListener(live=_LiveTable() if sys.stderr.isatty() else None, events=True)
    return StreamingListener() if stream else CliListener()


class CliListener(Listener):
    """Warnings and hook output on stderr; with ``events``, step progress too."""

    def __init__(self, live=None, events: bool = False):
        self.lock = threading.Lock()
        self.live = live
        self.events = events

    def step_started(self, step, depth):
        if self.live is not None:
            self.live.start(step.id, depth)
        elif self.events:
            with self.lock:
                note(f"{'  ' * depth}> {step.id} [{step.type}] running")

    def step_finished(self, result, depth):
        if self.live is not None:
            self.live.finish(result, depth)
        elif self.events:
            with self.lock:
                took = f" ({result.duration_ms / 1000:.1f}s)" if result.duration_ms else ""
                note(f"{'  ' * depth}  {result.step_id}: {result.status}{took}")

    def warning(self, message):
        with self.lock:
            warning(message)

    def hook_output(self, hook, step_id, output):
        with self.lock:
            sys.stderr.write(output if output.endswith("\n") else output + "\n")

    def close(self):
        if self.live is not None:
            self.live.stop()


class _Running:
    """One running step's stream state."""

    def __init__(self, step, depth: int):
        self.step = step
        self.depth = depth
        self.started = self.last_line = time.monotonic()
        self.partial = b""

    def prefix(self) -> str:
        own = f"{self.step.id} | " if self.step.parallel_group else "| "
        return f"{'  ' * self.depth}  {own}"


class StreamingListener(CliListener):
    """Text mode: each step's header, live output and closing line on stdout (nothing with --quiet)."""

    def __init__(self):
        super().__init__()
        self.running: dict[int, _Running] = {}
        self.stop = threading.Event()
        self.ticker = threading.Thread(target=self._tick, daemon=True)
        self.ticker.start()

    def step_started(self, step, depth):
        with self.lock:
            self.running[id(step)] = _Running(step, depth)
            status(f"{'  ' * depth}==> {step.id} [{step.type}]")

    def step_output(self, step, chunk):
        with self.lock:
            state = self.running.get(id(step))
            if state is None:
                return
            *lines, state.partial = (state.partial + chunk).split(b"\n")
            for line in lines:
                self._emit(state, line)

    def step_finished(self, result, depth):
        with self.lock:
            state = next((s for key, s in self.running.items()
                          if s.step.id == result.step_id and s.depth == depth), None)
            if state is None:
                return  # skipped or not run: the summary says why
            if state.partial:
                self._emit(state, state.partial)
            del self.running[id(state.step)]
            status(f"{'  ' * depth}<== {result.step_id}: {result.status} ({result.duration_ms / 1000:.1f}s)")

    def close(self):
        self.stop.set()
        super().close()

    def _emit(self, state: _Running, line: bytes) -> None:
        state.last_line = time.monotonic()
        status(state.prefix() + line.decode("utf-8", "replace").rstrip("\r"))
        sys.stdout.flush()  # live in a pipe (CI logs) too

    def _tick(self) -> None:
        every = progress_every()
        while not self.stop.wait(min(1.0, every)):
            now = time.monotonic()
            with self.lock:
                for state in self.running.values():
                    if now - state.last_line >= every:
                        state.last_line = now
                        status(f"{'  ' * state.depth}  … {state.step.id} still running "
                               f"({now - state.started:.0f}s elapsed)")


class _LiveTable:
    """A rich live table on stderr: one row per step with its status and elapsed time."""

    def __init__(self):
        from rich.console import Console
        from rich.live import Live

        self.rows: dict[str, list] = {}
        self.lock = threading.Lock()
        self.live = Live(self, console=Console(stderr=True), refresh_per_second=4, transient=False)
        self.live.start()

    def start(self, step_id: str, depth: int) -> None:
        with self.lock:
            self.rows[f"{depth}:{step_id}"] = ["  " * depth + step_id, "running", time.monotonic(), None]

    def finish(self, result, depth: int) -> None:
        with self.lock:
            row = self.rows.setdefault(f"{depth}:{result.step_id}",
                                       ["  " * depth + result.step_id, "", time.monotonic(), None])
            row[1] = result.status
            row[3] = result.duration_ms / 1000

    def __rich__(self):
        from rich.table import Table

        table = Table(show_header=True, header_style="bold", box=None)
        for column in ("STEP", "STATUS", "ELAPSED"):
            table.add_column(column)
        colours = {"completed": "green", "failed": "red", "degraded": "yellow",
                   "skipped": "dim", "running": "cyan", "pending": "dim"}
        with self.lock:
            for name, state, started, took in self.rows.values():
                elapsed = took if took is not None else time.monotonic() - started
                table.add_row(name, f"[{colours.get(state, 'white')}]{state}[/]", f"{elapsed:.1f}s")
        return table

    def stop(self) -> None:
        self.live.stop()
