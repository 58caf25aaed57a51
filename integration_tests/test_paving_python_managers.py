"""Python paving proven with the REAL uv and poetry (installed once into ~/.cache/dp-tests/pytools: conftest.py).

A project whose environment holds a tool that is not on PATH: the agent's
`pyflakes …` is paved to `uv run --frozen pyflakes …` / `poetry run pyflakes …`,
which really runs (same output as the environment's own program) and leaves
the lockfile byte-identical.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from paving_projects import git_init

PYPROJECT = '[project]\nname = "fixture"\nversion = "0.1.0"\nrequires-python = ">=3.8"\ndependencies = []\n'


def _environment(project: Path, bin_dir: Path, env: dict, in_project: bool) -> Path:
    """The project's environment with pyflakes in it: ``.venv``, or (Poetry) one in Poetry's cache."""
    uv = str(bin_dir / "uv")
    if in_project:
        steps = [[uv, "venv", "-q", "--allow-existing", ".venv"]]
    else:
        steps = [[str(bin_dir / "poetry"), "install", "--no-root", "-q"]]
    for argv in steps:
        proc = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            pytest.skip(f"LOUD SKIP: cannot build the fixture environment: {proc.stderr[-300:]}")
    if in_project:
        environment = project / ".venv"
    else:
        found = subprocess.run([str(bin_dir / "poetry"), "env", "info", "--path"], cwd=project, env=env,
                               capture_output=True, text=True, timeout=60)
        environment = Path(found.stdout.strip())
        assert found.returncode == 0 and environment.is_dir() and not (project / ".venv").exists(), found
    for argv in ([uv, "pip", "install", "-q", "--python", str(environment / "bin/python"), "pyflakes"],):
        proc = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            pytest.skip(f"LOUD SKIP: cannot build the fixture environment: {proc.stderr[-300:]}")
    return environment


@pytest.mark.parametrize(
    "manager, prefix, in_project",
    [("uv", "uv run --frozen", True), ("poetry", "poetry run", True), ("poetry", "poetry run", False)],
)
def test_tool_in_the_environment_runs_through_the_real_manager(pave_check, dp, python_managers, tmp_path, manager,
                                                               prefix, in_project):
    project = tmp_path / "project"
    project.mkdir()
    git_init(project)
    (project / "pyproject.toml").write_text(PYPROJECT + ("" if manager == "uv" else "\n[tool.poetry]\npackage-mode = false\n"))
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "POETRY", "UV_"))},
           "PATH": f"{python_managers}:/usr/bin:/bin", "POETRY_VIRTUALENVS_IN_PROJECT": str(in_project).lower(),
           "UV_CACHE_DIR": str(python_managers.parent / "uv-cache"), "POETRY_CACHE_DIR": str(tmp_path / "poetry-cache")}
    lock = [str(python_managers / manager), "lock"]
    proc = subprocess.run(lock, cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    environment = _environment(project, python_managers, env, in_project)
    lockfile = f"{manager}.lock"
    before = (project / lockfile).read_bytes()

    payload = {"session_id": "py", "cwd": str(project), "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": "pyflakes --version && echo ok"}}
    # The environment is the repository's own: paved into only after dp trust (security/ shows the refusal).
    assert dp("trust", cwd=project).returncode == 0
    answer = pave_check(payload, extra_env={"PATH": env["PATH"], "POETRY_CACHE_DIR": env["POETRY_CACHE_DIR"]})
    assert answer.stdout, (answer.stderr, sorted(os.listdir(project)), sorted(os.listdir(environment / "bin")))
    paved = json.loads(answer.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    assert paved == f"{prefix} pyflakes --version && echo ok"

    ran = subprocess.run(["bash", "-c", paved], cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    direct = subprocess.run([str(environment / "bin/pyflakes"), "--version"], capture_output=True, text=True)
    assert ran.stdout.splitlines()[0] == direct.stdout.strip()
    assert (project / lockfile).read_bytes() == before
    # Without the paving the agent's command fails: the tool is not on PATH.
    assert subprocess.run(["bash", "-c", "pyflakes --version"], cwd=project, env=env, capture_output=True).returncode == 127
