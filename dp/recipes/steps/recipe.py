"""``recipe`` steps: another recipe run inside this one, with its own step results.

The child is found by name (``-R`` directories, ``./recipes``,
``./.dp/recipes``, then the parent's own directory), sees the parent's
context plus the step's ``context:`` overrides, and hands back its whole
final context. Depth and the total number of steps are bounded across the
whole tree of recipes (``recursion:``; a child may only lower the limits).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dp.recipes import discovery, jsonout, model, templates
from dp.recipes.steps.base import TEXT, VARIABLES, Call, StepFailed, StepType, render_text


class RecipeStep(StepType):
    name = "recipe"
    required = "recipe"
    keys = {"recipe": TEXT, "context": VARIABLES}
    implied_by = ("recipe",)
    precedence = 10

    def validate(self, fields, label, problems, warnings) -> None:
        if fields.get("recipe") and not discovery.is_safe_recipe_name(fields["recipe"]):
            problems.append(
                f"{label}: 'recipe' must be a recipe name (one path component, no '/' or '..')"
            )

    def run(self, frame, call: Call) -> None:
        child, child_context, child_limits = _child(frame, call)
        results, final = frame.execute(child, child_context, call.depth + 1,
                                       call.chain + [child.name], child_limits)
        result = call.result
        result.children = results
        call.updates.update(final)
        ran = [r for r in results if r.output is not None and r.status != model.SKIPPED]
        result.output = ran[-1].output if ran else ""
        call.updates[call.step.output_key] = jsonout.parse_output(result.output)
        path, error = _first_failure(results)
        if path:
            raise StepFailed(f"sub-recipe '{child.name}' failed at step '{' > '.join(path)}': {error}")

    def plan(self, frame, call: Call) -> str:
        child, child_context, child_limits = _child(frame, call)
        call.result.children, _ = frame.execute(child, child_context, call.depth + 1,
                                                call.chain + [child.name], child_limits)
        return f"recipe {child.name} ({child.path})"


def _child(frame, call: Call) -> tuple[model.Recipe, dict, tuple[int, int]]:
    """Load a sub-recipe: -R dirs, ./recipes, ./.dp/recipes, then the parent's directory."""
    step, parent = call.step, call.recipe
    name = step.recipe or ""  # a recipe step always names one (the parser checks)
    max_depth, max_total = call.limits
    if call.depth + 1 > max_depth:
        raise StepFailed(
            f"sub-recipe depth limit {max_depth} reached: "
            f"{' -> '.join(call.chain + [name])} (recursion.max_depth)"
        )
    roots = list(frame.options.recipe_roots)
    if parent.path is not None and Path(parent.path).parent not in roots:
        roots.append(Path(parent.path).parent)
    path = discovery.find_recipe(name, roots)
    if path is None:
        raise StepFailed(
            f"sub-recipe '{step.recipe}' not found in {', '.join(str(root) for root in roots)}"
        )
    from dp.recipes.loader import RecipeError

    try:
        child = frame.options.load_recipe(path, frame.options.recipe_roots)
    except RecipeError as exc:
        raise StepFailed(f"sub-recipe '{step.recipe}': {exc.message}") from None
    call.result.warnings += child.warnings
    overrides = {key: _render_value(value, call, f"step '{step.id}' context")
                 for key, value in step.context.items()}
    child_context = {**child.context, **call.context, **overrides}
    from dp.recipes.variables import undefined

    problems = undefined(child, child_context, frame.options.recipe_roots, frame.options.load_recipe)
    if problems:
        raise StepFailed("\n".join(f"sub-recipe {child.path}: {line}" for line in problems))
    return child, child_context, (min(max_depth, child.max_depth),
                                  min(max_total, child.max_total_steps))


def _render_value(value: Any, call: Call, where: str) -> Any:
    """Sub-recipe context overrides: strings are templates, at any depth of nesting.

    A string that is one placeholder and nothing else passes the value
    itself, so ``files: "{{changed}}"`` hands the child a list, not its JSON text.
    """
    if isinstance(value, dict):
        return {key: _render_value(item, call, where) for key, item in value.items()}
    if isinstance(value, list):
        return [_render_value(item, call, where) for item in value]
    if not isinstance(value, str):
        return value
    whole = templates.PLACEHOLDER.fullmatch(value.strip())
    if whole is not None:
        found = templates.lookup(whole.group(1), call.context)
        if found is not templates.MISSING:
            return found
    return render_text(value, call.context, call.result, where)


def _first_failure(results: list[model.StepResult]) -> tuple[list[str], str | None]:
    """The step ids down to the first untolerated failure, and its own error.

    Nested sub-recipes report the root cause once, not wrapped once per level.
    """
    path: list[str] = []
    error = None
    while True:
        failed = [r for r in results if r.status == model.FAILED and not r.tolerated]
        if not failed:
            return path, error
        path.append(failed[0].step_id)
        error, results = failed[0].error, failed[0].children
