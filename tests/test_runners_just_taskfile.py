"""justfile and Taskfile detection when just / task are not installed.

(With the tools installed, their JSON listings are used: covered through fake
executables in integration_tests/test_tasks_cli.py.)
"""

from __future__ import annotations

import pytest

from dp.errors import DpError
from dp.runners import just, taskfile

JUSTFILE = """\
set shell := ["bash", "-c"]
alias t := test
version := "1.0"
export RUST_LOG := "info"

# Run the tests
test filter='': build
    cargo test {{filter}}

@build:
    cargo build

[private]
helper:
    echo hidden

_secret:
    echo hidden
"""

TASKFILE = """\
version: '3'
tasks:
  build:
    desc: Build the binary
    cmds: [go build ./...]
  test:
    summary: Run all tests
    cmds: [go test ./...]
  setup:
    internal: true
    cmds: [echo setup]
  fmt: go fmt ./...
"""


@pytest.fixture
def no_tools(monkeypatch, tmp_path_factory):
    monkeypatch.setenv("PATH", str(tmp_path_factory.mktemp("empty-bin")))


def test_justfile_recipes_are_read_from_the_file_without_just(tmp_path, no_tools):
    (tmp_path / "justfile").write_text(JUSTFILE)
    (runner,) = just.detect(tmp_path, tmp_path)
    assert runner.name == "just" and "read from the file (just not run)" in runner.reason
    tasks = {task.name: task for task in runner.tasks}
    assert set(tasks) == {"test", "build"}
    assert tasks["test"].description == "Run the tests"
    assert tasks["test"].command(["unit"]) == ["just", "test", "unit"]


@pytest.mark.parametrize("name", ["Justfile", ".justfile"])
def test_other_justfile_spellings(tmp_path, no_tools, name):
    (tmp_path / name).write_text("hello:\n    echo hi\n")
    (runner,) = just.detect(tmp_path, tmp_path)
    assert [task.name for task in runner.tasks] == ["hello"]


def test_taskfile_tasks_are_read_from_yaml_without_task(tmp_path, no_tools):
    (tmp_path / "Taskfile.yml").write_text(TASKFILE)
    (runner,) = taskfile.detect(tmp_path, tmp_path)
    assert runner.name == "task" and "read from the file (task not run)" in runner.reason
    tasks = {task.name: task for task in runner.tasks}
    assert set(tasks) == {"build", "test", "fmt"}
    assert tasks["build"].description == "Build the binary"
    assert tasks["test"].description == "Run all tests"
    # Extra arguments reach the task as CLI_ARGS, after --.
    assert tasks["test"].command(["-run", "X"]) == ["task", "test", "--", "-run", "X"]


def test_malformed_taskfile_is_a_clear_error(tmp_path, no_tools):
    (tmp_path / "Taskfile.yml").write_text("tasks: [unclosed\n")
    with pytest.raises(DpError, match="parsing Taskfile.yml"):
        taskfile.detect(tmp_path, tmp_path)


def test_no_files_no_runners(tmp_path):
    assert just.detect(tmp_path, tmp_path) == []
    assert taskfile.detect(tmp_path, tmp_path) == []
