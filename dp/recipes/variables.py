"""Which ``{{ }}`` placeholders of a recipe no value can reach, found before any step runs.

The recipe runner renders a variable it cannot find as an empty string, so a
misspelt ``rm -rf build/{{dirr}}`` runs as ``rm -rf build/`` and the recipe
reports success. dp refuses such a recipe instead, at ``dp recipe validate``
and before a run starts, naming the file, the step, the template and the line.

A name has a value at a step when one of these gives it:

* the recipe's ``context:`` (its declared defaults, ``extends`` parents' included),
  the run's ``--set`` values, or, for a sub-recipe, what its parent hands down;
* the output variable (``output:``, else the id) of a step that runs *before* it:
  steps of one parallel group do not see each other's outputs;
* a ``recipe`` step before it: the sub-recipe's whole final context;
* for hooks, also ``step_id``, ``step_type``, ``step_status``, ``step_error`` and
  ``recipe_name``.

A placeholder with ``| default('…')`` always has a value. What cannot be
known statically is left to render time, where a missing value fails the step
before it runs: a key inside a value (``{{result.count}}``), a name the step's
own ``condition`` tests (``condition: "target"`` then ``{{target}}``), an
output of a step that was skipped, and every name after a sub-recipe dp cannot
find here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from dp.recipes import discovery, model, templates
from dp.recipes.checks import suggest

HOOK_VARIABLES = ("step_id", "step_type", "step_status", "step_error", "recipe_name")
_CONDITION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_MAX_DEPTH = model.DEFAULT_MAX_DEPTH


def templates_of(step: model.Step) -> Iterator[tuple[str, str]]:
    """(label, template) for every templated field of a step (the sub-recipe ``context`` at any depth)."""
    for key in ("command", "prompt", "working_dir", "task"):
        text = getattr(step, key)
        if isinstance(text, str):
            yield f"'{key}'", text
    yield from _nested(step.context, "'context")


def _nested(value, label: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _nested(item, f"{label}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nested(item, f"{label}[{index}]")
    elif isinstance(value, str) and label != "'context":
        yield label + "'", value


def syntax_problems(recipe_steps: Iterable[model.Step], hooks: dict[str, str]) -> list[str]:
    """A ``{{`` that does not parse, in any step or hook: one line each."""
    found = []
    for step in recipe_steps:
        for label, text in templates_of(step):
            found += [f"step '{step.id}': {label}: {line}" for line in templates.syntax_problems(text)]
    for name, text in hooks.items():
        found += [f"'hooks.{name}': {line}" for line in templates.syntax_problems(text)]
    return found


def undefined(recipe: model.Recipe, given: Iterable[str] = (), roots: Iterable[Path] = (), load=None) -> list[str]:
    """One line per placeholder no value reaches (see the module docstring); [] when all are reached.

    ``load(path, roots)`` reads a sub-recipe (``dp.recipes.parser.load_recipe``, handed in by its
    callers: the parser checks recipes with this module, which must not import it back); without it
    sub-recipes are not followed."""
    return _Walk(list(roots), load).recipe(recipe, set(given), [])


def require_defined(recipe: model.Recipe, given: Iterable[str] = (), roots: Iterable[Path] = (), load=None) -> None:
    """RecipeError listing every placeholder no value reaches (before a run, at validation)."""
    from dp.recipes.loader import RecipeError

    found = undefined(recipe, given, roots, load)
    if found:
        source = recipe.path if recipe.path is not None else "<recipe>"
        raise RecipeError("\n".join(f"invalid recipe {source}: {line}" for line in found))


class _Walk:
    def __init__(self, roots: list[Path], load=None):
        self.roots = roots
        self.load = load

    def recipe(self, recipe: model.Recipe, given: set[str], chain: list[str]) -> list[str]:
        known = set(recipe.context) | given
        found = self._hooks(recipe, known)
        index = 0
        while index < len(recipe.steps):
            batch = model.batch(recipe.steps, index)
            index += len(batch)
            added: set[str] = set()
            for step in batch:
                found += self._step(step, recipe, known)
                added.add(step.output_key)
                if step.type == "recipe":
                    child_names = self._child(step, recipe, known, chain, found)
                    if child_names is None:
                        return found  # what the sub-recipe sets is unknown here: render time judges the rest
                    added |= child_names
            known |= added
        return found

    def _hooks(self, recipe: model.Recipe, known: set[str]) -> list[str]:
        visible = known | set(HOOK_VARIABLES)
        return [f"'hooks.{name}': {_problem(path, line, visible)}"
                for name, text in recipe.hooks.items() for path, line in templates.required(text)
                if templates.root_name(path) not in visible]

    def _step(self, step: model.Step, recipe: model.Recipe, known: set[str]) -> list[str]:
        guarded = set(_CONDITION_NAME.findall(step.condition or ""))
        later = {other.output_key: other.id for other in recipe.steps}
        return [f"step '{step.id}': {label}: {_problem(path, line, known, later)}"
                for label, text in templates_of(step) for path, line in templates.required(text)
                if templates.root_name(path) not in known | guarded]

    def _child(self, step: model.Step, parent: model.Recipe, known: set[str], chain: list[str],
               found: list[str]) -> set[str] | None:
        """The names a sub-recipe step adds (None when its recipe cannot be read here); its own
        problems, as run with what this step hands it, go to ``found``."""
        child = self._load(step.recipe or "", parent)
        if child is None or child.name in chain or len(chain) >= _MAX_DEPTH:
            return None
        problems = self.recipe(child, known | set(step.context), chain + [child.name])
        found += [f"step '{step.id}': sub-recipe {child.path}: {line}" for line in problems]
        return self._sets(child)

    def _sets(self, recipe: model.Recipe, depth: int = 0) -> set[str]:
        """Every name a recipe leaves in the context: its defaults and its steps' outputs, sub-recipes' included."""
        names = set(recipe.context)
        for step in recipe.steps:
            names.add(step.output_key)
            child = self._load(step.recipe or "", recipe) if step.type == "recipe" and depth < _MAX_DEPTH else None
            if child is not None:
                names |= self._sets(child, depth + 1)
        return names

    def _load(self, name: str, parent: model.Recipe) -> model.Recipe | None:
        from dp.recipes.loader import RecipeError

        roots = [*self.roots, *([Path(parent.path).parent] if parent.path is not None else [])]
        path = discovery.find_recipe(name, roots) if self.load is not None else None
        if path is None:
            return None
        try:
            return self.load(path, self.roots)
        except RecipeError:
            return None


def _problem(path: str, line: int, known: set[str], later: dict[str, str] | None = None) -> str:
    name = templates.root_name(path)
    why = ""
    if later and name in later:
        why = f" before step '{later[name]}' has run (a later step, or one of the same parallel group)"
    return (f"line {line}: {{{{{path}}}}} has no value{why}{suggest(name, known) if not why else ''}: "
            f"declare a default under 'context:' ({name}: …), pass --set {name}=VALUE, "
            f"or write {{{{ {path} | default('') }}}}")
