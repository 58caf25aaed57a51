"""A project task as a project action: ``dp run``, ``dp script`` and their MCP tools.

``dp.runners`` knows ecosystems — which runners a directory has and the argv
of each task — and never runs a task itself. Here a task meets the rules
every project action follows: the directory it is looked for from stays
inside the project (``--cwd`` cannot leave the repository) and is one dp may
act in (``dp.project.workdir``: never ``/`` or a system directory, the
user's own — what ``dp make`` and ``dp git`` require), and the chosen task
becomes a checked ``Command`` that runs through ``Command.run`` like theirs.
"""

from __future__ import annotations

from pathlib import Path

from dp.project.command import Command
from dp.project.workdir import PathLike, working_directory
from dp.runners import confine
from dp.runners.resolution import ResolvedTask


def task_directory(base: Path, requested: PathLike | None, label: str = "--cwd") -> Path:
    """``requested`` (relative to ``base``; None: ``base``) inside the project, if dp may act there.

    ``label`` names the option (or MCP parameter) in the refusal.
    """
    return working_directory(confine(base, requested, label))


def task_command(resolved: ResolvedTask) -> Command:
    """The checked ``Command`` that runs ``resolved`` where its runner runs it."""
    return Command(resolved.argv, resolved.cwd).checked()
