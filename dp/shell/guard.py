"""A time limit that really interrupts pure-Python code (bashlex, re, Jinja2).

Two interval timers raise ``Timeout`` inside the guarded block: a CPU-time
budget (``ITIMER_PROF``), which is what a runaway loop such as bashlex's
hang on ``echo 'a${'b`` exhausts, and a wall-clock ceiling (``ITIMER_REAL``)
well above it. A hook starved of CPU by fifty siblings is therefore slowed
down, not silently disabled, while a hang still ends promptly. Signals only
work in the main thread of a POSIX process; elsewhere the block runs
unguarded. Nested limits share the timers: the inner one re-arms what is
left of the outer one when it ends.
"""

import time

try:  # the C module itself: ``signal`` wraps it in enums, ~0.5 ms of every hook run (it guards all of it)
    import _signal as signal
except ImportError:  # another Python implementation
    import signal

# How much the wall-clock ceiling exceeds the CPU budget unless given.
WALL_FACTOR = 4


class Timeout(BaseException):
    """The time ran out. A BaseException so that ``except Exception`` can't swallow it."""


def _expire(signum, frame):
    raise Timeout()


class deadline:
    """``with deadline(cpu_seconds[, wall_seconds]):`` raises Timeout in the block past either limit."""

    def __init__(self, cpu_seconds: float, wall_seconds: float | None = None):
        self.budgets = (cpu_seconds, wall_seconds or cpu_seconds * WALL_FACTOR)
        self.armed = False

    @staticmethod
    def _timers():
        return ((signal.ITIMER_PROF, signal.SIGPROF), (signal.ITIMER_REAL, signal.SIGALRM))

    def _clocks(self):
        return (time.process_time(), time.monotonic())

    def __enter__(self):
        if not hasattr(signal, "setitimer"):
            return self
        try:
            self.previous_handlers = [signal.signal(number, _expire) for _, number in self._timers()]
        except ValueError:  # not the main thread: run unguarded
            return self
        self.armed = True
        self.started = self._clocks()
        self.outer = []
        for (timer, _), budget in zip(self._timers(), self.budgets):
            outer, _ = signal.setitimer(timer, budget)
            if 0 < outer < budget:
                signal.setitimer(timer, outer)
            self.outer.append(outer)
        return self

    def __exit__(self, *exc):
        if not self.armed:
            return False
        spent = [now - then for now, then in zip(self._clocks(), self.started)]
        for (timer, number), previous, outer, used in zip(self._timers(), self.previous_handlers, self.outer, spent):
            signal.setitimer(timer, 0)
            signal.signal(number, previous)
            if outer > 0:
                signal.setitimer(timer, max(outer - used, 0.001))
        return False
