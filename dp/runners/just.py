"""justfile recipes, from ``just --dump --dump-format json`` when just is here.

Without just the recipe names are read from the file (enough to tell an agent
what exists; running them needs just anyway). Private recipes (``_name`` or
``[private]``) are not offered.
"""

from __future__ import annotations

import re
from pathlib import Path

from dp.errors import DpError
from dp.runners.base import Runner, Task, read_text, tool_listed_runner, tool_listing

JUSTFILE_NAMES = ("justfile", "Justfile", "JUSTFILE", ".justfile")
_RECIPE = re.compile(r"^@?([A-Za-z_][A-Za-z0-9_-]*)(?:\s+[^:]*?)?\s*:(?!=)")
_NOT_RECIPES = ("set", "alias", "export", "import", "mod")


def detect(directory: Path, project_root: Path) -> list[Runner]:
    return tool_listed_runner(directory, JUSTFILE_NAMES, "just", "just", "recipes", _from_dump, _from_text)


def _task(name: str, doc) -> Task:
    return Task(name, ["just", name], description=doc, kind="recipe")


def _from_dump(directory: Path, justfile: Path) -> list[Task]:
    argv = ["just", "--justfile", justfile.name, "--dump", "--dump-format", "json"]
    recipes = tool_listing(argv, directory, justfile).get("recipes")
    if not isinstance(recipes, dict):
        raise DpError(f"just cannot read {justfile}: its listing has no recipes")
    return [
        _task(name, recipe.get("doc"))
        for name, recipe in recipes.items()
        if isinstance(recipe, dict) and not name.startswith("_") and not recipe.get("private")
    ]


def _from_text(justfile: Path) -> list[Task]:
    tasks = []
    previous = ""
    for line in read_text(justfile).splitlines():
        match = _RECIPE.match(line)
        if match and match.group(1) not in _NOT_RECIPES and not match.group(1).startswith("_"):
            if previous.strip() != "[private]":
                doc = previous[1:].strip() if previous.startswith("#") else None
                tasks.append(_task(match.group(1), doc))
        previous = line
    return tasks
