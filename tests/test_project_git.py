"""Planned git add/commit commands, commit message sources and limits (dp.project.git)."""

from __future__ import annotations

import io

import pytest

from dp.errors import DpError
from dp.project.git import (
    DEFAULT_MAX_COMMIT_SIZE,
    add_command,
    commit_command,
    failure_hint,
    max_commit_size,
    read_message,
)
from dp.project.workdir import working_directory


@pytest.fixture
def root(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.py").write_text("a\n")
    (tmp_path / "outside-msg.txt").write_text("stolen\n")
    return working_directory(project)


def test_add_is_one_literal_batch_of_confined_deduplicated_paths(root):
    command = add_command(root, ["a.py", "./a.py", str(root / "b.py"), "-n"])
    assert command.argv == ("git", "--literal-pathspecs", "add", "--", "a.py", "b.py", "-n")
    assert command.cwd == root


def test_add_refuses_one_bad_path_among_good_ones(root):
    with pytest.raises(DpError, match="outside the working directory"):
        add_command(root, ["a.py", "../outside-msg.txt"])


def test_add_needs_a_path(root):
    with pytest.raises(DpError, match="at least one path"):
        add_command(root, [])


def test_commit_sends_the_message_on_stdin(root):
    command = commit_command(root, b"subject\n\nbody")
    assert command.argv == ("git", "commit", "--file=-")
    assert command.stdin == b"subject\n\nbody"
    assert "# stdin: 13 bytes" in command.shell_line()


def _read(root, *, message=None, file=None, stdin=b"", limit=DEFAULT_MAX_COMMIT_SIZE):
    return read_message(root, message=message, file=file, stdin=io.BytesIO(stdin), limit=limit)


def test_message_sources(root):
    (root / "msg.txt").write_bytes(b"from file\n# kept as is\n")
    assert _read(root, message="héllo\n\nbody") == "héllo\n\nbody".encode()
    assert _read(root, file="msg.txt") == b"from file\n# kept as is\n"
    assert _read(root, file="-", stdin=b"from stdin") == b"from stdin"


@pytest.mark.parametrize("kwargs", [{}, {"message": "m", "file": "-"}])
def test_exactly_one_message_source(root, kwargs):
    with pytest.raises(DpError, match="exactly one of -m MSG, -F FILE or -F -"):
        _read(root, **kwargs)


def test_message_file_must_be_inside_the_working_directory(root):
    with pytest.raises(DpError, match="outside the working directory"):
        _read(root, file="../outside-msg.txt")
    with pytest.raises(DpError, match="cannot read commit message file missing.txt"):
        _read(root, file="missing.txt")


@pytest.mark.parametrize("source", ["message", "file", "stdin"])
def test_limit_is_inclusive_and_enforced_for_every_source(root, source):
    for size, accepted in ((16 * 1024, True), (17 * 1024, False)):
        data = b"x" * size
        (root / "big.txt").write_bytes(data)
        kwargs = {
            "message": {"message": data.decode()},
            "file": {"file": "big.txt"},
            "stdin": {"file": "-", "stdin": data},
        }[source]
        if accepted:
            assert _read(root, **kwargs) == data
        else:
            with pytest.raises(DpError, match="over the 16384-byte limit.*DP_MAX_COMMIT_SIZE"):
                _read(root, **kwargs)


def test_limit_comes_from_the_environment():
    assert max_commit_size({}) == 16 * 1024
    assert max_commit_size({"DP_MAX_COMMIT_SIZE": "32768"}) == 32768
    for bad in ("0", "-1", "16k", "lots"):
        with pytest.raises(DpError, match="DP_MAX_COMMIT_SIZE must be a positive number"):
            max_commit_size({"DP_MAX_COMMIT_SIZE": bad})


def test_failure_hint_points_at_git_init_or_another_directory(root):
    outside = failure_hint(root, "fatal: not a git repository (or any of the parent directories): .git")
    assert "not inside a git repository" in outside and "git init" in outside and "--cwd" in outside
    other = failure_hint(root, "nothing to commit, working tree clean")
    assert str(root) in other and "--cwd" in other and "git init" in other
