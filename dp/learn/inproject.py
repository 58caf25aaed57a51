"""What the project knows about a failed call: its own wrapper of a missing program, the tasks it really has.

Runs inside ``dp-capture`` after a failure (``dp.learn.known``). It reads the project's files as data,
the way ``dp tasks`` does for the hook (``dp.runners``, never asking make, just or Task to list
themselves: ``dp.runners.base.tools_asked``), and runs nothing.

* **A wrapper of the project** for a program that is not on PATH: ``./mvnw`` for ``mvn``, ``./gradlew``
  for ``gradle`` (in the working directory), the program in ``node_modules/.bin`` (at or above it, as
  ``npx`` finds it) or in the working directory's ``.venv/bin``. These are the repository's own programs,
  which the failed call did not run: they are told only in a repository the person trusts (``dp trust``,
  the rule paving follows: ``dp.paving.reach``), and two of them for one program are no answer.
* **The project's tasks** after ``npm error Missing script: "tset"``, ``error Command "tset" not found.``
  (Yarn 1; Yarn 2 and later: ``Couldn't find a script named "tset".``), ``make: *** No rule to make target
  'tset'.  Stop.``, ``error: justfile does not contain recipe `tset```, ``task: Task "tset" does not
  exist``: the task the call named is missing, so the runner's own file (the one that runner reads from
  that directory) is read and its tasks named, closest first. Exactly one task a slip away (a letter
  missing, added, changed or two swapped; another case or separator) is the corrected call.
"""

from __future__ import annotations

import os

# Programs whose project wrapper sits in the working directory (Maven's and Gradle's wrappers).
WRAPPERS = {"mvn": "mvnw", "gradle": "gradlew"}
# Folders of a project that hold its own copies of programs, as the agent would name them.
PROGRAM_FOLDERS = (os.path.join(".venv", "bin"), os.path.join("venv", "bin"))
MAX_LISTED = 8

# Each runner's message for a task it does not have (real output: integration_tests/test_known_answers.py),
# as a pattern compiled only when that runner failed, the module that reads its file, and whether the
# runner looks for that file upwards from the directory.
MISSING_TASK = {
    "npm": (r'Missing script: "([^"\n]+)"', "javascript", True),
    "pnpm": (r"Missing script: ([^\s\"]+)", "javascript", True),
    "yarn": (r'(?:error Command|find a script named) "([^"\n]+)"', "javascript", True),  # Yarn 1; Yarn 2+
    "make": (r"No rule to make target [`']([^'\n]+)'\.  Stop\.", "make", False),  # 3.81 (macOS): `x'
    "just": (r"(?i)justfile does not contain recipe `([^`\n]+)`", "just", True),
    "task": (r'Task "([^"\n]+)" does not exist', "taskfile", True),
}
_WHAT = {"javascript": ("package.json", "script", "scripts"), "make": ("the Makefile", "target", "targets"),
         "just": ("the justfile", "recipe", "recipes"), "taskfile": ("the Taskfile", "task", "tasks")}


def wrapper(program: str, cwd: str) -> tuple[str, str] | None:
    """``(the command word to run instead, where it is)`` for ``program`` from the project's own programs
    around ``cwd``, or None (none, or two)."""
    from dp.shell.programs import on_path

    found = []
    name = WRAPPERS.get(program)
    if name and os.access(os.path.join(cwd, name), os.X_OK):
        found.append((f"./{name}", f"this repository's own wrapper ./{name}"))
    for folder in PROGRAM_FOLDERS:
        if os.access(os.path.join(cwd, folder, program), os.X_OK):
            found.append((os.path.join(folder, program), f"this project's {folder}"))
    bin_folder = node_bin(program, cwd)
    if bin_folder is not None:
        shown = os.path.relpath(os.path.join(bin_folder, program), cwd)
        command = "npx" if on_path("npx") else shown if not shown.startswith("..") else None
        if command is not None:
            found.append((command, f"{os.path.relpath(bin_folder, cwd)} of this project"))
    return found[0] if len(found) == 1 else None


def node_bin(program: str, cwd: str) -> str | None:
    """The ``node_modules/.bin`` that has ``program``, at or above ``cwd`` up to its repository's root (the
    nearest directory holding ``.git``; outside any repository, ``cwd``'s own), as ``npx`` finds it."""
    from dp.paths import walk_up_text

    folders = []
    for folder in walk_up_text(cwd):
        folders.append(folder)
        if os.access(os.path.join(folder, ".git"), os.F_OK):
            break
    else:
        folders = folders[:1]
    for folder in folders:
        candidate = os.path.join(folder, "node_modules", ".bin")
        if os.access(os.path.join(candidate, program), os.X_OK):
            return candidate
    return None


class Tasks:
    """A missing task and what the runner's file really has: ``names`` closest first, ``fix`` the one
    task a slip away (or None)."""

    __slots__ = ("runner", "missing", "names", "fix", "file", "noun", "plural")

    def __init__(self, runner: str, missing: str, names: list[str], ecosystem: str):
        self.runner, self.missing = runner, missing
        self.file, self.noun, self.plural = _WHAT[ecosystem]
        self.names = sorted(names, key=lambda name: (_distance(missing, name), -_likeness(missing, name), name))
        slips = [name for name in names if _slip_of(missing, name)]
        self.fix = slips[0] if len(slips) == 1 else None


def missing_task(program: str, task: str, error: str, directory: str) -> Tasks | None:
    """The tasks of ``program``'s file for ``directory`` when ``error`` says ``task`` is not one of them."""
    entry = MISSING_TASK.get(program)
    if entry is None:
        return None
    import re

    pattern, ecosystem, upwards = entry
    said = re.search(pattern, error or "")
    if said is None or said.group(1) != task:
        return None
    names = _task_names(ecosystem, directory, upwards)
    if not names or task in names:
        return None
    return Tasks(program, task, names, ecosystem)


def _task_names(ecosystem: str, directory: str, upwards: bool) -> list[str]:
    """The task names the ecosystem's file for ``directory`` defines (read, never run); [] when unreadable."""
    import importlib
    from pathlib import Path

    from dp.errors import DpError
    from dp.runners.base import BUILTIN

    module = importlib.import_module(f"dp.runners.{ecosystem}")
    from dp.layers.locate import repo_root
    from dp.paths import walk_up_text

    root = repo_root(directory) or directory
    for folder in walk_up_text(directory) if upwards else [directory]:
        try:
            runners = module.detect(Path(folder), Path(root))
        except (DpError, OSError, ValueError):
            return []
        if runners:
            return [task.name for runner in runners for task in runner.tasks
                    if task.origin != BUILTIN and not task.conditional]
        if folder == root:
            break
    return []


def _slip_of(typed: str, name: str) -> bool:
    """Whether ``name`` is ``typed`` with one slip: another case or separator, or one letter missing, added,
    changed, or two swapped (names of four letters or more)."""
    if _folded(typed) == _folded(name):
        return True
    return min(len(typed), len(name)) >= 4 and _distance(typed, name) == 1


def _folded(name: str) -> str:
    return name.lower().replace("-", "").replace("_", "").replace(":", "")


def _distance(one: str, other: str) -> int:
    """Edits between two names (insert, delete, change, swap two neighbours: the optimal string alignment)."""
    rows = [list(range(len(other) + 1))]
    for i, a in enumerate(one, 1):
        row = [i]
        for j, b in enumerate(other, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a != b))
            if i > 1 and j > 1 and a == other[j - 2] and one[i - 2] == b:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1]


def _likeness(one: str, other: str) -> float:
    from difflib import SequenceMatcher

    return SequenceMatcher(None, one, other).ratio()
