"""Turning recipe YAML into a validated ``Recipe``, with ``extends`` merged in.

Structural problems are errors that name the step (``step 'build': a bash
step needs 'command'``). An unknown key close to a known one is an error
with the known key as a suggestion, because a misspelt ``comand``,
``tmeout`` or ``continue_on_eror`` would otherwise silently drop what it
said; an unknown key like no known one is a warning (a newer runner's
field). Everything that can be checked before running is: the condition
syntax, the shell templates, tag lists and limits — and every problem found
is reported at once, one line each, so a recipe is fixed in one pass.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from dp.recipes import discovery, model, templates, variables
from dp.recipes.checks import IDENTIFIER, is_mapping_of_names, string_list, suggest
from dp.recipes.loader import EXIT_NOT_FOUND, RecipeError, load_yaml, read_recipe_text
from dp.recipes.steps import schema
from dp.recipes.steps.bash import check_shell_template

TOP_KEYS = (
    "name", "version", "description", "author", "tags", "context", "steps", "recursion",
    "hooks", "extends",
)
RECURSION_KEYS = ("max_depth", "max_total_steps")


def load_recipe(path: Path, roots: Iterable[Path] = ()) -> model.Recipe:
    """Read, merge ``extends`` parents, and validate the recipe at ``path``."""
    raw, warnings, misspelt = _load_with_parents(Path(path), list(roots), chain=[])
    return build_recipe(raw, source=str(path), path=Path(path), warnings=warnings, problems=misspelt)


def parse_recipe_text(text: str, source: str = "<recipe>") -> model.Recipe:
    """Validate a recipe given as text (no ``extends``: a parent needs a location)."""
    raw = _load_document(text, source)
    misspelt, warnings = _unknown_keys(raw, source)
    if raw.get("extends") is not None:
        raise RecipeError(f"{source}: 'extends' needs a recipe file to resolve the parent from")
    return build_recipe(raw, source=source, path=None, warnings=warnings, problems=misspelt)


def resolve_recipe_argument(argument: str, roots: Iterable[Path], cwd: Path) -> Path:
    """A RECIPE argument: an existing file path, else a name found in the search roots."""
    candidate = Path(argument)
    if not candidate.is_absolute():
        candidate = cwd / candidate
    if candidate.is_file():
        return candidate
    roots = list(roots)
    found = discovery.find_recipe(argument, roots) if discovery.is_safe_recipe_name(argument) else None
    if found is None:
        where = ", ".join(str(root) for root in roots)
        stem = argument[: -len(Path(argument).suffix)] if argument.endswith(discovery.RECIPE_SUFFIXES) else argument
        looked_for = f"{stem}.yaml or {stem}.yml" if stem == argument else argument
        raise RecipeError(
            f"recipe '{argument}' not found: no file {candidate}, and no {looked_for} in {where}; "
            "check the name, or see 'dp recipe list'",
            exit_code=EXIT_NOT_FOUND,
        )
    return found


def catalogue(roots: Iterable[Path]) -> list[dict[str, Any]]:
    """Every recipe found in ``roots`` (``dp recipe list``), invalid ones with the reason.

    An invalid file is listed rather than skipped so that a typo does not make
    a recipe silently disappear from the list.
    """
    roots = list(roots)
    rows = []
    for name, path in discovery.list_recipe_files(roots):
        row: dict[str, Any] = {"name": name, "version": None, "description": None,
                               "path": str(path), "valid": True, "error": None}
        try:
            loaded = load_recipe(path, roots)
            variables.require_defined(loaded, roots=roots, load=load_recipe)
            row.update(version=loaded.version, description=loaded.description)
        except RecipeError as exc:
            row.update(valid=False, error=exc.message)
        rows.append(row)
    return rows


def _load_document(text: str, source: str) -> dict:
    data = load_yaml(text, source)
    if not isinstance(data, dict):
        raise RecipeError(f"{source}: a recipe is a YAML mapping with 'name' and 'steps'")
    return data


def _load_with_parents(path: Path, roots: list[Path], chain: list[Path]) -> tuple[dict, list[str], list[str]]:
    """The merged document, its warnings and its misspelt keys (problems), parents' first."""
    resolved = path.resolve()
    if resolved in chain:
        cycle = " -> ".join(p.name for p in chain[chain.index(resolved):] + [resolved])
        raise RecipeError(f"'extends' cycle: {cycle}")
    text = read_recipe_text(path)
    raw = _load_document(text, str(path))
    misspelt, warnings = _unknown_keys(raw, str(path))
    parent_name = raw.get("extends")
    if parent_name is None:
        return raw, warnings, misspelt
    if not isinstance(parent_name, str) or not discovery.is_safe_recipe_name(parent_name):
        raise RecipeError(
            f"{path}: 'extends' must be a recipe name (one path component, no '/' or '..')"
        )
    parent_path = discovery.find_recipe(parent_name, [path.parent, *roots])
    if parent_path is None:
        raise RecipeError(
            f"{path}: parent recipe '{parent_name}' not found next to it or in "
            f"{', '.join(str(root) for root in roots) or 'the recipe directories'}"
        )
    parent, parent_warnings, parent_misspelt = _load_with_parents(parent_path, roots, chain + [resolved])
    return _merge(parent, raw), parent_warnings + warnings, parent_misspelt + misspelt


