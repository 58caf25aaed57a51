"""dp tasks / dp run for deno (real deno from PyPI), Hatch (fake) and an inferred pytest (real).

These are the project kinds the package-manager detector and the recipe
runner's users bring that dp did not know: deno.json(c) tasks, package.json
scripts in a Deno project, Hatch environment scripts, and a project that only
configures pytest.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from task_projects import calls, install_fake, make_repo, path_with

VENV_BIN = Path(sys.executable).parent


def deno_path() -> str:
    """PATH that reaches the deno from the test extra (installed in this venv)."""
    if not (VENV_BIN / "deno").exists() and not shutil.which("deno"):
        pytest.skip("deno is not installed: pip install '.[test]' installs it")
    return path_with(VENV_BIN)


def tasks_json(dp, root, **kwargs) -> dict:
    proc = dp("tasks", "--json", cwd=root, **kwargs)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_deno_jsonc_tasks_are_listed_with_comments_and_trailing_commas(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "deno.jsonc").write_text(
        '{\n  // tasks for the agent\n  "tasks": {\n    "hello": "echo hello",\n'
        '    /* Deno 2 object form */\n    "build": {"command": "echo built", "description": "Build it"},\n  },\n}\n'
    )
    (deno,) = tasks_json(dp, root)["runners"]
    assert (deno["name"], deno["ecosystem"], deno["reason"]) == (
        "deno", "deno", "deno.jsonc found: tasks run with deno task",
    )
    assert {task["name"]: (task["command"], task["description"]) for task in deno["tasks"]} == {
        "build": ("deno task build", "Build it"),
        "hello": ("deno task hello", "echo hello"),
    }


def test_deno_task_runs_for_real_with_arguments(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "deno.json").write_text(json.dumps({"tasks": {"greet": "echo greeting"}}))
    env = {"PATH": deno_path(), "DENO_DIR": str(tmp_path / "deno-cache"), "NO_COLOR": "1"}
    proc = dp("run", "greet", "one", "two words", cwd=root, extra_env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "greeting one two words" in proc.stdout


def test_package_json_scripts_of_a_deno_project_run_through_deno_task(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "package.json").write_text(
        json.dumps({"packageManager": "deno@2.1.0", "scripts": {"check": "echo checked"}})
    )
    data = tasks_json(dp, root)
    (runner,) = data["runners"]
    assert runner["name"] == "deno" and runner["reason"] == "packageManager in package.json says deno@2.1.0"
    env = {"PATH": deno_path(), "DENO_DIR": str(tmp_path / "deno-cache"), "NO_COLOR": "1"}
    proc = dp("run", "check", "--flag", cwd=root, extra_env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "checked --flag" in proc.stdout


HATCH_PYPROJECT = """\
[project]
name = "demo"
version = "0.1.0"

[tool.hatch.envs.default.scripts]
test = "pytest {args}"

[tool.hatch.envs.lint.scripts]
check = ["ruff check .", "mypy ."]
"""


def test_hatch_scripts_run_through_hatch_with_the_environment_prefix(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "pyproject.toml").write_text(HATCH_PYPROJECT)
    (hatch,) = tasks_json(dp, root)["runners"]
    assert hatch["reason"] == "[tool.hatch.envs.*.scripts] in pyproject.toml: hatch run"
    assert {task["name"]: task["command"] for task in hatch["tasks"]} == {
        "lint:check": "hatch run lint:check",
        "test": "hatch run test",
    }
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "hatch")
    proc = dp("run", "lint:check", "--fix", cwd=root, extra_env={"PATH": path_with(bin_dir)})
    assert proc.returncode == 0, proc.stderr
    assert calls(bin_dir) == [{"argv": ["hatch", "run", "lint:check", "--fix"], "cwd": str(root.resolve())}]


def test_hatch_toml_is_read_too(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "hatch.toml").write_text('[envs.docs.scripts]\nbuild = "mkdocs build"\n')
    (hatch,) = tasks_json(dp, root)["runners"]
    assert hatch["reason"] == "[envs.*.scripts] in hatch.toml: hatch run"
    assert [task["command"] for task in hatch["tasks"]] == ["hatch run docs:build"]


@pytest.mark.parametrize(
    "name, text",
    [
        ("pytest.ini", "[pytest]\naddopts = -q\n"),
        ("pyproject.toml", "[project]\nname = 'x'\n[tool.pytest.ini_options]\naddopts = '-q'\n"),
        ("tox.ini", "[tox]\nenvlist = py311\n[pytest]\naddopts = -q\n"),
        ("setup.cfg", "[metadata]\nname = x\n[tool:pytest]\naddopts = -q\n"),
    ],
)
def test_pytest_configuration_alone_offers_an_inferred_test_task_that_really_runs(dp, tmp_path, name, text):
    root = make_repo(tmp_path / "repo")
    (root / name).write_text(text)
    (root / "test_sample.py").write_text("def test_ok():\n    assert 1 + 1 == 2\n")
    env = {"PATH": path_with(VENV_BIN)}  # the python that has pytest
    (runner,) = tasks_json(dp, root, extra_env=env)["runners"]
    assert runner["name"] == "pytest"
    assert runner["reason"] == f"pytest configured in {name} and no runner defines test: inferred python -m pytest"
    (task,) = runner["tasks"]
    assert (task["name"], task["kind"], task["command"]) == ("test", "inferred", "python -m pytest")
    proc = dp("run", "test", cwd=root, extra_env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout


def test_a_defined_test_task_beats_the_inference(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "pytest.ini").write_text("[pytest]\n")
    (root / "Makefile").write_text(".PHONY: test\ntest:\n\t@echo make-test\n")
    data = tasks_json(dp, root)
    assert [runner["name"] for runner in data["runners"]] == ["make"]


def test_pyproject_without_pytest_section_infers_nothing(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    proc = dp("tasks", cwd=root)
    assert proc.returncode == 1
    assert "no project found" in proc.stderr
