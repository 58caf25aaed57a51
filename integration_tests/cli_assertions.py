"""Assertions shared by the integration tests (import: from cli_assertions import …)."""


def assert_one_line_error(proc, fragment: str = "") -> None:
    """A CLI failure: non-zero exit, exactly one stderr line, no traceback."""
    assert proc.returncode != 0, proc
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert fragment in lines[0], proc.stderr
