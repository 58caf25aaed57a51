"""Finding recipes and agent definitions by name, without leaving their directories.

A name is one safe path component; the file it resolves to (symlinks
followed) must still be inside the directory it was looked up in, so neither
``../../etc/passwd`` nor a symlink planted in ``recipes/`` can smuggle in a
file from elsewhere.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from dp.paths import confined

RECIPE_SUFFIXES = (".yaml", ".yml")
DEFAULT_RECIPE_DIRS = ("recipes", ".dp/recipes")
AGENT_DIR = ".claude/agents"
_RECIPE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_AGENT_SEGMENT = re.compile(r"[A-Za-z0-9_-]+")
# Agent definitions travel as one argv element, which Linux caps at 128 KiB.
MAX_AGENT_BYTES = 100 * 1024


def search_roots(project_dir: Path, extra: Iterable[Path] = ()) -> list[Path]:
    """Where recipes are looked up by name: ``-R`` dirs, then ./recipes, ./.dp/recipes."""
    roots = [Path(p) if Path(p).is_absolute() else project_dir / p for p in extra]
    roots += [project_dir / d for d in DEFAULT_RECIPE_DIRS]
    unique: list[Path] = []
    for root in roots:
        if root not in unique:
            unique.append(root)
    return unique


def is_safe_recipe_name(name: str) -> bool:
    return bool(_RECIPE_NAME.fullmatch(name)) and ".." not in name


def find_recipe(name: str, roots: Iterable[Path]) -> Path | None:
    """The first ``<root>/<name>.yaml|.yml`` that exists and stays inside its root."""
    if not is_safe_recipe_name(name):
        return None
    stem = name[: -len(Path(name).suffix)] if name.endswith(RECIPE_SUFFIXES) else name
    for root in roots:
        for suffix in RECIPE_SUFFIXES:
            found = contained(root, f"{stem}{suffix}")
            if found is not None and found.is_file():
                return found
    return None


def contained(root: Path, relative: str) -> Path | None:
    """``root/relative`` resolved, if it exists and is inside ``root`` once canonicalised."""
    return confined(root / relative, root, strict=True)


def list_recipe_files(roots: Iterable[Path]) -> list[tuple[str, Path]]:
    """(name, path) of every recipe file in the roots; the first root to define a name wins."""
    found: dict[str, Path] = {}
    for root in roots:
        try:
            entries = sorted(os.scandir(root), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            stem, suffix = os.path.splitext(entry.name)
            if suffix not in RECIPE_SUFFIXES or stem in found or not is_safe_recipe_name(stem):
                continue
            path = contained(root, entry.name)
            if path is not None and path.is_file():
                found[stem] = path
    return sorted(found.items())


class AgentNotFound(Exception):
    """An ``agent:`` reference that names no readable definition."""


def agent_dirs(project_dir: Path, extra: Iterable[Path] = ()) -> list[Path]:
    """``-A`` directories first, then the project's ``.claude/agents``."""
    return [Path(p) if Path(p).is_absolute() else project_dir / p for p in extra] + [
        project_dir / AGENT_DIR
    ]


def resolve_agent(reference: str, dirs: Iterable[Path]) -> Path:
    """``name`` → ``<dir>/name.md``; ``ns:name`` → ``<dir>/ns/name.md`` (first dir that has it)."""
    segments = reference.split(":")
    if not all(_AGENT_SEGMENT.fullmatch(segment) for segment in segments):
        raise AgentNotFound(
            f"agent reference '{reference}' is not valid: use name or namespace:name "
            "with letters, digits, '_' and '-'"
        )
    relative = "/".join(segments) + ".md"
    searched = []
    for directory in dirs:
        searched.append(str(directory))
        found = contained(directory, relative)
        if found is not None and found.is_file():
            return found
    raise AgentNotFound(
        f"agent '{reference}' not found: looked for {relative} in {', '.join(searched)}"
    )


def read_agent_prompt(path: Path) -> tuple[str, dict]:
    """The definition's body (the system prompt) and its front-matter fields."""
    from dp.errors import DpError
    from dp.files import read_regular

    try:
        data = read_regular(path, MAX_AGENT_BYTES + 1, whole=False)
    except (OSError, DpError) as exc:
        raise AgentNotFound(f"cannot read agent definition {path}: {getattr(exc, 'message', None) or exc}") from None
    if len(data) > MAX_AGENT_BYTES:
        raise AgentNotFound(f"agent definition {path} is larger than 100 KB")
    # A definition saved with Windows line endings (CRLF) has front matter too.
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n")
    front: dict = {}
    match = re.match(r"---[ \t]*\n(.*?)\n---[ \t]*(?:\n|$)", text, re.DOTALL)
    if match:
        from dp.recipes.loader import RecipeError, load_yaml

        try:
            parsed = load_yaml(match.group(1), str(path))
        except RecipeError:
            parsed = None
        front = parsed if isinstance(parsed, dict) else {}
        text = text[match.end():]
    return text.strip(), front
