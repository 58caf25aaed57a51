"""justfile recipes: read from the file, or from ``just --dump --dump-format json`` when a person asked.

The hook and the MCP server read the file (``base.tools_asked`` says why):
recipe lines, ``# doc`` comments and ``[doc(…)]`` above them, ``import`` /
``import?`` of files inside the repository (bounded), private recipes
(``_name`` or ``[private]``) left out. A recipe that exists only on some
systems (``[linux]``, ``[macos]`` …) is *conditional*; an ``import`` of a file
outside the repository or past the bounds is *unknown*. Indented lines are
recipe bodies, never read as recipes.
"""

from __future__ import annotations

import re
from pathlib import Path

from dp.errors import DpError
from dp.paths import confined
from dp.runners.base import Runner, Task, read_text, tool_listed_runner, tool_listing

JUSTFILE_NAMES = ("justfile", "Justfile", "JUSTFILE", ".justfile")
_RECIPE = re.compile(r"^@?([A-Za-z_][A-Za-z0-9_-]*)(?:\s+[^:]*?)?\s*:(?!=)")
_NOT_RECIPES = ("set", "alias", "export", "import", "mod")
_IMPORT = re.compile(r"""^import(\?)?\s+(?:'([^']*)'|"([^"\\$]*)")\s*(?:#.*)?$""")
_ATTRIBUTES = re.compile(r"^\[(.*)\]\s*$")
_DOC_ATTRIBUTE = re.compile(r"""doc\(\s*(?:'([^']*)'|"([^"]*)")\s*\)""")
_SYSTEMS = frozenset({"linux", "macos", "windows", "unix", "openbsd", "freebsd", "netbsd", "dragonfly", "android", "ios"})
MAX_FILES = 32


def detect(directory: Path, project_root: Path) -> list[Runner]:
    return tool_listed_runner(
        directory, project_root, JUSTFILE_NAMES, "just", "just", "recipes", _from_dump, _from_text
    )


def _task(name: str, doc, conditional: bool = False) -> Task:
    return Task(name, ["just", name], description=doc, kind="recipe", conditional=conditional)


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


def _from_text(justfile: Path, root: Path) -> tuple[list[Task], str]:
    tasks: dict[str, Task] = {}
    unknown: list[str] = []
    pending = [justfile]
    seen: set = set()
    while pending:
        path = pending.pop(0)
        seen.add(str(path.resolve()))
        for task in _recipes(path, root, pending, seen, unknown, main=path == justfile):
            tasks.setdefault(task.name, task)
    return list(tasks.values()), "; ".join(unknown)


def _recipes(path: Path, root: Path, pending: list, seen: set, unknown: list, main: bool):
    """The recipes of one file; its imports join ``pending`` (inside ``root``, bounded)."""
    try:
        text = read_text(path)
    except DpError:
        if main:
            raise
        unknown.append(f"{path.name} cannot be read")
        return
    attributes: list[str] = []
    comment = None
    for line in text.splitlines():
        stripped = line.strip()
        if line[:1] in (" ", "\t") or not stripped:
            attributes, comment = ([], None) if not stripped else (attributes, comment)
            continue
        bracketed = _ATTRIBUTES.match(stripped)
        if bracketed:
            attributes.append(bracketed.group(1))
            continue
        if stripped.startswith("#"):
            comment = stripped[1:].strip() if not stripped.startswith("#!") else comment
            continue
        imported = _IMPORT.match(stripped)
        if imported:
            _import(path, imported, root, pending, seen, unknown)
        elif re.match(r"import\??\s", stripped):
            unknown.append(f"{path.name} imports a file named by an expression: {stripped}")
        match = _RECIPE.match(line)
        if match and match.group(1) not in _NOT_RECIPES:
            task = _recipe(match.group(1), attributes, comment)
            if task is not None:
                yield task
        attributes, comment = [], None


def _recipe(name: str, attributes: list, comment):
    words = {word.strip().split("(", 1)[0] for attribute in attributes for word in attribute.split(",")}
    if name.startswith("_") or "private" in words:
        return None
    doc = next((m.group(1) or m.group(2) for a in attributes for m in [_DOC_ATTRIBUTE.search(a)] if m), None)
    return _task(name, doc or comment, conditional=bool(words & _SYSTEMS))


def _import(path: Path, imported, root: Path, pending: list, seen: set, unknown: list) -> None:
    optional, name = imported.group(1), imported.group(2) or imported.group(3) or ""
    target = confined(path.parent / Path(name).expanduser(), root)
    if target is None:
        unknown.append(f"{path.name} imports {name}, outside the repository: not read")
    elif not target.is_file():
        if not optional:
            raise DpError(f"cannot read {path}: it imports {name}, which does not exist")
    elif str(target) not in seen and target not in pending:
        if len(seen) + len(pending) >= MAX_FILES:
            unknown.append(f"{path.name} imports {name}: past the bound of {MAX_FILES} files")
        else:
            pending.append(target)
