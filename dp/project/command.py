"""A planned command: what would run, where, with what on stdin.

Every project action is planned before anything runs, so ``--dry-run`` shows
exactly the argv that the real run would execute, and the real run is that
same plan handed to ``dp.process``.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Optional, Sequence


class Command:
    """``argv`` run in ``cwd``, optionally fed ``stdin`` bytes."""

    __slots__ = ("argv", "cwd", "stdin")

    def __init__(self, argv: Sequence[str], cwd: Path, stdin: Optional[bytes] = None):
        self.argv = tuple(argv)
        self.cwd = cwd
        self.stdin = stdin

    def shell_line(self) -> str:
        """The command as a shell would spell it (stdin shown as a note)."""
        line = shlex.join(self.argv)
        if self.stdin is not None:
            line += f"  # stdin: {len(self.stdin)} bytes"
        return line

    def shell_script(self) -> str:
        """The command as a runnable shell snippet, stdin included as a quoted here-document."""
        line = shlex.join(self.argv)
        if self.stdin is None:
            return line
        text = self.stdin.decode("utf-8", errors="replace")
        lines = text.splitlines()
        delimiter = "DP_STDIN"
        while delimiter in lines:
            delimiter += "_"
        body = text if text.endswith("\n") or not text else text + "\n"
        return f"{line} <<'{delimiter}'\n{body}{delimiter}"

    def to_json(self) -> dict:
        planned = {"command": shlex.join(self.argv), "argv": list(self.argv), "cwd": str(self.cwd)}
        if self.stdin is not None:
            planned["stdin"] = self.stdin.decode("utf-8", errors="replace")
        return planned

    def run(self, *, echo: bool, timeout: float, capture_limit: int, cancel=None, on_output=None):
        """Run it through ``dp.process``; returns its ``ProcessResult``.

        ``cancel`` and ``on_output`` are ``run_process``'s (the MCP server's
        cancellation and progress; the CLI leaves them out).
        """
        from dp.process import run_process

        return run_process(
            self.argv,
            cwd=self.cwd,
            stdin=self.stdin,
            echo=echo,
            timeout=timeout,
            capture_limit=capture_limit,
            cancel=cancel,
            on_output=on_output,
        )

    def __repr__(self) -> str:
        return f"Command({self.shell_line()!r}, cwd={str(self.cwd)!r})"
