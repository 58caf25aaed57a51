"""justfile and Taskfile detection by reading the files (the hook's and the MCP server's way, and the
command line's when just / task are not installed).

(With the tools installed and a person asking, their JSON listings are used: covered through fake
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


def test_reading_is_the_default_even_with_the_tools_installed(tmp_path):
    """just and task may be on PATH (the test extra installs them): only tools_asked runs them."""
    (tmp_path / "justfile").write_text(JUSTFILE)
    (tmp_path / "Taskfile.yml").write_text(TASKFILE)
    assert "just not run" in just.detect(tmp_path, tmp_path)[0].reason
    assert "task not run" in taskfile.detect(tmp_path, tmp_path)[0].reason


def test_justfile_imports_inside_the_repository_attributes_and_systems(tmp_path, no_tools):
    outside = tmp_path / "outside.just"
    outside.write_text("stolen:\n    echo\n")
    repo = tmp_path / "repo"
    (repo / "just").mkdir(parents=True)
    (repo / "just" / "lint.just").write_text("# Lint it\nlint:\n    ruff .\nimport 'deeper.just'\n")
    (repo / "just" / "deeper.just").write_text("deeper:\n    true\n")
    (repo / "justfile").write_text(
        "import 'just/lint.just'\nimport? 'just/missing.just'\nimport '../outside.just'\n"
        "[linux]\ninstall:\n    apt-get install x\n\n[doc('Ship it')]\n[group('ops')]\ndeploy:\n    ./ship\n"
        "[private, no-cd]\nhidden:\n    true\n"
    )
    (runner,) = just.detect(repo, repo)
    tasks = {task.name: task for task in runner.tasks}
    assert set(tasks) == {"install", "deploy", "lint", "deeper"}
    assert tasks["install"].conditional and not tasks["deploy"].conditional
    assert tasks["deploy"].description == "Ship it" and tasks["lint"].description == "Lint it"
    assert runner.unknown == "justfile imports ../outside.just, outside the repository: not read"
    (repo / "justfile").write_text("import 'nowhere.just'\n")
    with pytest.raises(DpError, match="imports nowhere.just, which does not exist"):
        just.detect(repo, repo)


def test_taskfile_includes_inside_the_repository_are_namespaced(tmp_path, no_tools):
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "Taskfile.yml").write_text("version: '3'\ntasks:\n  serve:\n    desc: Serve the docs\n")
    (repo / "ci.yml").write_text("version: '3'\ntasks:\n  check: {cmds: [true]}\n")
    (repo / "Taskfile.yml").write_text(
        "version: '3'\nincludes:\n  docs: ./docs\n  ci: {taskfile: ./ci.yml}\n  hidden: {taskfile: ./ci.yml, internal: true}\n"
        "  remote: https://example.com/Taskfile.yml\n  templ: '{{.HOME}}/Taskfile.yml'\n  maybe: {taskfile: ./nope.yml, optional: true}\n"
        "  gone: ./gone.yml\n  escape: ../outside.yml\n"
        "tasks:\n  build: {cmds: [true]}\n  'start:*': {cmds: [true]}\n"
    )
    (runner,) = taskfile.detect(repo, repo)
    tasks = {task.name: task for task in runner.tasks}
    assert set(tasks) == {"build", "docs:serve", "ci:check"}
    assert tasks["docs:serve"].description == "Serve the docs"
    assert tasks["docs:serve"].command(["--", "x"]) == ["task", "docs:serve", "--", "x"]
    assert runner.unknown.split("; ") == [
        "Taskfile.yml includes remote from a path Task computes or fetches: not read",
        "Taskfile.yml includes templ from a path Task computes or fetches: not read",
        "Taskfile.yml includes gone (./gone.yml): not found inside the repository",
        "Taskfile.yml includes escape (../outside.yml): not found inside the repository",
    ]


@pytest.mark.parametrize("name, module", [("justfile", just), ("Taskfile.yml", taskfile)])
def test_a_file_that_leads_out_of_the_repository_is_not_read(tmp_path, no_tools, name, module):
    (tmp_path / "elsewhere").write_text(JUSTFILE if module is just else TASKFILE)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / name).symlink_to(tmp_path / "elsewhere")
    (runner,) = module.detect(repo, repo)
    assert runner.tasks == [] and runner.unknown == f"{name} leads outside the repository: not read"
