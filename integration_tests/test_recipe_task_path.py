"""A recipe ``task`` step takes ``dp run``'s own path (dp.project.task), through ``dp recipe run``.

The step finds the task with the same runner ``dp run`` picks, runs the same
argv in the same directory, and is refused where ``dp run`` is refused — a
system directory, a directory the user cannot write — with the same words,
before anything runs, in a real run and in a dry run.
"""

from __future__ import annotations

import json
import shutil
import time

import pytest
from cli_assertions import assert_one_line_error
from mcp_support import write_package
from task_projects import calls, gone, install_fake, make_repo, path_with, wait_until_gone

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")

RECIPE = """name: tasks
context:
  flag: --quiet
steps:
  - id: build
    task: build
  - id: lint
    task: 'lint {{flag}}'
"""


@pytest.fixture
def fake_npm(tmp_path):
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "npm", stdout="fake npm ran")
    return bin_dir


@pytest.fixture
def project(tmp_path):
    """A repository with a Makefile task and an npm script, and a recipe naming both."""
    root = make_repo(tmp_path / "app")
    write_package(root, {"lint": "eslint ."})
    (root / "Makefile").write_text("build:\n\t@echo built\n\ttouch built-by-make\n")
    (root / "tasks.yaml").write_text(RECIPE)
    return root


def _steps(proc) -> dict:
    assert proc.stdout, proc.stderr
    return {step["id"]: step for step in json.loads(proc.stdout)["steps"]}


@needs_make
def test_a_task_step_runs_what_dp_run_runs_with_the_same_runner(dp, project, fake_npm):
    env = {"PATH": path_with(fake_npm)}
    planned = {
        op: json.loads(dp("run", *words, "--dry-run", "--json", cwd=project, extra_env=env).stdout)
        for op, words in (("build", ["build"]), ("lint", ["lint", "--fix"]))
    }
    assert (planned["build"]["runner"], planned["lint"]["runner"]) == ("make", "npm")

    dry = _steps(dp("recipe", "run", "tasks.yaml", "--dry-run", "--json", "--set", "flag=--fix",
                    cwd=project, extra_env=env))
    for op in ("build", "lint"):
        assert dry[op]["rendered"] == f"task {planned[op]['command']} (in {planned[op]['cwd']})"

    proc = dp("recipe", "run", "tasks.yaml", "--json", "--set", "flag=--fix", cwd=project, extra_env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ran = _steps(proc)
    assert (ran["build"]["status"], ran["lint"]["status"]) == ("completed", "completed")
    assert ran["build"]["output"].startswith("built") and (project / "built-by-make").exists()
    assert ran["lint"]["output"] == "fake npm ran"
    by_recipe = calls(fake_npm)
    (fake_npm / "calls.jsonl").unlink()
    assert dp("run", "lint", "--fix", cwd=project, extra_env=env).returncode == 0
    assert by_recipe == calls(fake_npm) and len(by_recipe) == 1
    assert by_recipe[0]["argv"] == planned["lint"]["argv"]


@pytest.mark.parametrize("system", ["/", "/usr"])
@pytest.mark.parametrize("extra", [[], ["--dry-run"]])
def test_a_task_step_in_a_system_directory_is_refused_like_dp_run(dp, tmp_path, fake_npm, system, extra):
    """The recipe's project directory is the system directory (the command runs there)."""
    env = {"PATH": path_with(fake_npm)}
    recipe = tmp_path / "tasks.yaml"
    recipe.write_text(RECIPE)
    by_run = dp("run", "build", *extra, cwd=system, extra_env=env)
    assert_one_line_error(by_run, f"dp: error: refusing to work in {system}: it is a system directory")

    proc = dp("recipe", "run", recipe, "--json", *extra, cwd=system, extra_env=env)
    assert proc.returncode != 0
    steps = _steps(proc)
    assert steps["build"]["status"] == "failed"
    assert "dp: error: " + steps["build"]["error"] == by_run.stderr.strip()
    assert steps["lint"]["status"] == ("failed" if extra else "pending")
    assert calls(fake_npm) == []


@needs_make
@pytest.mark.parametrize("extra", [[], ["--dry-run"]])
def test_a_task_step_in_a_read_only_project_is_refused_like_dp_run(dp, project, fake_npm, extra):
    """Before this path a recipe ran the task there; ``dp run`` never did."""
    env = {"PATH": path_with(fake_npm)}
    project.chmod(0o555)
    try:
        by_run = dp("run", "build", *extra, cwd=project, extra_env=env)
        proc = dp("recipe", "run", "tasks.yaml", "--json", "--set", "flag=x", *extra, cwd=project, extra_env=env)
    finally:
        project.chmod(0o755)
    assert_one_line_error(by_run, f"refusing to work in {project.resolve()}: it is not writable by its owner")
    steps = _steps(proc)
    assert steps["build"]["status"] == "failed"
    assert "dp: error: " + steps["build"]["error"] == by_run.stderr.strip()
    assert not (project / "built-by-make").exists() and calls(fake_npm) == []


def test_the_refusal_reads_the_same_in_the_text_report(dp, tmp_path, fake_npm):
    recipe = tmp_path / "tasks.yaml"
    recipe.write_text(RECIPE)
    by_run = dp("run", "build", cwd="/usr", extra_env={"PATH": path_with(fake_npm)})
    proc = dp("recipe", "run", recipe, cwd="/usr", extra_env={"PATH": path_with(fake_npm)})
    assert proc.returncode == 1
    assert by_run.stderr.strip().removeprefix("dp: error: ") in proc.stdout + proc.stderr


@needs_make
def test_a_task_step_that_runs_out_of_time_ends_its_whole_process_tree_like_dp_run(dp, project):
    (project / "Makefile").write_text("slow:\n\t@sleep 60 & echo $$! >> pids; echo started; wait\n")
    (project / "slow.yaml").write_text("name: slow\nsteps:\n  - id: slow\n    task: slow\n    timeout: 1\n")
    started = time.monotonic()
    steps = _steps(dp("recipe", "run", "slow.yaml", "--json", cwd=project, timeout=60))
    by_run = dp("run", "--timeout", "1", "slow", cwd=project, timeout=60)
    assert time.monotonic() - started < 30
    assert steps["slow"]["status"] == "failed" and steps["slow"]["output"].startswith("started")
    assert steps["slow"]["error"] == "timed out after 1s (process group terminated)"
    assert by_run.returncode == 124 and "timed out after 1 s" in by_run.stderr
    pids = [int(pid) for pid in (project / "pids").read_text().split()]
    assert len(pids) == 2
    wait_until_gone(pids)
    assert all(map(gone, pids))
