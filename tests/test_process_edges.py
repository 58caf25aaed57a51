"""dp.process at its byte-level edges: big stdin, children that ignore it, bytes that are not UTF-8.

test_process.py covers exit codes, timeouts, groups and the capture tail;
these are the cases where a careless runner deadlocks or crashes: stdin
larger than a pipe buffer, a child that exits without reading it, a cut
through a multi-byte character, output that is not text at all.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from process_support import gone

from dp.errors import DpError
from dp.process import run_process

PY = sys.executable


def test_stdin_larger_than_a_pipe_buffer_goes_through_without_deadlock(tmp_path):
    data = bytes(range(256)) * 8192  # 2 MiB: both pipes fill while the child is busy
    result = run_process([PY, "-c", "import sys; d = sys.stdin.buffer.read(); print(len(d), d[:4].hex())"],
                         cwd=tmp_path, stdin=data, timeout=60)
    assert result.exit_code == 0, result.output
    assert result.output.split() == [str(len(data)), "00010203"]


def test_a_child_that_never_reads_its_stdin_is_not_an_error(tmp_path):
    result = run_process([PY, "-c", "print('ignored my input')"], cwd=tmp_path, stdin=b"x" * 4_000_000,
                         timeout=60)
    assert (result.exit_code, result.output.strip()) == (0, "ignored my input")


def test_output_that_is_not_utf8_is_decoded_with_replacements(tmp_path):
    result = run_process([PY, "-c", r"import sys; sys.stdout.buffer.write(b'caf\xe9 \xff ok\n')"], cwd=tmp_path)
    assert result.output == "caf\ufffd \ufffd ok\n"


@pytest.mark.parametrize("character", ["é", "€", "😀"])
def test_a_cut_through_a_multibyte_character_starts_at_the_next_whole_one(tmp_path, character):
    encoded = character.encode()
    # Ten characters, then keep a tail that starts inside the first kept one.
    script = f"import sys; sys.stdout.buffer.write({(encoded * 10)!r})"
    limit = len(encoded) * 5 - 1
    result = run_process([PY, "-c", script], cwd=tmp_path, capture_limit=limit)
    assert result.truncated and result.dropped_bytes == len(encoded) * 10 - limit
    assert result.output == character * 4
    assert "\ufffd" not in result.output


def test_a_program_path_that_is_not_executable_is_named(tmp_path):
    (tmp_path / "build.sh").write_text("#!/bin/sh\necho hi\n")
    with pytest.raises(DpError) as caught:
        run_process(["./build.sh"], cwd=tmp_path)
    assert caught.value.message == f"./build.sh is not an executable file in {tmp_path}"
    os.chmod(tmp_path / "build.sh", 0o755)
    assert run_process(["./build.sh"], cwd=tmp_path).output == "hi\n"


def test_a_program_that_exists_but_cannot_run_is_one_error(tmp_path):
    (tmp_path / "fake").write_text("no shebang, not a binary")
    os.chmod(tmp_path / "fake", 0o755)
    with pytest.raises(DpError, match=r"^cannot run \./fake: Exec format error$"):
        run_process(["./fake"], cwd=tmp_path)


def test_an_empty_argv_is_a_programming_error():
    with pytest.raises(ValueError):
        run_process([], cwd=".")


class _CtrlCOnFirstLook(int):
    """A capture limit that raises KeyboardInterrupt when the supervisor first compares it:
    a Ctrl-C arriving after the child started but before dp watches it."""

    def __gt__(self, other):
        raise KeyboardInterrupt

    __lt__ = __ge__ = __le__ = __gt__


def _running_with(argument: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and argument.encode() in (entry / "cmdline").read_bytes().split(b"\0") \
                    and not gone(int(entry.name)):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_a_ctrl_c_while_the_run_is_being_set_up_still_ends_the_child(tmp_path):
    marker = "61.4321"  # a sleep no other test starts
    try:
        with pytest.raises(KeyboardInterrupt):
            run_process(["sleep", marker], cwd=tmp_path, capture_limit=_CtrlCOnFirstLook(1000))
        assert _running_with(marker) == []
    finally:
        for pid in _running_with(marker):
            os.kill(pid, signal.SIGKILL)
