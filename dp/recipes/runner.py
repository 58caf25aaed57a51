"""Running a recipe: the options, the progress interface, and the entry point.

``run_recipe`` is all callers need (``dp recipe run``, the MCP tool, tests).
The work is split by concern: ``dp.recipes.frame`` (order, parallel groups,
conditions, limits, hooks), ``dp.recipes.steps`` (one module per step type,
behind a registry) and ``dp.recipes.audit`` (the JSONL audit log).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from dp.recipes import agents, discovery, model, variables
from dp.recipes.frame import Frame

MAX_PARALLEL = 8


class Listener:
    """Progress callbacks; the default does nothing. Called from worker threads."""

    def step_started(self, step: model.Step, depth: int) -> None:
        pass

    def step_finished(self, result: model.StepResult, depth: int) -> None:
        pass

    def warning(self, message: str) -> None:
        pass

    def hook_output(self, hook: str, step_id: str, output: str) -> None:
        pass

    def step_output(self, step: model.Step, chunk: bytes) -> None:
        """A chunk of a bash or task step's output, as it arrives (from that step's thread)."""


class RunOptions:
    """How to run: where, with what, and what to leave out."""

    def __init__(self, project_dir: Path, *, recipe_dirs: Iterable[Path] = (),
                 agent_dirs: Iterable[Path] = (), adapter: agents.AgentAdapter | None = None,
                 dry_run: bool = False, include_tags: Iterable[str] = (),
                 exclude_tags: Iterable[str] = (), audit_dir: Path | None = None,
                 auto_stage: bool = True, listener: Listener | None = None,
                 max_parallel: int = MAX_PARALLEL, cancel: threading.Event | None = None):
        self.project_dir = Path(project_dir).resolve()
        self.recipe_roots = discovery.search_roots(self.project_dir, recipe_dirs)
        # How a recipe step loads its sub-recipe: the parser reads the step table, so the step module
        # gets it from here instead of importing the parser back.
        from dp.recipes.parser import load_recipe

        self.load_recipe = load_recipe
        self.agent_dirs = discovery.agent_dirs(self.project_dir, agent_dirs)
        self.adapter = adapter or agents.PromptCliAdapter()
        self.dry_run = dry_run
        self.include_tags = set(include_tags)
        self.exclude_tags = set(exclude_tags)
        self.audit_dir = Path(audit_dir) if audit_dir is not None else None
        self.auto_stage = auto_stage
        self.listener = listener or Listener()
        self.max_parallel = max(1, max_parallel)
        # Set from outside (a cancelled MCP request) to stop the run like Ctrl-C does.
        self.cancel = cancel


def run_recipe(recipe: model.Recipe, options: RunOptions,
               overrides: dict[str, Any] | None = None) -> model.RecipeResult:
    """Run ``recipe`` with its context plus ``overrides`` (``--set``)."""
    variables.require_defined(recipe, overrides or {}, options.recipe_roots, options.load_recipe)  # before any step runs
    started = time.monotonic()
    frame = Frame(recipe, options)
    try:
        results, context = frame.execute(
            recipe, {**recipe.context, **(overrides or {})}, depth=0, chain=[recipe.name],
            limits=(recipe.max_depth, recipe.max_total_steps),
        )
    finally:
        frame.close()
    result = model.RecipeResult(recipe.name, results, context,
                                int((time.monotonic() - started) * 1000), dry_run=options.dry_run)
    result.audit_path = frame.audit.path if frame.audit is not None else None
    return result
