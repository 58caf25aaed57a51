"""Finding 1: the hook ran the repository's Makefile (and asked just and Task) to learn its tasks.

Project paving listed targets with ``make -pRrq``, which evaluates the
Makefile: ``override SHELL`` plus ``$(shell …)``, ``$(file >…)`` and ``!=``
ran as the user on ``make --version``, before the agent's permission check.
Now the hook and the MCP server read the files. The repository here carries a
Makefile, justfile and Taskfile that mark when any tool reads them; every
trigger the audit found (and more) goes through the real ``pave-check`` with
Claude Code's JSON, and every MCP tool that learns about the project through
the real ``dp mcp`` server over stdio. No marker may appear.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mcp_support import call, structured

from security.repository import bash_payload, cloned_repository, hook_env, hostile_task_files, pave_check

TRIGGERS = [
    "make --version",
    "make -v",
    "make -n test",
    "make help",
    "make test",
    "make",
    "echo hi && make -v",
    "git status; make help",
    "cd src && make build",
    "npm test",
    "npm run build",
    "npx foo",
    "yarn test",
    "pnpm run lint",
    "bun test",
    "just --list",
    "just build",
    "just test",
    "task --list-all",
    "task deploy",
    "task test",
    "pytest -q",
]


@pytest.fixture
def repository(tmp_path, markers):
    """A cloned repository with the hostile task files and no package.json."""
    return cloned_repository(tmp_path / "widget", hostile_task_files(markers), markers)


def trust(repository, env) -> None:
    """``dp trust``: task paving lists the tasks only in a repository the user trusts (finding 3),
    so the reading is proven there too."""
    proc = subprocess.run([str(Path(sys.executable).parent / "dp"), "trust"], cwd=repository, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("trusted", [False, True], ids=["untrusted", "trusted"])
@pytest.mark.parametrize("options", [(), ("--verbose",), ("--mode", "advise")], ids=["rewrite", "verbose", "advise"])
def test_paving_reads_the_makefile_justfile_and_taskfile_never_runs_them(repository, markers, tmp_path, options,
                                                                         trusted):
    env = hook_env(tmp_path / "home")
    for tool in ("make", "just", "task"):  # installed: the old listing would have asked each of them
        assert shutil.which(tool, path=env["PATH"]), f"{tool} is not installed: pip install '.[test]', apt install make"
    if trusted:
        trust(repository, env)
    for command in TRIGGERS:
        pave_check(bash_payload(command, repository), env, *options, cwd=repository)
        markers.assert_none(command)
    assert not (repository / "generated.mk").exists()


def test_a_task_hidden_behind_evaluation_is_left_as_typed_and_the_reason_said(repository, markers, tmp_path):
    """`task gen`, a name only the Makefile's evaluation could define (its missing include would be made and
    read): left alone, and --verbose says why."""
    env = hook_env(tmp_path / "home")
    (repository / "Taskfile.yml").unlink()
    trust(repository, env)
    proc = pave_check(bash_payload("task gen", repository), env, "--verbose", cwd=repository)
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "updatedInput" not in json.loads(proc.stdout)["hookSpecificOutput"]
    assert "left `task` as it is: make may define 'gen' where only running it would tell: Makefile:3 is an " in context
    assert "Makefile:5 includes generated.mk, which does not exist: make would try to build it" in context
    markers.assert_none("task gen")


def test_mcp_tools_that_learn_about_the_project_read_it(repository, markers, tmp_path):
    env = hook_env(tmp_path / "home")
    listed = structured(call(repository, env, "tasks", {}))
    assert listed["available_tasks"] == {
        "make": ["build", "generated.mk", "help", "lint", "test"], "just": ["build", "release"], "task": ["deploy", "docs"]}
    assert [runner["reason"] for runner in listed["runners"]] == [
        "Makefile found: targets read from the file (make not run)",
        "justfile found: recipes read from the file (just not run)",
        "Taskfile.yml found: tasks read from the file (task not run)",
    ]
    targets = structured(call(repository, env, "project_actions", {"action": "list"}))["targets"]
    assert [target["name"] for target in targets] == ["build", "help", "lint", "test"]
    call(repository, env, "project_recipe", {"op": "no-such-task"})
    call(repository, env, "project_actions", {"action": "run", "target": "test", "dry_run": True})
    call(repository, env, "run_script", {"name": "test"})
    call(repository, env, "recipe", {"action": "list"})
    markers.assert_none("the MCP server's listings")


def test_dp_tasks_asks_make_because_a_person_asked(repository, markers, tmp_path):
    """The command line may still ask make (its help says so): the contrast that shows what the hook avoids."""
    if shutil.which("make") is None:
        pytest.skip("needs GNU make")
    env = hook_env(tmp_path / "home")
    help_text = subprocess.run([str(Path(sys.executable).parent / "dp"), "tasks", "--help"], env=env,
                               capture_output=True, text=True, timeout=60).stdout
    assert "make reads the Makefile as it would to build" in " ".join(help_text.split())
    subprocess.run([str(Path(sys.executable).parent / "dp"), "tasks"], cwd=repository, env=env,
                   capture_output=True, text=True, timeout=120)
    assert "make-shell" in markers.found()  # make evaluated the file: why the hook must not
