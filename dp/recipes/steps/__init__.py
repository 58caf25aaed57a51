"""The step types of a recipe, one module each, behind ``base.StepType`` and this registry.

``bash`` (a script, values through the environment), ``agent`` (a prompt
for a headless agent), ``task`` (a project task, as ``dp run`` finds it)
and ``recipe`` (a sub-recipe). Parallel groups are not a type: any
consecutive steps sharing a ``parallel_group`` run together, which is the
execution frame's business (``dp.recipes.frame``).

Adding a step type is one new module here (a ``StepType`` subclass: its
keys, its required key, ``validate``, ``run``, ``plan``) plus one line in
``REGISTRY``; the parser validates and the frame dispatches through the
registry alone. Its YAML keys also need a field on ``dp.recipes.model.Step``.
"""

from __future__ import annotations

from dp.recipes.steps.agent import AgentStep
from dp.recipes.steps.base import StepType
from dp.recipes.steps.bash import BashStep
from dp.recipes.steps.recipe import RecipeStep
from dp.recipes.steps.task import TaskStep

# In the order error messages list them; the first is the default type.
REGISTRY: dict[str, StepType] = {
    step_type.name: step_type
    for step_type in (BashStep(), AgentStep(), RecipeStep(), TaskStep())
}
DEFAULT = next(iter(REGISTRY))


def get(name: str) -> StepType:
    return REGISTRY[name]


def implied_type(raw: dict) -> str:
    """The type of a step written without ``type``: from the keys it has, else the default."""
    by_precedence = sorted(REGISTRY.values(), key=lambda step_type: step_type.precedence)
    found: StepType | None = next(
        (step_type for step_type in by_precedence
         if step_type.implied(raw)), None)
    return found.name if found is not None else DEFAULT


def own_keys() -> dict[str, tuple[str, ...]]:
    """Each type-specific key and the types that read it."""
    owners: dict[str, tuple[str, ...]] = {}
    for step_type in REGISTRY.values():
        for key in step_type.keys:
            owners[key] = owners.get(key, ()) + (step_type.name,)
    return owners
