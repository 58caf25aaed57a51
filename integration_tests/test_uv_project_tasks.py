"""Issue 49, finding 10: a uv project's tasks are the ones that run, proven with the REAL uv.

``uv init`` then ``uv add --dev pytest`` makes a project with pytest in a dependency group, a ``tests/``
directory and no pytest configuration: ``dp tasks`` offers ``test`` (``uv run pytest``, which really runs
the tests in the project's environment). A ``[project.scripts]`` entry uv never installs (no
``[build-system]``, so uv does not build the project) or whose module is not in the project is no task:
``uv run NAME`` fails for it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from paving_projects import git_init

PYPROJECT = """\
[project]
name = "shop"
version = "0.1.0"
requires-python = ">=3.9"
dependencies = []

[project.scripts]
shop = "shop.cli:main"

[dependency-groups]
dev = ["pytest>=7"]
"""
BUILD_SYSTEM = '\n[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n'


def a_uv_project(root: Path, pyproject: str) -> Path:
    """A project as ``uv init`` and ``uv add --dev pytest`` leave it (its lock made by the real uv below),
    with tests, a README, a .gitignore'd .venv to come and a binary asset."""
    root.mkdir()
    git_init(root)
    (root / "pyproject.toml").write_text(pyproject)
    (root / "README.md").write_text("# shop\n")
    (root / ".gitignore").write_text(".venv/\n__pycache__/\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_prices.py").write_text("def test_total():\n    assert 2 + 3 == 5\n")
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    return root


@pytest.fixture
def uv_env(python_managers, tmp_path):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("VIRTUAL_ENV", "UV_", "DP_"))}
    env.update({"PATH": f"{python_managers}:/usr/bin:/bin", "UV_CACHE_DIR": str(python_managers.parent / "uv-cache"),
                "UV_PYTHON_DOWNLOADS": "never"})
    return env


def uv(env: dict, project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([env["PATH"].split(":")[0] + "/uv", *args], cwd=project, env=env, capture_output=True,
                          text=True, timeout=300)


def tasks(dp, project: Path, env: dict) -> dict:
    proc = dp("tasks", "--json", cwd=project, extra_env={"PATH": env["PATH"]})
    assert proc.returncode == 0, proc.stderr
    return {task["name"]: task for runner in json.loads(proc.stdout)["runners"] for task in runner["tasks"]}


def test_a_uv_project_with_pytest_and_tests_gets_a_test_task_that_runs_and_no_unbuildable_script(dp, uv_env,
                                                                                                    tmp_path):
    project = a_uv_project(tmp_path / "shop", PYPROJECT)
    locked = uv(uv_env, project, "lock")
    if locked.returncode != 0:
        pytest.skip(f"LOUD SKIP: the real uv cannot lock the fixture (no index?): {locked.stderr[-300:]}")
    assert uv(uv_env, project, "run", "shop").returncode != 0  # uv never installs it: no [build-system]

    found = tasks(dp, project, uv_env)
    assert "shop" not in found
    assert (found["test"]["command"], found["test"]["kind"]) == ("uv run pytest", "inferred")
    ran = dp("run", "test", cwd=project, extra_env={**uv_env, "PATH": uv_env["PATH"]}, timeout=300)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "1 passed" in ran.stdout


def test_an_entry_point_is_a_task_once_uv_builds_it_and_its_module_is_there(dp, uv_env, tmp_path):
    project = a_uv_project(tmp_path / "shop", PYPROJECT + BUILD_SYSTEM)
    locked = uv(uv_env, project, "lock")
    if locked.returncode != 0:
        pytest.skip(f"LOUD SKIP: the real uv cannot lock the fixture (no index?): {locked.stderr[-300:]}")
    assert "shop" not in tasks(dp, project, uv_env)  # built, but there is no shop package to build it from
    (project / "src" / "shop").mkdir(parents=True)
    (project / "src" / "shop" / "__init__.py").write_text("")
    (project / "src" / "shop" / "cli.py").write_text("def main():\n    print('shop ok')\n")
    found = tasks(dp, project, uv_env)
    assert found["shop"]["command"] == "uv run shop" and found["shop"]["kind"] == "entry point"
    ran = dp("run", "shop", cwd=project, extra_env={**uv_env, "PATH": uv_env["PATH"]}, timeout=300)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "shop ok" in ran.stdout
