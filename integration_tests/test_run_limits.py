"""dp run: timeouts (whole process group), --cwd confinement, option errors."""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest
from cli_assertions import assert_one_line_error
from task_projects import gone as _gone
from task_projects import make_repo, wait_until_gone

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")

# The task starts a grandchild; both ignore SIGTERM, so only SIGKILL ends them.
STUBBORN = """\
trap '' TERM
sh -c 'trap "" TERM; echo $$ >> pids; while :; do sleep 0.1; done' &
echo $$ >> pids
echo started
while :; do sleep 0.1; done
"""


@needs_make
def test_timeout_kills_the_task_and_its_grandchild(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "stubborn.sh").write_text(STUBBORN)
    (root / "Makefile").write_text("slow:\n\t@sh stubborn.sh\n")
    started = time.monotonic()
    proc = dp("run", "--json", "--timeout", "1", "slow", cwd=root, timeout=60)
    assert time.monotonic() - started < 30
    assert proc.returncode == 124, proc.stderr
    report = json.loads(proc.stdout)
    assert report["timed_out"] is True and report["exit_code"] == 124
    assert "started" in report["output"]
    pids = [int(pid) for pid in (root / "pids").read_text().split()]
    assert len(pids) == 2
    wait_until_gone(pids)
    assert all(map(_gone, pids))


@needs_make
def test_timeout_in_text_mode_says_so(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "Makefile").write_text("slow:\n\t@echo begin; sleep 30\n")
    proc = dp("run", "--timeout", "0.5", "slow", cwd=root)
    assert proc.returncode == 124
    assert "begin" in proc.stdout
    assert "timed out after 0.5 s" in proc.stderr


@pytest.mark.parametrize("value", ["0", "-3", "1801"])
def test_bad_timeouts_are_refused(dp, tmp_path, value):
    root = make_repo(tmp_path / "repo")
    (root / "Makefile").write_text("t:\n\ttouch ran\n")
    proc = dp("run", "--timeout", value, "t", cwd=root)
    assert proc.returncode != 0
    assert_one_line_error(proc, "timeout must be more than 0 and at most 1800 seconds")
    assert not (root / "ran").exists()


def test_non_numeric_timeout_is_a_usage_error(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "Makefile").write_text("t:\n\ttouch ran\n")
    assert_one_line_error(dp("run", "--timeout", "soon", "t", cwd=root), "--timeout")
    assert not (root / "ran").exists()


@pytest.fixture
def project_with_outside(tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "Makefile").write_text("t:\n\ttouch ran\n")
    (root / "sub").mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Makefile").write_text("t:\n\ttouch ran\n")
    os.symlink(outside, root / "escape")
    return root, outside


@needs_make
@pytest.mark.parametrize("requested", ["../outside", "sub/../../outside", "escape", "ABSOLUTE"])
def test_cwd_out_of_the_project_runs_as_if_dp_was_started_there(dp, project_with_outside, requested):
    """A person's -C DIR is git's and make's: the project is the one around DIR, wherever that is.
    (An agent's cwd parameter stays inside the project: test_mcp_server.py.)"""
    root, outside = project_with_outside
    requested = str(outside) if requested == "ABSOLUTE" else requested
    proc = dp("run", "--cwd", requested, "t", cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert (outside / "ran").exists() and not (root / "ran").exists()


@needs_make
def test_cwd_inside_the_project_is_used(dp, project_with_outside):
    root, _ = project_with_outside
    proc = dp("run", "--cwd", "sub", "t", cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert (root / "ran").exists()  # the Makefile's directory


def test_unknown_runner_is_refused(dp, project_with_outside):
    root, _ = project_with_outside
    proc = dp("run", "--runner", "gradle", "t", cwd=root)
    assert_one_line_error(proc, 'no runner "gradle" in this project; detected: make')
    assert not (root / "ran").exists()


def test_no_project_is_refused(dp, tmp_path):
    proc = dp("run", "test", cwd=make_repo(tmp_path / "empty"))
    assert_one_line_error(proc, "no project found")


def test_help_has_examples(dp):
    for command in ("run", "tasks", "script"):
        proc = dp(command, "--help")
        assert proc.returncode == 0 and "Examples:" in proc.stdout and f"dp {command} " in proc.stdout


@needs_make
def test_json_output_keeps_only_the_tail_and_says_so(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "Makefile").write_text("loud:\n\t@python3 -c \"print('x' * 300000); print('THE END')\"\n")
    report = json.loads(dp("run", "--json", "loud", cwd=root).stdout)
    assert report["exit_code"] == 0
    assert report["truncated"] is True
    assert report["output"].endswith("THE END\n")
    assert len(report["output"]) <= 100_000