def _merge(parent: dict, child: dict) -> dict:
    """Parent steps first; the child's context, hooks and limits win key by key."""
    merged = {**parent, **child}
    merged.pop("extends", None)
    merged["steps"] = _as_list(parent.get("steps")) + _as_list(child.get("steps"))
    if isinstance(parent.get("tags"), list) or isinstance(child.get("tags"), list):
        tags = _as_list(parent.get("tags")) + _as_list(child.get("tags"))
        # union, parent's first, as the recipe runner does (validation checks the items later)
        merged["tags"] = [tag for index, tag in enumerate(tags) if tag not in tags[:index]]
    for key in ("context", "hooks", "recursion"):
        if isinstance(parent.get(key), dict) or isinstance(child.get(key), dict):
            merged[key] = {**_as_dict(parent.get(key)), **_as_dict(child.get(key))}
    return merged


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _as_dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _unknown_keys(raw: dict, source: str) -> tuple[list[str], list[str]]:
    """(misspelt keys, other unknown keys): a key close to a known one is a problem, others warnings."""
    found: list[tuple[str, str, str, Iterable[str]]] = [
        (f"{source}: ", key, key, TOP_KEYS) for key in raw if key not in TOP_KEYS]
    sections: tuple[tuple[str, Iterable[str]], ...] = (("recursion", RECURSION_KEYS), ("hooks", model.HOOK_NAMES))
    for section, names in sections:
        found += [(f"{source}: ", f"{section}.{key}", key, names)
                  for key in _as_dict(raw.get(section)) if key not in names]
    for index, step in enumerate(_as_list(raw.get("steps"))):
        if not isinstance(step, dict):
            continue
        label = f"step '{step['id']}'" if isinstance(step.get("id"), str) else f"step #{index + 1}"
        found += [(f"{source}: {label}: ", key, key, schema.STEP_KEYS)
                  for key in step if key not in schema.STEP_KEYS]
    misspelt: list[str] = []
    warnings: list[str] = []
    for where, shown, key, known in found:
        hint = suggest(key, known)
        (misspelt if hint else warnings).append(f"{where}unknown key '{shown}'{hint}")
    return misspelt, warnings


def build_recipe(raw: dict, source: str, path: Path | None, warnings: list[str],
                 problems: Iterable[str] = ()) -> model.Recipe:
    """The ``Recipe`` for a loaded document; RecipeError listing every problem found (and ``problems``)."""
    problems = list(problems)
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append("'name' is required (a non-empty string)")
    steps_raw = raw.get("steps")
    if not isinstance(steps_raw, list) or not steps_raw:
        problems.append("'steps' is required (a list of at least one step)")
        steps_raw = []
    fields = _recipe_fields(raw, problems, warnings)
    fields.update(path=path, warnings=warnings)
    built = _build_steps(steps_raw, problems, warnings)
    # Script templates were judged whole by their step type (syntax included): each line once.
    problems = list(dict.fromkeys(problems + variables.syntax_problems(built, fields["hooks"])))
    warnings.extend(_group_warnings(built))
    if problems:
        own = f"{source}: "  # a misspelt key of this very file names it once
        raise RecipeError("\n".join(f"invalid recipe {source}: {problem.removeprefix(own)}"
                                     for problem in problems))
    assert isinstance(name, str)  # checked above: a missing name is a problem, raised
    return model.Recipe(name.strip(), built, **fields)


