"""Turning recipe YAML into a validated ``Recipe``, with ``extends`` merged in.

Structural problems are errors that name the step (``step 'build': a bash
step needs 'command'``); unknown keys are warnings with the closest known key
as a suggestion, because a misspelt ``comand`` would otherwise silently turn
a step into a no-op. Everything that can be checked before running is: the
condition syntax, the shell templates, tag lists and limits.
"""

from __future__ import annotations

import difflib
import json
import re
import shlex
from pathlib import Path
from typing import Any, Iterable, Optional

from dp.errors import DpError
from dp.recipes import conditions, discovery, model, templates
from dp.recipes.loader import RecipeLoadError, load_yaml, read_recipe_text

EXIT_INVALID = 2
EXIT_NOT_FOUND = 3
MAX_STEP_TIMEOUT = 24 * 3600

TOP_KEYS = (
    "name", "version", "description", "author", "tags", "context", "steps", "recursion",
    "hooks", "extends",
)
STEP_KEYS = (
    "id", "type", "command", "agent", "prompt", "recipe", "task", "output", "condition",
    "parse_json", "parse_json_required", "mode", "model", "working_dir", "timeout",
    "auto_stage", "continue_on_error", "when_tags", "parallel_group", "context",
)
RECURSION_KEYS = ("max_depth", "max_total_steps")
_STRING_FIELDS = (
    "command", "agent", "prompt", "recipe", "task", "condition", "mode", "model", "working_dir",
)
_BOOL_FIELDS = ("parse_json", "parse_json_required", "auto_stage", "continue_on_error")
# Fields that only mean something for one step type.
_TYPE_FIELDS = {
    "command": (model.BASH,),
    "agent": (model.AGENT,),
    "prompt": (model.AGENT,),
    "mode": (model.AGENT,),
    "model": (model.AGENT,),
    "recipe": (model.RECIPE,),
    "context": (model.RECIPE,),
    "task": (model.TASK,),
    "auto_stage": (model.AGENT,),
}
_REQUIRED = {
    model.BASH: "command",
    model.AGENT: "prompt",
    model.RECIPE: "recipe",
    model.TASK: "task",
}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


class RecipeError(DpError):
    """An invalid recipe (exit code 2) or one that cannot be found (exit code 3)."""

    def __init__(self, message: str, exit_code: int = EXIT_INVALID):
        super().__init__(message, exit_code=exit_code)


