"""pyproject.toml: PDM scripts, Poetry scripts, uv-run entry points, Hatch scripts, poe tasks.

Every task runs through the project's manager (``pdm run`` / ``poetry run`` /
``uv run`` / ``hatch run``) so it gets the project's environment; poe tasks
too, when the project has a manager (plain ``poe`` otherwise). Hatch keeps
scripts per environment: ``[tool.hatch.envs.lint.scripts] check`` is the
task ``lint:check`` (``hatch run lint:check``); the default environment's
need no prefix. A project with a pytest configuration but nothing that runs
tests gets an *inferred* ``test`` task (``python -m pytest``), marked so.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from dp.paths import walk_up
from dp.runners.base import Runner, Task, first_existing, read_text, read_toml, table

MANIFEST = "pyproject.toml"
# Each manager and its lockfile, in priority order.
MANAGERS = (("pdm", "pdm.lock"), ("poetry", "poetry.lock"), ("uv", "uv.lock"))


HATCH_FILE = "hatch.toml"
INFERRED = "inferred"


def detect(directory: Path, project_root: Path) -> list[Runner]:
    path = directory / MANIFEST
    data = read_toml(path) if path.is_file() else {}
    hatch = _hatch_runner(directory, data)
    if not path.is_file():
        return hatch
    entry_points = table(data, "project", "scripts")
    runners = []
    for manager, own_scripts, why in managers(directory, project_root, data):
        tasks = {
            name: Task(name, [manager, "run", name], description=target, kind="entry point")
            for name, target in entry_points.items()
            if isinstance(target, str)
        }
        for name, spec in own_scripts.items():
            if not name.startswith("_"):  # PDM keeps shared settings under "_"
                tasks[name] = Task(
                    name, [manager, "run", name], description=_describe(spec), kind="script"
                )
        runners.append(
            Runner(manager, ecosystem="python", reason=why, root=directory, tasks=list(tasks.values()))
        )
    runners += hatch
    poe = table(data, "tool", "poe", "tasks")
    if poe:
        prefix, via = (
            ([runners[0].name, "run", "poe"], f"run through {runners[0].name}")
            if runners
            else (["poe"], "no project manager found, so plain poe")
        )
        poe_tasks = [
            Task(name, [*prefix, name], description=_describe(spec), kind="poe task")
            for name, spec in poe.items()
            if not name.startswith("_")
        ]
        runners.append(
            Runner(
                "poe",
                ecosystem="python",
                reason=f"[tool.poe.tasks] in pyproject.toml, {via}",
                root=directory,
                tasks=poe_tasks,
            )
        )
    return runners


def _hatch_runner(directory: Path, data: dict) -> list[Runner]:
    """Hatch's environment scripts, from pyproject.toml or hatch.toml."""
    envs, source = table(data, "tool", "hatch", "envs"), "[tool.hatch.envs.*.scripts] in pyproject.toml"
    hatch_file = directory / HATCH_FILE
    if hatch_file.is_file():
        envs, source = table(read_toml(hatch_file), "envs") or envs, "[envs.*.scripts] in hatch.toml"
    tasks = []
    for env, settings in envs.items():
        for name, spec in table(settings, "scripts").items():
            qualified = name if env == "default" else f"{env}:{name}"
            tasks.append(Task(qualified, ["hatch", "run", qualified], description=_describe(spec), kind="script"))
    if not tasks:
        return []
    return [Runner("hatch", ecosystem="python", reason=f"{source}: hatch run", root=directory, tasks=tasks)]


# Where pytest keeps its configuration: (file, the section that marks it).
PYTEST_CONFIGS = (
    ("pytest.ini", ""),
    ("pyproject.toml", "[tool.pytest"),
    ("tox.ini", "[pytest]"),
    ("setup.cfg", "[tool:pytest]"),
)


def inferred_test_runner(directory: Path, runners: list[Runner]) -> list[Runner]:
    """``test`` → ``python -m pytest`` when pytest is configured here and no runner has a test task.

    Inferred, not defined: the reason says so, and it comes after every
    runner the project defines, so a Makefile's ``test`` always wins.
    """
    if any(runner.task("test") for runner in runners):
        return []
    config = _pytest_config(directory)
    if config is None:
        return []
    python = "python" if shutil.which("python") else "python3"
    task = Task("test", [python, "-m", "pytest"], description="inferred from the pytest configuration", kind=INFERRED)
    reason = f"pytest configured in {config} and no runner defines test: inferred {python} -m pytest"
    return [Runner("pytest", ecosystem="python", reason=reason, root=directory, tasks=[task])]


def _pytest_config(directory: Path) -> str | None:
    for name, marker in PYTEST_CONFIGS:
        found = first_existing(directory, [name])
        if found and (not marker or marker in read_text(found)):
            return name
    return None


def managers(directory: Path, project_root: Path, data: dict) -> list[tuple[str, dict, str]]:
    """(manager, its own scripts table, why) for each manager the project uses."""
    found = []
    for manager, lockfile in MANAGERS:
        scripts = table(data, "tool", manager, "scripts")
        configured = manager in table(data, "tool")
        lock = _lockfile(directory, project_root, lockfile)
        if not (configured or lock):
            continue
        if manager == "uv":  # uv has no scripts table: it runs the entry points
            why = f"[project.scripts] with {'[tool.uv]' if configured else lock}"
        elif configured:
            why = f"[tool.{manager}{'.scripts' if scripts else ''}] in pyproject.toml"
        else:
            why = f"{lock} found"
        found.append((manager, scripts, f"{why}: {manager} run"))
    return found


def _lockfile(directory: Path, project_root: Path, name: str) -> str:
    """Where ``name`` is, from ``directory`` up to ``project_root`` ('' if nowhere).

    A uv/PDM/Poetry workspace member has no lockfile of its own: the
    workspace's sits at its root.
    """
    for folder in walk_up(directory, project_root):
        if (folder / name).is_file():
            return os.path.relpath(folder / name, directory)
    return ""


def _describe(spec: Any) -> str | None:
    """A script's help text, else the command it runs."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, list):
        return " && ".join(str(step) for step in spec)
    if isinstance(spec, dict):
        if isinstance(spec.get("help"), str):
            return spec["help"]
        for key in ("cmd", "shell", "call", "script", "composite", "sequence", "ref", "expr"):
            if key in spec:
                return _describe(spec[key])
    return None
