"""Which ecosystems dp knows, in priority order, and where a project is.

Detection starts at the requested directory and walks up to the project root
(the repository root, i.e. the nearest directory holding ``.git``); the first
directory where any ecosystem finds a runner is the one whose tasks are
offered. Directories inside dependency trees, virtualenvs and build outputs
are never looked at.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from dp.errors import DpError
from dp.paths import confined, find_upwards, walk_up
from dp.runners import deno, javascript, just, make, python, rust, taskfile
from dp.runners.base import Ecosystem, Runner

# Priority order for resolving a task name that several runners define. A new
# ecosystem module goes here (see ARCHITECTURE.md, "Adding a runner").
ECOSYSTEMS: tuple[Ecosystem, ...] = (javascript, deno, rust, python, make, just, taskfile)
# A pyproject.toml alone is not enough: something must run its tasks.
PROJECT_FILES = (
    "package.json, Cargo.toml, deno.json, pyproject.toml using pdm, poetry, uv or poe, Hatch "
    "scripts, a pytest configuration, Makefile, justfile or Taskfile.yml"
)
# Never project directories, wherever they are.
DEPENDENCY_DIRS = frozenset(
    {"node_modules", ".git", ".hg", ".svn", ".venv", "venv", "__pypackages__", "site-packages",
     ".tox", ".nox", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
)
# Build outputs: only recognised inside a repository, where their meaning is clear.
BUILD_DIRS = frozenset({"target", "dist", "build", "out", ".next", ".nuxt", ".svelte-kit", ".cache"})


class NoProjectFound(DpError):
    """No ecosystem recognised anything from the directory up to the root."""


@dataclass
class Project:
    """The runners found for a directory: ``root`` bounds it, ``directory`` holds them.

    ``problems`` maps an ecosystem to why its project file there could not be
    read (a Makefile make rejects, malformed JSON…): one broken file must not
    hide the runners that work, but it must not go unmentioned either.
    """

    root: Path
    directory: Path
    runners: list[Runner]
    problems: dict[str, str] = field(default_factory=dict)

    def runner(self, name: str) -> Runner:
        for runner in self.runners:
            if runner.name == name:
                return runner
        names = ", ".join(runner.name for runner in self.runners)
        raise DpError(f'no runner "{name}" in this project; detected: {names}')

    def available_tasks(self) -> dict[str, list[str]]:
        return {runner.name: [task.name for task in runner.tasks] for runner in self.runners}

    def to_json(self) -> dict:
        return {
            "root": str(self.root),
            "directory": str(self.directory),
            "runners": [runner.to_json() for runner in self.runners],
            "available_tasks": self.available_tasks(),
            "problems": self.problems,
        }


def find_root(start: Path) -> Path | None:
    """The nearest directory at or above ``start`` that holds ``.git``."""
    return find_upwards(start, ".git")


def confine(base: Path, requested: str | os.PathLike[str] | None, label: str = "--cwd") -> Path:
    """``requested`` (relative to ``base``) as a real directory inside base's project.

    The boundary is the repository root of ``base`` (``base`` itself outside a
    repository). ``..``, absolute paths and symlinks that lead outside it are
    refused; ``label`` names the option (or MCP parameter) in the message.
    """
    base = base.resolve()
    if requested is None or requested == "":
        return base
    boundary = find_root(base) or base
    target = confined(base / requested, boundary)
    if target is None:
        raise DpError(
            f"{label} {requested} leads outside the project root {boundary}; "
            "give a directory inside the project"
        )
    if not target.is_dir():
        raise DpError(f"{label} {requested}: no such directory in the project")
    return target


def detect(cwd: Path) -> Project:
    """The runners of the project around ``cwd``; DpError when there is none."""
    start = Path(cwd).resolve()
    root = find_root(start)
    for folder in candidates(start, root):
        runners: list[Runner] = []
        problems: dict[str, str] = {}
        for ecosystem in ECOSYSTEMS:
            try:
                runners += ecosystem.detect(folder, root or folder)
            except DpError as exc:
                problems[ecosystem.__name__.rpartition(".")[2]] = exc.message
        runners += python.inferred_test_runner(folder, runners)
        if runners:
            return Project(root or folder, folder, runners, problems)
        if problems:  # only broken project files here: that is the answer, not a parent's
            raise DpError("; ".join(problems.values()))
    where = f"{start} or its parents" + (f" up to {root}" if root else "")
    raise NoProjectFound(f"no project found in {where}: no {PROJECT_FILES}")


def candidates(start: Path, root: Path | None):
    """``start`` and its parents up to ``root``, minus dependency and build dirs."""
    for folder in walk_up(start, root):
        if not _excluded(folder, root):
            yield folder


def _excluded(folder: Path, root: Path | None) -> bool:
    if DEPENDENCY_DIRS.intersection(folder.parts) or (folder / "pyvenv.cfg").exists():
        return True
    return root is not None and bool(BUILD_DIRS.intersection(folder.relative_to(root).parts))
