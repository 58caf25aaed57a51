"""One tool call in progress: its cancel switch, what it has done so far, its output bound.

A tool's work runs on a worker thread through dp's ordinary execution path
(``dp.process.run_process``, the recipe runner); the server's event loop
reads ``progress()`` to send MCP progress notifications and sets ``cancel``
when the client cancels the request, which ends the child's whole process
group exactly like a timeout does.
"""

from __future__ import annotations

import threading
import time

# The tail of a child's output a tool returns: beyond this the front is cut,
# with a note. Claude Code itself cuts MCP results at ~25,000 tokens.
OUTPUT_LIMIT = 40_000
_LAST_LINE_CHARS = 160


class ToolRefusal(Exception):
    """The call cannot be carried out; the message tells the agent why (an ``isError`` result)."""


class InvalidParams(ToolRefusal):
    """The arguments are wrong (seed 000's ``invalid_params``: a JSON-RPC -32602 error)."""


class Job:
    """Shared between the worker thread (writes) and the event loop (reads)."""

    def __init__(self, total: float | None = None):
        self.cancel = threading.Event()
        self.total = total
        self.started = time.monotonic()
        self._lock = threading.Lock()
        self._bytes = 0
        self._last_line = ""
        self._message = "started"
        self._version = 0

    def output(self, chunk: bytes) -> None:
        """``run_process``'s ``on_output``: count the bytes, remember the last line."""
        lines = [line for line in chunk.decode("utf-8", errors="replace").splitlines() if line.strip()]
        with self._lock:
            self._bytes += len(chunk)
            if lines:
                self._last_line = lines[-1].strip()[:_LAST_LINE_CHARS]
            self._message = f"{self._bytes:,} bytes of output; last line: {self._last_line}"
            self._version += 1

    def note(self, message: str) -> None:
        """Say what is happening now (a recipe step started or finished)."""
        with self._lock:
            self._message = message
            self._version += 1

    def progress(self) -> tuple[int, float, str]:
        """(change counter, seconds since the start, message) for a progress notification."""
        with self._lock:
            return self._version, time.monotonic() - self.started, self._message


def bounded(result) -> str:
    """A ``ProcessResult``'s output, with a note in front when its start was cut."""
    if not result.dropped_bytes:
        return result.output
    return (
        f"[dp: output cut: the first {result.dropped_bytes:,} bytes are not shown; "
        f"the last {len(result.output.encode()):,} follow]\n{result.output}"
    )


def clip_text(text: str, limit: int) -> str:
    """``text`` cut to its last ``limit`` characters, saying how much went."""
    if text is None or len(text) <= limit:
        return text
    cut = len(text) - limit
    return f"[dp: output cut: the first {cut:,} characters are not shown]\n{text[cut:]}"
