"""pyproject.toml: PDM scripts, Poetry scripts, uv-run entry points, poe tasks.

Every task runs through the project's manager (``pdm run`` / ``poetry run`` /
``uv run``) so it gets the project's environment; poe tasks too, when the
project has a manager (plain ``poe`` otherwise).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from dp.runners.base import Runner, Task, read_toml, table

MANIFEST = "pyproject.toml"


def detect(directory: Path, project_root: Path) -> list[Runner]:
    path = directory / MANIFEST
    if not path.is_file():
        return []
    data = read_toml(path)
    entry_points = table(data, "project", "scripts")
    runners = []
    for manager, own_scripts, why in _managers(directory, data):
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
            Runner(manager, ecosystem="python", reason=why, root=directory, tasks=tasks.values())
        )
    poe = table(data, "tool", "poe", "tasks")
    if poe:
        prefix, via = (
            ([runners[0].name, "run", "poe"], f"run through {runners[0].name}")
            if runners
            else (["poe"], "no project manager found, so plain poe")
        )
        tasks = [
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
                tasks=tasks,
            )
        )
    return runners


def _managers(directory: Path, data: dict) -> list[tuple[str, dict, str]]:
    """(manager, its own scripts table, why) for each manager the project uses."""
    found = []
    pdm_scripts = table(data, "tool", "pdm", "scripts")
    if "pdm" in table(data, "tool") or (directory / "pdm.lock").is_file():
        source = "[tool.pdm.scripts]" if pdm_scripts else "[tool.pdm] / pdm.lock"
        found.append(("pdm", pdm_scripts, f"{source} in pyproject.toml: pdm run"))
    poetry_scripts = table(data, "tool", "poetry", "scripts")
    if "poetry" in table(data, "tool") or (directory / "poetry.lock").is_file():
        source = "[tool.poetry.scripts]" if poetry_scripts else "[tool.poetry] / poetry.lock"
        found.append(("poetry", poetry_scripts, f"{source} in pyproject.toml: poetry run"))
    if "uv" in table(data, "tool") or (directory / "uv.lock").is_file():
        source = "uv.lock" if (directory / "uv.lock").is_file() else "[tool.uv]"
        found.append(("uv", {}, f"[project.scripts] with {source}: uv run"))
    return found


def _describe(spec: Any) -> Optional[str]:
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
