"""Assertions shared by the integration tests (import: from cli_assertions import …)."""

import os
import subprocess


def assert_one_line_error(proc, fragment: str = "") -> None:
    """A CLI failure: non-zero exit, exactly one stderr line, no traceback."""
    assert proc.returncode != 0, proc
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert fragment in lines[0], proc.stderr


def into_a_closed_pipe(command: list, env: dict) -> subprocess.CompletedProcess:
    """Run COMMAND with its stdout a pipe that has no reader, by construction, for the whole run.

    The read end is closed before the process starts (and os.pipe() descriptors are not
    inherited), so every write the program makes fails with EPIPE — however small its output,
    however the machine schedules it. No timing decides the outcome.
    """
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([str(word) for word in command], stdout=write_end, stderr=subprocess.PIPE,
                              env=env, text=True, timeout=120)
    finally:
        os.close(write_end)
