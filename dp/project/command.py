"""A planned command: what would run, where, with what on stdin — and the one way it runs.

Every project action (``dp make``, ``dp git``) and every project task
(``dp run``, ``dp script``, the MCP tools) is planned as a ``Command`` before
anything runs, so ``--dry-run`` shows exactly the argv that the real run would
execute. ``checked`` holds its directory to ``dp.project.workdir`` (never
``/`` or a system directory, always the user's own); ``run`` checks it again
and hands the same plan to ``dp.process`` (streaming, exit status, timeout,
the whole process tree ended).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

from dp.shell.quoting import with_heredoc


class Command:
    """``argv`` run in ``cwd``, optionally fed ``stdin`` bytes."""

    __slots__ = ("argv", "cwd", "stdin")

    def __init__(self, argv: Sequence[str], cwd: Path, stdin: bytes | None = None):
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
        return with_heredoc(line, self.stdin.decode("utf-8", errors="replace"))

    def to_json(self) -> dict:
        planned = {"command": shlex.join(self.argv), "argv": list(self.argv), "cwd": str(self.cwd)}
        if self.stdin is not None:
            planned["stdin"] = self.stdin.decode("utf-8", errors="replace")
        return planned

    def checked(self) -> Command:
        """This command, if its directory is one dp may act in; else the DpError saying why."""
        from dp.project.workdir import working_directory

        working_directory(self.cwd)
        return self

    def run(self, *, echo: bool, timeout: float, capture_limit: int, cancel=None, on_output=None):
        """Run it through ``dp.process`` (after ``checked``); returns its ``ProcessResult``.

        ``cancel`` and ``on_output`` are ``run_process``'s (the MCP server's
        cancellation and progress; the CLI leaves them out).
        """
        from dp.process import run_process

        self.checked()
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
