"""Planned commands: what dry runs print must be exactly what would run (dp.project.command)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from dp.errors import DpError
from dp.project.command import Command


@pytest.mark.parametrize(
    "message",
    [
        b"subject",
        b"subject\n\nbody with 'quotes', $(dollars) and `ticks`\n",
        b"DP_STDIN\nDP_STDIN_\nends the heredoc?\n",
        b"",
    ],
)
def test_dry_run_script_feeds_the_same_stdin_when_run_by_a_shell(tmp_path, message):
    script = Command(["cat"], tmp_path, stdin=message).shell_script()
    ran = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True)
    assert ran.returncode == 0, ran.stderr
    expected = message if message.endswith(b"\n") or not message else message + b"\n"
    assert ran.stdout == expected


def test_arguments_are_shell_quoted(tmp_path):
    command = Command(["printf", "%s|", "a b", "it's", "$HOME"], tmp_path)
    ran = subprocess.run(["bash", "-c", command.shell_script()], capture_output=True, text=True)
    assert ran.stdout == "a b|it's|$HOME|"
    assert command.shell_line() == command.shell_script()


def test_json_and_one_line_forms(tmp_path):
    command = Command(["git", "commit", "--file=-"], tmp_path, stdin="héllo".encode())
    assert command.shell_line() == "git commit --file=-  # stdin: 6 bytes"
    assert command.to_json() == {
        "command": "git commit --file=-",
        "argv": ["git", "commit", "--file=-"],
        "cwd": str(tmp_path),
        "stdin": "héllo",
    }


def test_run_feeds_stdin_and_reports_the_exit_code(tmp_path):
    result = Command(["sh", "-c", "cat; exit 3"], tmp_path, stdin=b"fed\n").run(
        echo=False, timeout=30, capture_limit=1000
    )
    assert (result.exit_code, result.output, result.timed_out) == (3, "fed\n", False)


@pytest.mark.parametrize("directory", ["/", "/etc", "/usr"])
def test_run_refuses_system_directories_before_anything_starts(tmp_path, directory):
    """The one execution path checks the directory itself, whoever planned the command."""
    marker = tmp_path / "ran"
    command = Command(["touch", str(marker)], Path(directory))
    with pytest.raises(DpError, match=f"refusing to work in {directory}: it is a system directory"):
        command.run(echo=False, timeout=30, capture_limit=1000)
    with pytest.raises(DpError, match="system directory"):
        command.checked()
    assert not marker.exists()


def test_checked_returns_the_command_in_a_directory_of_ones_own(tmp_path):
    command = Command(["true"], tmp_path)
    assert command.checked() is command
