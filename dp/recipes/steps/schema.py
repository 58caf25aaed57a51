"""A step's YAML → a checked ``Step``: the keys every step has, then its type's own.

The common keys (``id``, ``condition``, ``timeout``, ``parallel_group``, …)
are checked here; the keys a step type owns are declared by its module
(``StepType.keys``) and checked by kind here, and what only that type can
judge (a shell template's placement, a task's words, a sub-recipe's name)
by its ``validate``. Problems are collected, not raised, so one message
lists them all.
"""

from __future__ import annotations

import json
from typing import Any

from dp.recipes import conditions, model, steps
from dp.recipes.checks import IDENTIFIER, is_mapping_of_names, string_list, suggest
from dp.recipes.steps.base import FLAG, TEXT, VARIABLES

MAX_STEP_TIMEOUT = 24 * 3600

# The keys every step may have, whatever its type, and how the simple ones are checked
# (the others have their own checks below); each type's own keys come from its module.
COMMON_STEP_KEYS = {
    "id": None, "type": None, "output": None, "condition": TEXT, "parse_json": FLAG,
    "parse_json_required": FLAG, "working_dir": TEXT, "timeout": None,
    "continue_on_error": FLAG, "when_tags": None, "parallel_group": None,
}
STEP_KEYS = tuple(dict.fromkeys(
    [*COMMON_STEP_KEYS, *(key for step_type in steps.REGISTRY.values() for key in step_type.keys)]
))
STEP_TYPES = tuple(steps.REGISTRY)
# Step keys checked by kind alone: the step types' own first (registry order), then the common ones.
_KEY_KINDS = {
    **{key: kind for step_type in steps.REGISTRY.values() for key, kind in step_type.keys.items()},
    **{key: kind for key, kind in COMMON_STEP_KEYS.items() if kind is not None},
}


def build_step(raw: Any, index: int, problems: list[str], warnings: list[str]) -> model.Step | None:
    """One step, checked: the keys every step has here, its type's own in its module."""
    step_id = _step_id(raw, index, problems)
    if step_id is None:
        return None
    label = f"step '{step_id}'"
    before = len(problems)
    fields: dict[str, Any] = {}
    _check_simple_keys(raw, (TEXT, FLAG), label, problems, warnings, fields)
    step_type = _step_type(raw, label, problems)
    _check_output(raw.get("output"), label, problems, fields)
    _check_timeout(raw.get("timeout"), label, problems, fields)
    fields["when_tags"] = string_list(raw.get("when_tags"), f"{label}: 'when_tags'", problems)
    _check_group(raw.get("parallel_group"), label, problems, fields)
    _check_simple_keys(raw, (VARIABLES,), label, problems, warnings, fields)
    if len(problems) > before or step_type is None:
        return None
    _check_for_type(steps.get(step_type), raw, label, problems, warnings, fields)
    return model.Step(step_id, step_type, **fields)


def _step_id(raw: Any, index: int, problems: list[str]) -> str | None:
    if not isinstance(raw, dict):
        problems.append(f"step #{index + 1} must be a mapping with an 'id'")
        return None
    step_id = raw.get("id")
    if isinstance(step_id, bool):
        problems.append(f"step #{index + 1}: 'id' must be text: quote it (YAML reads yes, no, "
                        "on and off as booleans)")
        return None
    if not isinstance(step_id, str) or not IDENTIFIER.fullmatch(step_id):
        what = "is required" if step_id is None else f"{json.dumps(step_id)} is not valid"
        problems.append(
            f"step #{index + 1}: 'id' {what}: use a name of letters, digits, '_' and '-' "
            "starting with a letter or '_'"
        )
        return None
    return step_id


def _check_simple_keys(raw: dict, kinds: tuple[str, ...], label: str, problems: list[str],
                       warnings: list[str], fields: dict) -> None:
    for key, kind in _KEY_KINDS.items():
        value = raw.get(key)
        if value is None or kind not in kinds:
            continue
        if kind == FLAG:
            if not isinstance(value, bool):
                problems.append(f"{label}: '{key}' must be true or false")
                continue
        elif kind == VARIABLES:
            if not is_mapping_of_names(value):
                problems.append(f"{label}: '{key}' must be a mapping of variable names to values")
        elif key == "command" and value == "":
            # The recipe runner runs an empty command as a no-op; so does dp, but says so.
            warnings.append(f"{label}: 'command' is empty: the step does nothing")
        elif not isinstance(value, str) or not value.strip():
            problems.append(f"{label}: '{key}' must be non-empty text")
        fields[key] = value


def _check_group(group: Any, label: str, problems: list[str], fields: dict) -> None:
    if group is None:
        return
    if isinstance(group, (dict, list, bool)) or str(group).strip() == "":
        problems.append(f"{label}: 'parallel_group' must be a name")
    fields["parallel_group"] = str(group)


def _check_for_type(step_type: steps.StepType, raw: dict, label: str, problems: list[str],
                    warnings: list[str], fields: dict) -> None:
    """What depends on the type: its required key, keys it ignores, its own checks."""
    required = step_type.required
    misspelt = any(key not in STEP_KEYS and suggest(key, STEP_KEYS) for key in raw)
    if fields.get(required) is None and not misspelt:  # a misspelt key is reported as such, once
        problems.append(f"{label}: {_a(step_type.name)} step needs '{required}'")
    for key, owners in steps.own_keys().items():
        if key in raw and step_type.name not in owners:
            warnings.append(f"{label}: '{key}' is ignored on {_a(step_type.name)} step")
    if fields.get("parse_json_required") and not fields.get("parse_json"):
        fields["parse_json"] = True
    if "condition" in fields:
        try:
            conditions.check(fields["condition"])
        except conditions.ConditionError as exc:
            problems.append(f"{label}: bad condition: {exc}")
    step_type.validate(fields, label, problems, warnings)


def _a(step_type: str) -> str:
    return f"an {step_type}" if step_type[:1] in "aeiou" else f"a {step_type}"


def _step_type(raw: dict, label: str, problems: list[str]) -> str | None:
    explicit = raw.get("type")
    if explicit is None:
        return steps.implied_type(raw)
    if explicit not in STEP_TYPES:
        problems.append(
            f"{label}: unknown type '{explicit}'{suggest(explicit, STEP_TYPES)}; "
            f"use one of {', '.join(STEP_TYPES)}"
        )
        return None
    return explicit


def _check_output(value: Any, label: str, problems: list[str], fields: dict) -> None:
    if value is None:
        return
    if not isinstance(value, str) or not IDENTIFIER.fullmatch(value):
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
