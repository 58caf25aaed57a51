"""dp tasks / dp run with the REAL just and Task (rust-just and go-task-bin from the test extra).

The fakes in test_tasks_cli.py pin the argv dp sends; these prove the listings
dp reads are what the real tools print (private recipes, doc comments, the
``desc`` of a task, internal tasks) and that arguments arrive where the
project's file says: a just recipe parameter, Task's ``{{.CLI_ARGS}}``.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from cli_assertions import assert_one_line_error
from task_projects import make_repo, path_with

VENV_BIN = Path(sys.executable).parent

JUSTFILE = """\
# Run the tests
test filter="all":
    echo "test {{filter}}" > ran.txt

# Not for agents: private
[private]
reset-db:
    touch reset.txt

_wipe:
    rm -f ran.txt
"""

TASKFILE = """\
version: "3"
tasks:
  build:
    desc: Build the binary
    cmds:
      - echo "build {{.CLI_ARGS}}" > built.txt
  setup:
    internal: true
    cmds: [echo setup]
  lint: echo lint
"""


def tool_path(tool: str) -> str:
    """PATH that reaches ``tool`` from the test extra (installed in this venv)."""
    if not (VENV_BIN / tool).exists() and not shutil.which(tool):
        pytest.skip(f"LOUD SKIP: {tool} is not installed: pip install '.[test]' installs it (rust-just, go-task-bin)")
    return path_with(VENV_BIN)


@pytest.fixture
def project(tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "justfile").write_text(JUSTFILE)
    (root / "Taskfile.yml").write_text(TASKFILE)
    return root


@pytest.fixture
def env():
    path = tool_path("just")
    tool_path("task")
    return {"PATH": path}


def test_the_real_listings_give_public_recipes_and_tasks_with_their_docs(dp, project, env):
    proc = dp("tasks", "--json", cwd=project, extra_env=env)
    assert proc.returncode == 0, proc.stderr
    runners = {runner["name"]: runner for runner in json.loads(proc.stdout)["runners"]}
    assert runners["just"]["reason"] == "justfile found: recipes from just's own listing"
    assert runners["task"]["reason"] == "Taskfile.yml found: tasks from task's own listing"
    assert [(t["name"], t["description"], t["command"]) for t in runners["just"]["tasks"]] == [
        ("test", "Run the tests", "just test")
    ]
    assert [(t["name"], t["description"], t["command"]) for t in runners["task"]["tasks"]] == [
        ("build", "Build the binary", "task build"),
        ("lint", None, "task lint"),
    ]


def test_arguments_reach_a_just_parameter_and_tasks_cli_args(dp, project, env):
    ran = dp("run", "test", "unit", cwd=project, extra_env=env)
    assert ran.returncode == 0, ran.stderr
    assert "dp: running `just test unit`" in ran.stderr
    assert (project / "ran.txt").read_text() == "test unit\n"
    built = dp("run", "build", "--", "--release", "-v", cwd=project, extra_env=env)
    assert built.returncode == 0, built.stderr
    assert "dp: running `task build -- --release -v`" in built.stderr
    assert (project / "built.txt").read_text() == "build --release -v\n"


def test_private_recipes_and_internal_tasks_are_refused(dp, project, env):
    for name in ("reset-db", "_wipe", "setup"):
        proc = dp("run", name, cwd=project, extra_env=env)
        assert_one_line_error(proc, f'no task "{name}" in this project')
    assert not (project / "ran.txt").exists() and not (project / "reset.txt").exists()


def test_a_justfile_just_rejects_is_one_line_while_task_still_works(dp, project, env):
    (project / "justfile").write_text("test:\n  echo a\n\techo mixed indentation\n")
    listed = dp("tasks", "--json", cwd=project, extra_env=env)
    assert listed.returncode == 0, listed.stderr
    report = json.loads(listed.stdout)
    assert [runner["name"] for runner in report["runners"]] == ["task"]
    assert report["problems"]["just"].startswith(f"just cannot read {project / 'justfile'}: ")
    assert dp("run", "lint", cwd=project, extra_env=env).returncode == 0


def test_a_failing_recipe_exit_code_is_dps(dp, project, env):
    (project / "justfile").write_text("fail:\n    exit 7\n")
    proc = dp("run", "--json", "fail", cwd=project, extra_env=env)
    assert proc.returncode == 7
    report = json.loads(proc.stdout)
    assert (report["runner"], report["exit_code"], report["command"]) == ("just", 7, "just fail")