def _recipe_fields(raw: dict, problems: list[str], warnings: list[str]) -> dict[str, Any]:
    """The recipe's own keys besides name and steps, checked."""
    fields: dict[str, Any] = {}
    for key in ("version", "description", "author"):
        value = raw.get(key)
        if value is not None:
            if isinstance(value, (dict, list)):
                problems.append(f"'{key}' must be text")
            fields[key] = str(value)
    fields["tags"] = string_list(raw.get("tags"), "'tags'", problems)
    context = raw.get("context")
    if context is not None and not is_mapping_of_names(context):
        problems.append("'context' must be a mapping of variable names to values")
    else:
        fields["context"] = context or {}
    fields.update(_recursion(raw.get("recursion"), problems))
    fields["hooks"] = _hooks(raw.get("hooks"), problems, warnings)
    return fields


def _build_steps(steps_raw: list, problems: list[str], warnings: list[str]) -> list[model.Step]:
    built: list[model.Step] = []
    seen: set[str] = set()
    for index, step_raw in enumerate(steps_raw):
        step = schema.build_step(step_raw, index, problems, warnings)
        if step is None:
            continue
        if step.id in seen:
            problems.append(f"step '{step.id}': duplicate step id (ids must be unique)")
        seen.add(step.id)
        built.append(step)
    return built


def _recursion(value: Any, problems: list[str]) -> dict[str, int]:
    limits: dict[str, int] = {}
    if value is None:
        return limits
    if not isinstance(value, dict):
        problems.append("'recursion' must be a mapping with max_depth and/or max_total_steps")
        return limits
    for key in RECURSION_KEYS:
        if key in value:
            number = value[key]
            if isinstance(number, bool) or not isinstance(number, int) or number < 1:
                problems.append(f"'recursion.{key}' must be a positive integer")
            else:
                limits[key] = number
    return limits


def _hooks(value: Any, problems: list[str], warnings: list[str]) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.append("'hooks' must be a mapping of pre_step/post_step/on_error to commands")
        return {}
    hooks = {}
    for key in model.HOOK_NAMES:
        command = value.get(key)
        if command is None:
            continue
        if not isinstance(command, str) or not command.strip():
            problems.append(f"'hooks.{key}' must be a shell command")
            continue
        check_shell_template(command, f"'hooks.{key}'", problems, warnings)
        hooks[key] = command
    return hooks


def _group_warnings(built: list[model.Step]) -> list[str]:
    """Parallel groups only form from consecutive steps; say so when one is split up."""
    warnings: list[str] = []
    closed: set[str] = set()
    previous: str | None = None
    members: dict[str, set[str]] = {}
    for step in built:
        group = step.parallel_group
        if group is not None and group in closed and group != previous:
            warnings.append(
                f"step '{step.id}': parallel_group '{group}' is split by other steps; "
                "each run of consecutive steps runs as its own group"
            )
        if previous is not None and group != previous:
            closed.add(previous)
        if group is not None:
            same_group = members.setdefault(group, set()) if group == previous else set()
            members[group] = same_group
            used = _variables_used(step)
            for other in same_group & used:
                warnings.append(
                    f"step '{step.id}': uses '{other}' from the same parallel group "
                    f"'{group}', which is not set until the group finishes"
                )
            same_group.add(step.output_key)
        previous = group
    return warnings


def _variables_used(step: model.Step) -> set[str]:
    text = " ".join(t for t in (step.command, step.prompt, step.working_dir, step.task) if t)
    used = {path.split(".")[0].split("[")[0] for path in templates.placeholders(text)}
    if step.condition:
        used |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_-]*", step.condition))
    return used


def parse_assignment(text: str) -> tuple[str, Any]:
    """``--set KEY=VALUE`` with the value typed: booleans, numbers, JSON collections, else text."""
    key, separator, value = text.partition("=")
    key = key.strip()
    if not separator or not IDENTIFIER.fullmatch(key):
        raise RecipeError(
            f"--set '{text}': expected KEY=VALUE with KEY made of letters, digits, '_' and '-'"
        )
    return key, typed_value(value)


def typed_value(text: str) -> Any:
    """Typed only when nothing is lost: ``1.10``, ``007`` and ``1e3`` stay text.

    A version ``1.10`` read as the float 1.1 would render as ``1.1``; kept as
    text it still compares as a number in conditions.
    """
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?(0|[1-9]\d*)", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text) and repr(float(text)) == text:
        return float(text)
    if text[:1] in ("{", "["):
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            return text
    return text
