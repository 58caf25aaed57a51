"""pyproject.toml: PDM scripts, Poetry scripts, uv-run entry points, Hatch scripts, poe tasks.

Every task runs through the project's manager (``pdm run`` / ``poetry run`` /
``uv run`` / ``hatch run``) so it gets the project's environment; poe tasks
too, when the project has a manager (plain ``poe`` otherwise). Hatch keeps
scripts per environment: ``[tool.hatch.envs.lint.scripts] check`` is the
task ``lint:check`` (``hatch run lint:check``); the default environment's
need no prefix. A project with a pytest configuration, or pytest as a dependency
and a ``tests/`` directory, but nothing that runs tests gets an *inferred*
``test`` task (``uv run pytest`` through its manager, else ``python -m pytest``),
marked so. A ``[project.scripts]`` entry the manager never installs (uv builds a
project only with a ``[build-system]``) or whose module is not in the project is
no task: ``uv run NAME`` would fail for it.
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
            if isinstance(target, str) and _installs_entry_points(manager, data) and _module_here(directory, data, target)
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
    """``test`` → pytest when pytest is configured here, or is a dependency of the project and it has a
    ``tests/`` directory (``uv init`` and ``uv add --dev pytest`` make no configuration), and no runner has a
    test task. Run through the project's manager (``uv run pytest``: the project's environment, where pytest
    is installed), else ``python -m pytest``.

    Inferred, not defined: the reason says so, and it comes after every
    runner the project defines, so a Makefile's ``test`` always wins.
    """
    if any(runner.task("test") for runner in runners):
        return []
    config = _pytest_config(directory)
    if config is not None:
        why, description = f"pytest configured in {config}", "inferred from the pytest configuration"
    else:
        tests = _tests_directory(directory)
        if tests is None or not _depends_on_pytest(directory):
            return []
        why, description = f"pytest a dependency in {MANIFEST} and {tests}/", f"inferred from pytest and {tests}/"
    manager = next((runner.name for runner in runners if runner.name in dict(MANAGERS)), None)
    if manager:
        command = [manager, "run", "pytest"]
    else:
        command = ["python" if shutil.which("python") else "python3", "-m", "pytest"]
    task = Task("test", command, description=description, kind=INFERRED)
    reason = f"{why} and no runner defines test: inferred {' '.join(command)}"
    return [Runner("pytest", ecosystem="python", reason=reason, root=directory, tasks=[task])]


# Where a project keeps its tests, as pytest's own discovery finds them from the root.
TEST_DIRECTORIES = ("tests", "test")


def _tests_directory(directory: Path) -> str | None:
    return next((name for name in TEST_DIRECTORIES if (directory / name).is_dir()), None)


def _depends_on_pytest(directory: Path) -> bool:
    """Whether pyproject.toml names pytest among the project's dependencies: its own, an extra, a
    dependency group (PEP 735: ``uv add --dev``), uv's or PDM's dev dependencies, a Poetry group."""
    path = directory / MANIFEST
    data = read_toml(path) if path.is_file() else {}
    project = table(data, "project")
    lists = [project.get("dependencies"), *table(project, "optional-dependencies").values(),
             *table(data, "dependency-groups").values(), table(data, "tool", "uv").get("dev-dependencies"),
             *table(data, "tool", "pdm", "dev-dependencies").values()]
    names = [_requirement_name(item) for group in lists if isinstance(group, list) for item in group]
    poetry = table(data, "tool", "poetry")
    names += [*table(poetry, "dependencies"), *table(poetry, "dev-dependencies")]
    for group in table(poetry, "group").values():
        names += list(table(group, "dependencies"))
    return "pytest" in (str(name).lower().replace("_", "-") for name in names)


def _requirement_name(requirement: Any) -> str:
    """The distribution a requirement string names (``pytest>=8`` → ``pytest``; '' for anything else)."""
    import re

    found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement) if isinstance(requirement, str) else None
    return found.group(1) if found else ""


def _installs_entry_points(manager: str, data: dict) -> bool:
    """Whether ``manager`` installs the project itself, so its ``[project.scripts]`` exist to run. uv and
    PDM build and install a project only when it has a ``[build-system]`` (or ``tool.uv.package`` /
    ``tool.pdm.distribution`` says so); Poetry unless ``package-mode = false``. ``uv run NAME`` of an entry
    point uv never installed fails with "No such file or directory", so it is no task."""
    if manager == "poetry":
        return table(data, "tool", "poetry").get("package-mode", True) is not False
    switch = {"uv": ("uv", "package"), "pdm": ("pdm", "distribution")}.get(manager)
    said = table(data, "tool", switch[0]).get(switch[1]) if switch else None
    return said if isinstance(said, bool) else "build-system" in data


# Build settings that put packages somewhere else than their name, or compile them: the module an entry
# point names is then the backend's to find, and dp takes it at its word.
PACKAGE_MAPPINGS = (("setuptools", "package-dir"), ("setuptools", "packages"), ("maturin",), ("scikit-build",),
                    ("hatch", "build"), ("poetry", "packages"), ("pdm", "build"), ("meson-python",), ("flit", "module"))


def _module_here(directory: Path, data: dict, target: str) -> bool:
    """Whether the module an entry point (``pkg.cli:main``) imports can be built from this project: its top
    package is here (``pkg/``, ``pkg.py``, under ``src/`` or one folder down). A build backend that maps
    packages elsewhere or compiles them (setuptools' package-dir, maturin …) is taken at its word."""
    top = target.split(":", 1)[0].strip().split(".", 1)[0]
    if not top.isidentifier():
        return False
    tool = table(data, "tool")
    if any(_present(tool, keys) for keys in PACKAGE_MAPPINGS):
        return True
    for folder in (directory, directory / "src", *_subfolders(directory)):
        if (folder / top).is_dir() or (folder / f"{top}.py").is_file():
            return True
    return False


def _present(data: dict, keys: tuple) -> bool:
    *outer, last = keys
    return last in table(data, *outer)


def _subfolders(directory: Path) -> list[Path]:
    """The project's own top folders (not hidden, not an environment or a dependency tree), for layouts
    such as ``python/pkg``; bounded."""
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)[:200]
    except OSError:
        return []
    skip = {"node_modules", "build", "dist", "venv", "__pycache__"}
    return [Path(entry.path) for entry in entries
            if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".") and entry.name not in skip]


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