def suggest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'command'?)`` for a near miss, else ''."""
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def load_recipe(path: Path, roots: Iterable[Path] = ()) -> model.Recipe:
    """Read, merge ``extends`` parents, and validate the recipe at ``path``."""
    raw, warnings = _load_with_parents(Path(path), list(roots), chain=[])
    return build_recipe(raw, source=str(path), path=Path(path), warnings=warnings)


def parse_recipe_text(text: str, source: str = "<recipe>") -> model.Recipe:
    """Validate a recipe given as text (no ``extends``: a parent needs a location)."""
    raw = _load_document(text, source)
    warnings = _unknown_key_warnings(raw, source)
    if raw.get("extends") is not None:
        raise RecipeError(f"{source}: 'extends' needs a recipe file to resolve the parent from")
    return build_recipe(raw, source=source, path=None, warnings=warnings)


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
        raise RecipeError(
            f"recipe '{argument}' not found: not a file, and no {argument}.yaml in {where} "
            "(see 'dp recipe list')",
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
            row.update(version=loaded.version, description=loaded.description)
        except RecipeError as exc:
            row.update(valid=False, error=exc.message)
        rows.append(row)
    return rows


def _load_document(text: str, source: str) -> dict:
    try:
        data = load_yaml(text, source)
    except RecipeLoadError as exc:
        raise RecipeError(str(exc)) from None
    if not isinstance(data, dict):
        raise RecipeError(f"{source}: a recipe is a YAML mapping with 'name' and 'steps'")
    return data


def _load_with_parents(path: Path, roots: list[Path], chain: list[Path]) -> tuple[dict, list[str]]:
    resolved = path.resolve()
    if resolved in chain:
        cycle = " -> ".join(p.name for p in chain[chain.index(resolved):] + [resolved])
        raise RecipeError(f"'extends' cycle: {cycle}")
    try:
        text = read_recipe_text(path)
    except RecipeLoadError as exc:
        raise RecipeError(str(exc)) from None
    raw = _load_document(text, str(path))
    warnings = _unknown_key_warnings(raw, str(path))
    parent_name = raw.get("extends")
    if parent_name is None:
        return raw, warnings
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
    parent, parent_warnings = _load_with_parents(parent_path, roots, chain + [resolved])
    return _merge(parent, raw), parent_warnings + warnings


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


def _unknown_key_warnings(raw: dict, source: str) -> list[str]:
    warnings = [
        f"{source}: unknown key '{key}'{suggest(key, TOP_KEYS)}"
        for key in raw if key not in TOP_KEYS
    ]
    for section, known in (("recursion", RECURSION_KEYS), ("hooks", model.HOOK_NAMES)):
        for key in _as_dict(raw.get(section)):
            if key not in known:
                warnings.append(f"{source}: unknown key '{section}.{key}'{suggest(key, known)}")
    for index, step in enumerate(_as_list(raw.get("steps"))):
        if not isinstance(step, dict):
            continue
        label = f"step '{step['id']}'" if isinstance(step.get("id"), str) else f"step #{index + 1}"
        warnings += [
            f"{source}: {label}: unknown key '{key}'{suggest(key, STEP_KEYS)}"
            for key in step if key not in STEP_KEYS
        ]
    return warnings


def build_recipe(raw: dict, source: str, path: Optional[Path], warnings: list[str]) -> model.Recipe:
    problems: list[str] = []
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append("'name' is required (a non-empty string)")
    steps_raw = raw.get("steps")
    if not isinstance(steps_raw, list) or not steps_raw:
        problems.append("'steps' is required (a list of at least one step)")
        steps_raw = []
    fields: dict[str, Any] = {"path": path, "warnings": warnings}
    for key in ("version", "description", "author"):
        value = raw.get(key)
        if value is not None:
            if isinstance(value, (dict, list)):
                problems.append(f"'{key}' must be text")
            fields[key] = str(value)
    fields["tags"] = _string_list(raw.get("tags"), "'tags'", problems)
    context = raw.get("context")
    if context is not None and not _is_mapping_of_names(context):
        problems.append("'context' must be a mapping of variable names to values")
    else:
        fields["context"] = context or {}
    fields.update(_recursion(raw.get("recursion"), problems))
    fields["hooks"] = _hooks(raw.get("hooks"), problems, warnings)

    steps: list[model.Step] = []
    seen: set[str] = set()
    for index, step_raw in enumerate(steps_raw):
        step = _build_step(step_raw, index, problems, warnings)
        if step is None:
            continue
        if step.id in seen:
            problems.append(f"step '{step.id}': duplicate step id (ids must be unique)")
        seen.add(step.id)
        steps.append(step)
    warnings.extend(_group_warnings(steps))
    if problems:
        raise RecipeError(f"invalid recipe {source}: " + "; ".join(problems))
    return model.Recipe(name.strip(), steps, **fields)


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
        _check_shell_template(command, f"'hooks.{key}'", problems, warnings)
        hooks[key] = command
    return hooks


def _build_step(raw: Any, index: int, problems: list[str], warnings: list[str]) -> Optional[model.Step]:
    if not isinstance(raw, dict):
        problems.append(f"step #{index + 1} must be a mapping with an 'id'")
        return None
    step_id = raw.get("id")
    if isinstance(step_id, bool):
        problems.append(f"step #{index + 1}: 'id' must be text: quote it (YAML reads yes, no, "
                        "on and off as booleans)")
        return None
    if not isinstance(step_id, str) or not _IDENTIFIER.fullmatch(step_id):
        what = "is required" if step_id is None else f"{json.dumps(step_id)} is not valid"
        problems.append(
            f"step #{index + 1}: 'id' {what}: use a name of letters, digits, '_' and '-' "
            "starting with a letter or '_'"
        )
        return None
    label = f"step '{step_id}'"
    before = len(problems)
    fields: dict[str, Any] = {}
    for key in _STRING_FIELDS:
        value = raw.get(key)
        if value is None:
            continue
        if key == "command" and value == "":
            # The recipe runner runs an empty command as a no-op; so does dp, but says so.
            warnings.append(f"{label}: 'command' is empty: the step does nothing")
        elif not isinstance(value, str) or not value.strip():
            problems.append(f"{label}: '{key}' must be non-empty text")
        fields[key] = value
    for key in _BOOL_FIELDS:
        value = raw.get(key)
        if value is not None and not isinstance(value, bool):
            problems.append(f"{label}: '{key}' must be true or false")
        elif value is not None:
            fields[key] = value
    step_type = _step_type(raw, label, problems)
    _check_output(raw.get("output"), label, problems, fields)
    _check_timeout(raw.get("timeout"), label, problems, fields)
    fields["when_tags"] = _string_list(raw.get("when_tags"), f"{label}: 'when_tags'", problems)
    group = raw.get("parallel_group")
    if group is not None:
        if isinstance(group, (dict, list, bool)) or str(group).strip() == "":
            problems.append(f"{label}: 'parallel_group' must be a name")
        fields["parallel_group"] = str(group)
    context = raw.get("context")
    if context is not None:
        if not _is_mapping_of_names(context):
            problems.append(f"{label}: 'context' must be a mapping of variable names to values")
        fields["context"] = context
    if len(problems) > before or step_type is None:
        return None

    required = _REQUIRED[step_type]
    if fields.get(required) is None:
        misspelt = [key for key in raw if key not in STEP_KEYS and suggest(key, [required])]
        hint = f" (found '{misspelt[0]}': did you mean '{required}'?)" if misspelt else ""
        problems.append(f"{label}: {_a(step_type)} step needs '{required}'{hint}")
    for key, types in _TYPE_FIELDS.items():
        if key in raw and step_type not in types:
            warnings.append(f"{label}: '{key}' is ignored on {_a(step_type)} step")
    if fields.get("parse_json_required") and not fields.get("parse_json"):
        fields["parse_json"] = True
    if "condition" in fields:
        try:
            conditions.check(fields["condition"])
        except conditions.ConditionError as exc:
            problems.append(f"{label}: bad condition: {exc}")
    if step_type == model.BASH and fields.get("command"):
        _check_shell_template(fields["command"], f"{label}: 'command'", problems, warnings)
    if step_type == model.TASK and fields.get("task"):
        try:
            shlex.split(fields["task"])
        except ValueError as exc:
            problems.append(f"{label}: 'task' cannot be split into words: {exc}")
    if step_type == model.RECIPE and fields.get("recipe"):
        if not discovery.is_safe_recipe_name(fields["recipe"]):
            problems.append(
                f"{label}: 'recipe' must be a recipe name (one path component, no '/' or '..')"
            )
    return model.Step(step_id, step_type, **fields)


def _a(step_type: str) -> str:
    return f"an {step_type}" if step_type == model.AGENT else f"a {step_type}"


def _step_type(raw: dict, label: str, problems: list[str]) -> Optional[str]:
    explicit = raw.get("type")
    if explicit is None:
        if "recipe" in raw:
            return model.RECIPE
        if "agent" in raw or "prompt" in raw:
            return model.AGENT
        if "task" in raw:
            return model.TASK
        return model.BASH
    if explicit not in model.STEP_TYPES:
        problems.append(
            f"{label}: unknown type '{explicit}'{suggest(explicit, model.STEP_TYPES)}; "
            f"use one of {', '.join(model.STEP_TYPES)}"
        )
        return None
    return explicit


def _check_output(value: Any, label: str, problems: list[str], fields: dict) -> None:
    if value is None:
        return
    if not isinstance(value, str) or not _IDENTIFIER.fullmatch(value):
        problems.append(f"{label}: 'output' must be a variable name (letters, digits, '_', '-')")
    fields["output"] = value


def _check_timeout(value: Any, label: str, problems: list[str], fields: dict) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not 0 < value <= MAX_STEP_TIMEOUT:
        problems.append(f"{label}: 'timeout' must be a number of seconds, above 0 and at most "
                        f"{MAX_STEP_TIMEOUT}")
    fields["timeout"] = value


def _check_shell_template(command: str, label: str, problems: list[str],
                          warnings: list[str]) -> None:
    try:
        templates.render_shell(command, {})
    except templates.TemplateError as exc:
        problems.append(f"{label}: {exc}")
    for match in _REPARSED.finditer(command):
        tool = " ".join((match.group(1) or match.group(2)).split())
        warnings.append(
            f"{label}: a {{{{value}}}} given to '{tool}' is parsed as shell code again by it, "
            "where dp cannot keep it inert; pass it as an argument of the script "
            "(sh -c '... \"$1\"' _ {{value}}) or check it in a condition"
        )


# Where a value becomes shell code again after dp passed it as data: eval's
# and ssh's arguments, and the script text of sh -c (not the arguments after it).
_REPARSED = re.compile(
    r"(?:^|[\s;&|(`])(eval|ssh|trap)\s[^\n]*?\{\{"
    r"|(?:^|[\s;&|(`])((?:ba|da|z|k)?sh\s+-c|su\s+-c)\s+(?:\"[^\"]*|'[^']*|[^\s'\"]*)\{\{"
)


def _string_list(value: Any, label: str, problems: list[str]) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        problems.append(f"{label} must be a list of strings")
        return []
    return value


def _is_mapping_of_names(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(key, str) and _IDENTIFIER.fullmatch(key) for key in value
    )


def _group_warnings(steps: list[model.Step]) -> list[str]:
    """Parallel groups only form from consecutive steps; say so when one is split up."""
    warnings: list[str] = []
    closed: set[str] = set()
    previous: Optional[str] = None
    members: dict[str, set[str]] = {}
    for step in steps:
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
    if not separator or not _IDENTIFIER.fullmatch(key):
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
        except ValueError:
            return text
    return text
