"""dp.process.run_process against real child processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from process_support import wait_gone

from dp.errors import DpError
from dp.process import TIMEOUT_EXIT_CODE, check_timeout, run_process


def test_exit_code_and_output_of_the_child(tmp_path):
    result = run_process(["sh", "-c", "echo hello; exit 7"], cwd=tmp_path)
    assert result.exit_code == 7
    assert result.output == "hello\n"
    assert not result.timed_out and not result.truncated
    assert result.duration_ms >= 0


def test_death_by_signal_is_reported_like_a_shell_does(tmp_path):
    result = run_process(["sh", "-c", "kill -TERM $$"], cwd=tmp_path)
    assert result.exit_code == 128 + signal.SIGTERM and not result.timed_out


def test_success_is_zero_and_cwd_is_used(tmp_path):
    result = run_process(["pwd"], cwd=tmp_path)
    assert result.exit_code == 0
    assert Path(result.output.strip()).resolve() == tmp_path.resolve()


def test_stdout_and_stderr_are_captured_in_arrival_order(tmp_path):
    script = "echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three"
    result = run_process(["sh", "-c", script], cwd=tmp_path)
    assert result.output == "one\ntwo\nthree\n"


def test_capture_keeps_the_tail_and_says_it_was_cut(tmp_path):
    code = "import sys; sys.stdout.write('a' * 50000 + 'é' * 10 + 'THE END')"
    result = run_process([sys.executable, "-c", code], cwd=tmp_path, capture_limit=100)
    assert result.truncated
    assert result.output.endswith("é" * 10 + "THE END")
    assert len(result.output.encode()) <= 100
    assert "\ufffd" not in result.output


def test_output_under_the_limit_is_not_marked_truncated(tmp_path):
    result = run_process(["sh", "-c", "printf 12345"], cwd=tmp_path, capture_limit=5)
    assert result.output == "12345"
    assert not result.truncated


def test_environment_replaces_ours_when_given(tmp_path):
    env = {"PATH": os.environ["PATH"], "DP_PROCESS_TEST": "from-env"}
    result = run_process(["sh", "-c", 'echo "$DP_PROCESS_TEST $HOME"'], cwd=tmp_path, env=env)
    assert result.output == "from-env \n"


def test_stdin_bytes_are_fed_and_default_stdin_is_empty(tmp_path):
    fed = run_process(["cat"], cwd=tmp_path, stdin=b"line one\nline two\n")
    assert fed.output == "line one\nline two\n"
    silent = run_process(["cat"], cwd=tmp_path, timeout=10)
    assert silent.output == "" and silent.exit_code == 0 and not silent.timed_out


def test_timeout_kills_child_and_grandchild_that_ignore_sigterm(tmp_path):
    pids = tmp_path / "pids"
    script = textwrap.dedent(
        f"""
        trap '' TERM
        sh -c 'trap "" TERM; echo $$ >> {pids}; while :; do sleep 0.1; done' &
        echo $$ >> {pids}
        echo started
        while :; do sleep 0.1; done
        """
    )
    started = time.monotonic()
    result = run_process(["sh", "-c", script], cwd=tmp_path, timeout=1, grace=0.5)
    assert time.monotonic() - started < 10
    assert result.timed_out
    assert result.exit_code == TIMEOUT_EXIT_CODE
    assert "started" in result.output
    recorded = [int(line) for line in pids.read_text().split()]
    assert len(recorded) == 2
    assert all(wait_gone(pid) for pid in recorded)


def test_timeout_sends_sigterm_first_so_the_child_can_clean_up(tmp_path):
    script = "trap 'echo cleaned up; exit 0' TERM; echo waiting; while :; do sleep 0.1; done"
    result = run_process(["sh", "-c", script], cwd=tmp_path, timeout=0.5, grace=5)
    assert result.timed_out and result.exit_code == TIMEOUT_EXIT_CODE
    assert result.output.startswith("waiting\n")
    assert result.output.endswith("cleaned up\n")


def test_background_process_holding_the_pipe_is_ended_not_waited_for(tmp_path):
    started = time.monotonic()
    result = run_process(["sh", "-c", "sleep 60 & echo $!"], cwd=tmp_path, grace=0.5)
    assert time.monotonic() - started < 10
    assert result.exit_code == 0 and not result.timed_out
    assert wait_gone(int(result.output.strip()))


def test_output_is_echoed_live_to_our_own_streams(tmp_path):
    """The harness echoes a child that waits for us between two lines.

    If the first line were only shown when the child ends, reading it here
    would wait until the child gives up (exit 3) instead of finishing (exit 0).
    """
    go = tmp_path / "go"
    child = (
        "import os, sys, time\n"
        "print('first', flush=True)\n"
        "print('to-stderr', file=sys.stderr, flush=True)\n"
        f"deadline = time.time() + 20\n"
        f"while not os.path.exists({str(go)!r}):\n"
        "    if time.time() > deadline: sys.exit(3)\n"
        "    time.sleep(0.05)\n"
        "print('second', flush=True)\n"
    )
    harness = (
        "import sys\n"
        "from dp.process import run_process\n"
        f"result = run_process([sys.executable, '-c', {child!r}], cwd='.', echo=True)\n"
        "sys.exit(result.exit_code)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", harness],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline() == "first\n"
        assert proc.stderr.readline() == "to-stderr\n"
        go.touch()
        assert proc.stdout.readline() == "second\n"
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_missing_executable_names_what_to_install(tmp_path):
    with pytest.raises(DpError) as error:
        run_process(["pnpm", "run", "build"], cwd=tmp_path, env={"PATH": str(tmp_path)})
    assert "pnpm" in error.value.message and "install" in error.value.message
    assert "https://pnpm.io" in error.value.message
    assert "\n" not in error.value.message


def test_relative_program_paths_are_found_from_the_childs_directory(tmp_path):
    (tmp_path / "bin").mkdir()
    script = tmp_path / "bin" / "hello"
    script.write_text("#!/bin/sh\necho hello from $0\n")
    script.chmod(0o755)
    result = run_process(["./bin/hello"], cwd=tmp_path)
    assert result.exit_code == 0 and result.output.endswith("/bin/hello\n")
    with pytest.raises(DpError, match="not an executable file"):
        run_process(["./bin/missing"], cwd=tmp_path)


def test_interrupting_us_takes_the_childs_whole_group_down(tmp_path):
    """Ctrl-C reaches only dp (the child has its own session): dp must end it."""
    harness = (
        "from dp.process import run_process\n"
        "run_process(['sh', '-c', 'sleep 60 & echo $! > pids; echo $$ >> pids; wait'],"
        " cwd='.', grace=0.5)\n"
    )
    # Ctrl-C as a terminal delivers it: a shell without job control (`pytest … &`) starts us with SIGINT
    # ignored, and Python then keeps ignoring it in the child, so give the child the default back.
    proc = subprocess.Popen([sys.executable, "-c", harness], cwd=tmp_path, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    pids_file = tmp_path / "pids"
    deadline = time.monotonic() + 10
    while len(pids_file.read_text().split() if pids_file.exists() else []) < 2:
        assert time.monotonic() < deadline, "the child never started"
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=30)
    assert b"KeyboardInterrupt" in stderr
    assert all(wait_gone(int(pid)) for pid in pids_file.read_text().split())


def test_missing_working_directory_is_a_clear_error(tmp_path):
    with pytest.raises(DpError, match="does not exist"):
        run_process(["true"], cwd=tmp_path / "nowhere")


@pytest.mark.parametrize("seconds", [0, -1, 1801])
def test_out_of_range_timeouts_are_refused(seconds):
    with pytest.raises(DpError, match="at most 1800"):
        check_timeout(seconds)


def test_timeouts_in_range_are_accepted():
    assert check_timeout(1800) == 1800.0
    assert check_timeout(0.5) == 0.5


def test_dropped_bytes_say_how_much_was_cut_and_every_chunk_is_seen(tmp_path):
    code = "import sys; sys.stdout.write('a' * 50000); sys.stdout.flush(); sys.stderr.write('b' * 100)"
    chunks = []
    result = run_process([sys.executable, "-c", code], cwd=tmp_path, capture_limit=1000, on_output=chunks.append)
    assert result.dropped_bytes == 50100 - 1000
    assert sum(len(chunk) for chunk in chunks) == 50100
    assert b"".join(chunks).count(b"b") == 100


def test_cancel_ends_the_childs_group_and_says_so(tmp_path):
    import threading

    cancel = threading.Event()
    pid_file = tmp_path / "grandchild.pid"
    script = f"sleep 60 & echo $! > {pid_file}; wait"
    threading.Timer(0.5, cancel.set).start()
    result = run_process(["sh", "-c", script], cwd=tmp_path, timeout=60, cancel=cancel)
    assert result.cancelled and not result.timed_out
    assert wait_gone(int(pid_file.read_text()))
