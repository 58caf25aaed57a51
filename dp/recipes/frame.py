"""The execution frame of a recipe run: order, parallel groups, limits, hooks, the audit log.

Everything a step of any type goes through is here; what a step of one type
does is in its module under ``dp.recipes.steps``. One ``Frame`` serves a
run and all its sub-recipes, so the total step count, the stop flag and the
audit log span the whole tree.

Why the context is copied per step: steps of a parallel group run on threads
and must all see the context as it was when the group started; their outputs
are merged back in step order once the whole group is done, so the result
never depends on which thread finished first.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from dp.errors import DpError
from dp.recipes import conditions, jsonout, model, steps, templates
from dp.recipes.audit import AuditLog
from dp.recipes.steps.base import Call, StepFailed, render_shell
from dp.recipes.steps.bash import run_shell

HOOK_TIMEOUT = 60.0


class Outcome:
    """A finished step and what it adds to the context."""

    __slots__ = ("result", "updates")

    def __init__(self, result: model.StepResult, updates: dict | None = None):
        self.result = result
        self.updates = updates or {}


class Frame:
    """State shared by one run and all its sub-recipes: counters, audit log, stop flag."""

    def __init__(self, recipe: model.Recipe, options):
        self.options = options
        self.lock = threading.Lock()
        # Set on Ctrl-C: the main thread gets the KeyboardInterrupt, but steps
        # running on parallel-group threads only learn of it through this.
        self.interrupted = options.cancel if options.cancel is not None else threading.Event()
        self.total_steps = 0
        self.audit = None if options.dry_run or options.audit_dir is None \
            else AuditLog(options.audit_dir, recipe.name)

    def close(self) -> None:
        if self.audit is not None:
            self.audit.close()

    def streamer(self, step: model.Step):
        """Where a step's live output goes: the listener."""
        listener = self.options.listener
        return lambda chunk: listener.step_output(step, chunk)

    # --- recipe level -----------------------------------------------------------

    def execute(self, recipe: model.Recipe, context: dict, depth: int, chain: list[str],
                limits: tuple[int, int]) -> tuple[list[model.StepResult], dict]:
        """Run ``recipe``'s steps in order (a parallel group at a time); (results, final context)."""
        context = (templates.Planned if self.options.dry_run else dict)(context)
        results: list[model.StepResult] = []
        index = 0
        failed_step: str | None = None
        while index < len(recipe.steps):
            batch = model.batch(recipe.steps, index)
            index += len(batch)
            if failed_step is not None or self.interrupted.is_set():
                reason = f"the recipe stopped after '{failed_step}' failed" \
                    if failed_step is not None else "the run was interrupted"
                results += [self._finish(_not_run(step, reason), recipe, depth).result
                            for step in batch]
                continue
            outcomes = self._run_batch(batch, recipe, context, depth, chain, limits)
            for step, outcome in zip(batch, outcomes):
                results.append(outcome.result)
                context.update(outcome.updates)
                if self._stops_recipe(step, outcome.result) and failed_step is None:
                    failed_step = step.id
        return results, context

    def _stops_recipe(self, step: model.Step, result: model.StepResult) -> bool:
        """Whether a finished step ends the recipe (a tolerated failure is marked so here)."""
        if result.status != model.FAILED:
            return False
        if step.continue_on_error:
            result.tolerated = True
            return False
        return not self.options.dry_run  # a dry run goes on, to show every step it can

    def _run_batch(self, batch: list[model.Step], recipe, context, depth, chain, limits):
        if len(batch) == 1:
            return [self._step(batch[0], recipe, context, depth, chain, limits)]
        stop = threading.Event()
        snapshot = type(context)(context)

        def work(step: model.Step) -> Outcome:
            if stop.is_set() or self.interrupted.is_set():
                reason = "the run was interrupted" if self.interrupted.is_set() \
                    else "another step of its parallel group failed"
                return self._finish(_not_run(step, reason), recipe, depth)
            outcome = self._step(step, recipe, snapshot, depth, chain, limits)
            if outcome.result.status == model.FAILED and not step.continue_on_error:
                stop.set()
            return outcome

        pool = ThreadPoolExecutor(max_workers=min(len(batch), self.options.max_parallel),
                                  thread_name_prefix="dp-step")
        try:
            outcomes = list(pool.map(work, batch))
        except BaseException:
            # Ctrl-C: start nothing more, end the steps already running (their
            # process groups get SIGTERM, then SIGKILL) and wait for that.
            self.interrupted.set()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown()
        return outcomes

    # --- one step -------------------------------------------------------------

    def _step(self, step: model.Step, recipe: model.Recipe, context: dict, depth: int,
              chain: list[str], limits: tuple[int, int]) -> Outcome:
        result = model.StepResult(step.id, step.type)
        result.values_as_code = step.values_as_code
        try:
            skip_reason = self._skip_reason(step, context)
        except StepFailed as exc:
            result.status, result.error = model.FAILED, str(exc)
            return self._finish(result, recipe, depth)
        if skip_reason:
            result.status, result.reason = model.SKIPPED, skip_reason
            return self._finish(result, recipe, depth)
        call = Call(step, recipe, context, depth, chain, limits, result)
        if self.options.dry_run:
            return self._plan(call)

        with self.lock:
            self.total_steps += 1
            over_limit = self.total_steps > limits[1]
        self.options.listener.step_started(step, depth)
        result.status = model.RUNNING
        if over_limit:
            result.status = model.FAILED
            result.error = (f"total step limit reached: recipe runs may execute at most "
                            f"{limits[1]} steps (recursion.max_total_steps)")
            return self._finish(result, recipe, depth)
        self._hook("pre_step", call)
        started = time.monotonic()
        self._run(call)
        result.duration_ms = int((time.monotonic() - started) * 1000)
        self._hook("post_step" if result.ok else "on_error", call)
        return self._finish(result, recipe, depth, call.updates)

    def _run(self, call: Call) -> None:
        """The step's type runs it; a StepFailed or DpError marks it failed."""
        result = call.result
        try:
            steps.get(call.step.type).run(self, call)
            if result.status == model.RUNNING:
                result.status = model.COMPLETED
        except StepFailed as exc:
            result.status, result.error = model.FAILED, str(exc)
            if exc.output is not None:
                result.output = exc.output
                call.updates.setdefault(call.step.output_key, jsonout.parse_output(exc.output))
        except DpError as exc:
            result.status, result.error = model.FAILED, exc.message

    def _plan(self, call: Call) -> Outcome:
        """Render what the step would run, without running anything."""
        result = call.result
        result.status = model.PENDING
        try:
            result.rendered = steps.get(call.step.type).plan(self, call)
        except (StepFailed, DpError) as exc:
            result.status, result.error = model.FAILED, str(exc)
        return self._finish(result, call.recipe, call.depth)

    def _skip_reason(self, step: model.Step, context: dict) -> str | None:
        """Why the step does not run, or None to run it; StepFailed for a broken condition."""
        tags = set(step.when_tags)
        if tags and not tags & self.options.include_tags:
            return f"tags {', '.join(step.when_tags)} not included (--include-tags)"
        if tags & self.options.exclude_tags:
            return f"tag {', '.join(sorted(tags & self.options.exclude_tags))} excluded"
        if step.condition:
            try:
                holds = conditions.evaluate(step.condition, context)
            except conditions.ConditionError as exc:
                raise StepFailed(f"condition error: {exc}") from None
            if not holds:
                unknown = " (dry run: earlier steps' outputs are unknown)" \
                    if self.options.dry_run else ""
                return f"condition is false: {step.condition}{unknown}"
        return None

    def _finish(self, result: model.StepResult, recipe: model.Recipe, depth: int,
                updates: dict | None = None) -> Outcome:
        for warning in result.warnings:
            self.options.listener.warning(warning)
        if self.audit is not None:
            self.audit.write(recipe.name, depth, result)
        self.options.listener.step_finished(result, depth)
        return Outcome(result, updates)

    def _hook(self, name: str, call: Call) -> None:
        """Run a hook; its failure is a warning, never the step's failure."""
        recipe, step, result = call.recipe, call.step, call.result
        command = recipe.hooks.get(name)
        if not command:
            return
        variables = {**call.context, "step_id": step.id, "step_type": step.type,
                     "step_status": result.status, "step_error": result.error or "",
                     "recipe_name": recipe.name}
        try:
            rendered = render_shell(command, variables, result, f"hook {name}")
            process = run_shell(rendered, self.options.project_dir, HOOK_TIMEOUT,
                                {"DP_RECIPE": recipe.name, "DP_STEP_ID": step.id},
                                self.interrupted)
        except (StepFailed, DpError) as exc:
            result.warnings.append(f"hook {name} for step '{step.id}' could not run: {exc}")
            return
        if process.output.strip():
            self.options.listener.hook_output(name, step.id, process.output)
        if process.exit_code != 0:
            reason = "timed out" if process.timed_out else f"exited with {process.exit_code}"
            result.warnings.append(f"hook {name} for step '{step.id}' {reason}")


def _not_run(step: model.Step, reason: str) -> model.StepResult:
    result = model.StepResult(step.id, step.type, model.PENDING)
    result.reason = f"not run: {reason}"
    return result
