"""Executing a recipe: steps in order, parallel groups, sub-recipes, hooks, audit.

Why the context is copied per step: steps of a parallel group run on threads
and must all see the context as it was when the group started; their outputs
are merged back in step order once the whole group is done, so the result
never depends on which thread finished first.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from dp.errors import DpError
from dp.recipes import agents, conditions, discovery, jsonout, model, parser, templates

DEFAULT_STEP_TIMEOUT = 3600.0
HOOK_TIMEOUT = 60.0
GIT_TIMEOUT = 120.0
MAX_PARALLEL = 8
# Values larger than this reach bash through a file: one environment string
# is capped at 128 KiB on Linux.
MAX_ENV_VALUE_BYTES = 64 * 1024


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
                 agent_dirs: Iterable[Path] = (), adapter: Optional[agents.AgentAdapter] = None,
                 dry_run: bool = False, include_tags: Iterable[str] = (),
                 exclude_tags: Iterable[str] = (), audit_dir: Optional[Path] = None,
                 auto_stage: bool = True, listener: Optional[Listener] = None,
                 max_parallel: int = MAX_PARALLEL, cancel: Optional[threading.Event] = None):
        self.project_dir = Path(project_dir).resolve()
        self.recipe_roots = discovery.search_roots(self.project_dir, recipe_dirs)
        self.agent_dirs = discovery.agent_dirs(self.project_dir, agent_dirs)
        self.adapter = adapter or agents.ClaudeCliAdapter()
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
               overrides: Optional[dict[str, Any]] = None) -> model.RecipeResult:
    """Run ``recipe`` with its context plus ``overrides`` (``--set``)."""
    started = time.monotonic()
    run = _Run(recipe, options)
    try:
        results, context = run.execute(
            recipe, {**recipe.context, **(overrides or {})}, depth=0, chain=[recipe.name],
            limits=(recipe.max_depth, recipe.max_total_steps),
        )
    finally:
        run.close()
    result = model.RecipeResult(recipe.name, results, context,
                                int((time.monotonic() - started) * 1000), dry_run=options.dry_run)
    result.audit_path = run.audit.path if run.audit is not None else None
    return result


class _Outcome:
    """A finished step and what it adds to the context."""

    __slots__ = ("result", "updates")

    def __init__(self, result: model.StepResult, updates: Optional[dict] = None):
        self.result = result
        self.updates = updates or {}


class _StepFailed(Exception):
    """Ends a step as failed with this message (and whatever output it had)."""

    def __init__(self, message: str, output: Optional[str] = None):
        super().__init__(message)
        self.output = output


class _Run:
    """State shared by one run and all its sub-recipes: counters, audit log, stop flag."""

    def __init__(self, recipe: model.Recipe, options: RunOptions):
        self.options = options
        self.lock = threading.Lock()
        # Set on Ctrl-C: the main thread gets the KeyboardInterrupt, but steps
        # running on parallel-group threads only learn of it through this.
        self.interrupted = options.cancel if options.cancel is not None else threading.Event()
        self.total_steps = 0
        self.audit = None if options.dry_run or options.audit_dir is None \
            else _AuditLog(options.audit_dir, recipe.name)

    def close(self) -> None:
        if self.audit is not None:
            self.audit.close()

    # --- recipe level -----------------------------------------------------------

    def execute(self, recipe: model.Recipe, context: dict, depth: int, chain: list[str],
                limits: tuple[int, int]) -> tuple[list[model.StepResult], dict]:
        context = dict(context)
        results: list[model.StepResult] = []
        steps = recipe.steps
        index = 0
        failed_step: Optional[str] = None
        while index < len(steps):
            batch = _batch(steps, index)
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
                if outcome.result.status == model.FAILED:
                    if step.continue_on_error:
                        outcome.result.tolerated = True
                    elif failed_step is None and not self.options.dry_run:
                        # A dry run goes on, to show every step it can.
                        failed_step = step.id
        return results, context

    def _run_batch(self, batch: list[model.Step], recipe, context, depth, chain, limits):
        if len(batch) == 1:
            return [self._step(batch[0], recipe, context, depth, chain, limits)]
        stop = threading.Event()
        snapshot = dict(context)

        def work(step: model.Step) -> _Outcome:
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
              chain: list[str], limits: tuple[int, int]) -> _Outcome:
        result = model.StepResult(step.id, step.type)
        try:
            skip_reason = self._skip_reason(step, context)
        except _StepFailed as exc:
            result.status, result.error = model.FAILED, str(exc)
            return self._finish(result, recipe, depth)
        if skip_reason:
            result.status, result.reason = model.SKIPPED, skip_reason
            return self._finish(result, recipe, depth)
        if self.options.dry_run:
            return self._plan(step, result, recipe, context, depth, chain, limits)

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
        self._hook("pre_step", recipe, step, context, result)
        started = time.monotonic()
        outcome = _Outcome(result)
        try:
            self._dispatch(step, recipe, context, depth, chain, limits, outcome)
            if result.status == model.RUNNING:
                result.status = model.COMPLETED
        except _StepFailed as exc:
            result.status, result.error = model.FAILED, str(exc)
            if exc.output is not None:
                result.output = exc.output
                outcome.updates.setdefault(step.output_key, jsonout.parse_output(exc.output))
        except DpError as exc:
            result.status, result.error = model.FAILED, exc.message
        result.duration_ms = int((time.monotonic() - started) * 1000)
        self._hook("post_step" if result.ok else "on_error", recipe, step, context, result)
        return self._finish(result, recipe, depth, outcome.updates)

    def _skip_reason(self, step: model.Step, context: dict) -> Optional[str]:
        """Why the step does not run, or None to run it; _StepFailed for a broken condition."""
        tags = set(step.when_tags)
        if tags and not tags & self.options.include_tags:
            return f"tags {', '.join(step.when_tags)} not included (--include-tags)"
        if tags & self.options.exclude_tags:
            return f"tag {', '.join(sorted(tags & self.options.exclude_tags))} excluded"
        if step.condition:
            try:
                holds = conditions.evaluate(step.condition, context)
            except conditions.ConditionError as exc:
                raise _StepFailed(f"condition error: {exc}") from None
            if not holds:
                unknown = " (dry run: earlier steps' outputs are unknown)" \
                    if self.options.dry_run else ""
                return f"condition is false: {step.condition}{unknown}"
        return None

    def _finish(self, result: model.StepResult, recipe: model.Recipe, depth: int,
                updates: Optional[dict] = None) -> _Outcome:
        for warning in result.warnings:
            self.options.listener.warning(warning)
        if self.audit is not None:
            self.audit.write(recipe.name, depth, result)
        self.options.listener.step_finished(result, depth)
        return _Outcome(result, updates)

    def _dispatch(self, step, recipe, context, depth, chain, limits, outcome: _Outcome) -> None:
        result = outcome.result
        if step.type == model.RECIPE:
            self._sub_recipe(step, recipe, context, depth, chain, limits, outcome)
            return
        retry = None
        if step.type == model.BASH:
            output = self._bash(step, recipe, context, result)
        elif step.type == model.TASK:
            output = self._task(step, context, result)
        else:
            request = self._agent_request(step, context, result)
            output = self._agent(step, request, result)
            retry = functools.partial(self._agent, step, request, result, agents.JSON_ONLY_REMINDER)
        text = output.strip()
        result.output = text
        if step.parse_json:
            value = self._parsed_json(step, result, text, retry)
        else:
            value = jsonout.parse_output(text)
        outcome.updates[step.output_key] = value

    # --- step types -----------------------------------------------------------

    def _bash(self, step: model.Step, recipe: model.Recipe, context: dict,
              result: model.StepResult) -> str:
        rendered = self._render_shell(step.command, context, result, f"step '{step.id}'")
        cwd = self._working_dir(step, context, result)
        process = _run_shell(rendered, cwd, self._timeout(step),
                             {"DP_RECIPE": recipe.name, "DP_STEP_ID": step.id,
                              "DP_PROJECT_DIR": str(self.options.project_dir)}, self.interrupted,
                             on_output=self._streamer(step))
        return _checked(process, self._timeout(step))

    def _task(self, step: model.Step, context: dict, result: model.StepResult) -> str:
        from dp.process import run_process

        resolved = self._resolve_task(step, context, result)
        process = run_process(resolved.argv, cwd=resolved.cwd, timeout=self._timeout(step),
                              cancel=self.interrupted, on_output=self._streamer(step))
        return _checked(process, self._timeout(step))

    def _streamer(self, step: model.Step):
        """Where a step's live output goes: the listener."""
        listener = self.options.listener
        return lambda chunk: listener.step_output(step, chunk)

    def _resolve_task(self, step, context, result):
        """The project task the step names, found by dp's runner detection (``dp run``)."""
        from dp import runners

        words = shlex.split(step.task)
        words = [self._render_text(word, context, result, f"step '{step.id}' task") for word in words]
        if not words:
            raise _StepFailed("task is empty")
        cwd = self._working_dir(step, context, result)
        return runners.resolve(runners.detect(cwd), words[0], words[1:])

    def _agent(self, step: model.Step, request: agents.AgentRequest, result: model.StepResult,
               reminder: str = "") -> str:
        if reminder:
            request = request.with_prompt(request.prompt + reminder)
        process = self.options.adapter.run(request)
        output = _checked(process, request.timeout)
        if request.working_dir is not None and self._stages(step):
            _stage_all(request.working_dir, result)
        return output

    def _agent_request(self, step: model.Step, context: dict,
                       result: model.StepResult) -> agents.AgentRequest:
        prompt = self._render_text(step.prompt, context, result, f"step '{step.id}' prompt")
        system_prompt, model_name = None, step.model
        if step.agent:
            try:
                path = discovery.resolve_agent(step.agent, self.options.agent_dirs)
                system_prompt, front = discovery.read_agent_prompt(path)
            except (discovery.AgentNotFound, OSError) as exc:
                raise _StepFailed(str(exc)) from None
            model_name = model_name or (front.get("model") if isinstance(front.get("model"), str)
                                        else None)
        working_dir = self._working_dir(step, context, result) if step.working_dir else None
        return agents.AgentRequest(
            prompt, system_prompt=system_prompt, agent_name=step.agent, model=model_name,
            mode=step.mode, working_dir=working_dir, timeout=self._timeout(step),
            cancel=self.interrupted,
        )

    def _stages(self, step: model.Step) -> bool:
        return self.options.auto_stage and step.auto_stage is not False

    def _parsed_json(self, step: model.Step, result: model.StepResult, text: str,
                     retry: Optional[Callable[[], str]]) -> Any:
        """The JSON in ``text``; an agent gets one more chance asked for JSON only."""
        found, value = jsonout.extract_json(text)
        if not found and retry is not None:
            result.warnings.append(f"step '{step.id}': output is not JSON; asking the agent again")
            text = retry().strip()
            result.output = text
            found, value = jsonout.extract_json(text)
        if found:
            return value
        if step.parse_json_required:
            raise _StepFailed("output is not JSON (parse_json_required)", output=text)
        result.status = model.DEGRADED
        result.reason = "output is not JSON; stored as text"
        return text

    def _sub_recipe(self, step: model.Step, recipe: model.Recipe, context: dict, depth: int,
                    chain: list[str], limits: tuple[int, int], outcome: _Outcome) -> None:
        child, child_context, child_limits = self._child(step, recipe, context, depth, chain,
                                                         limits, outcome.result)
        results, final = self.execute(child, child_context, depth + 1, chain + [child.name],
                                      child_limits)
        outcome.result.children = results
        outcome.updates.update(final)
        ran = [r for r in results if r.output is not None and r.status != model.SKIPPED]
        outcome.result.output = ran[-1].output if ran else ""
        outcome.updates[step.output_key] = jsonout.parse_output(outcome.result.output)
        path, error = _first_failure(results)
        if path:
            raise _StepFailed(f"sub-recipe '{child.name}' failed at step '{' > '.join(path)}': {error}")

    def _child(self, step, parent, context, depth, chain, limits, result):
        """Load a sub-recipe: -R dirs, ./recipes, ./.dp/recipes, then the parent's directory."""
        max_depth, max_total = limits
        if depth + 1 > max_depth:
            raise _StepFailed(
                f"sub-recipe depth limit {max_depth} reached: "
                f"{' -> '.join(chain + [step.recipe])} (recursion.max_depth)"
            )
        roots = list(self.options.recipe_roots)
        if parent.path is not None and Path(parent.path).parent not in roots:
            roots.append(Path(parent.path).parent)
        path = discovery.find_recipe(step.recipe, roots)
        if path is None:
            raise _StepFailed(
                f"sub-recipe '{step.recipe}' not found in {', '.join(str(root) for root in roots)}"
            )
        try:
            child = parser.load_recipe(path, self.options.recipe_roots)
        except parser.RecipeError as exc:
            raise _StepFailed(f"sub-recipe '{step.recipe}': {exc.message}") from None
        result.warnings += child.warnings
        overrides = {key: self._render_value(value, context, result, f"step '{step.id}' context")
                     for key, value in step.context.items()}
        child_context = {**child.context, **context, **overrides}
        return child, child_context, (min(max_depth, child.max_depth),
                                      min(max_total, child.max_total_steps))

    # --- dry run ----------------------------------------------------------------

    def _plan(self, step, result, recipe, context, depth, chain, limits) -> _Outcome:
        """Render what the step would run, without running anything."""
        result.status = model.PENDING
        try:
            if step.type == model.BASH:
                result.rendered = self._render_shell(
                    step.command, context, result, f"step '{step.id}'").display()
            elif step.type == model.AGENT:
                request = self._agent_request(step, context, result)
                result.rendered = (f"agent {request.agent_name or '(no agent definition)'}: "
                                   f"{request.prompt}")
            elif step.type == model.TASK:
                result.rendered = self._plan_task(step, context, result)
            else:
                child, child_context, child_limits = self._child(step, recipe, context, depth,
                                                                 chain, limits, result)
                result.rendered = f"recipe {child.name} ({child.path})"
                result.children, _ = self.execute(child, child_context, depth + 1,
                                                  chain + [child.name], child_limits)
        except (_StepFailed, DpError) as exc:
            result.status, result.error = model.FAILED, str(exc)
        return self._finish(result, recipe, depth)

    def _plan_task(self, step, context, result) -> str:
        resolved = self._resolve_task(step, context, result)
        return f"task {shlex.join(resolved.argv)} (in {resolved.cwd})"

    # --- shared helpers -------------------------------------------------------------

    def _render_shell(self, template: str, context: dict, result: model.StepResult,
                      where: str) -> templates.Rendered:
        try:
            rendered = templates.render_shell(template, context)
        except templates.TemplateError as exc:
            raise _StepFailed(str(exc)) from None
        result.warnings += rendered.warnings(where)
        return rendered

    def _render_text(self, template: str, context: dict, result: model.StepResult,
                     where: str) -> str:
        rendered = templates.render_text(template, context)
        result.warnings += rendered.warnings(where)
        return rendered.text

    def _render_value(self, value: Any, context: dict, result: model.StepResult, where: str) -> Any:
        """Sub-recipe context overrides: strings are templates, at any depth of nesting.

        A string that is one placeholder and nothing else passes the value
        itself, so ``files: "{{changed}}"`` hands the child a list, not its JSON text.
        """
        if isinstance(value, dict):
            return {key: self._render_value(item, context, result, where)
                    for key, item in value.items()}
        if isinstance(value, list):
            return [self._render_value(item, context, result, where) for item in value]
        if not isinstance(value, str):
            return value
        whole = templates.PLACEHOLDER.fullmatch(value.strip())
        if whole is not None:
            found = templates.lookup(whole.group(1), context)
            if found is not templates.MISSING:
                return found
        return self._render_text(value, context, result, where)

    def _working_dir(self, step: model.Step, context: dict, result: model.StepResult) -> Path:
        root = self.options.project_dir
        if not step.working_dir:
            return root
        text = self._render_text(step.working_dir, context, result, f"step '{step.id}' working_dir")
        path = (root / text).resolve()
        if path != root and root not in path.parents:
            raise _StepFailed(f"working_dir '{text}' is outside the project directory {root}")
        if not path.is_dir():
            raise _StepFailed(f"working_dir '{text}' is not a directory")
        return path

    def _timeout(self, step: model.Step) -> float:
        return float(step.timeout) if step.timeout else DEFAULT_STEP_TIMEOUT

    def _hook(self, name: str, recipe: model.Recipe, step: model.Step, context: dict,
              result: model.StepResult) -> None:
        """Run a hook; its failure is a warning, never the step's failure."""
        command = recipe.hooks.get(name)
        if not command:
            return
        variables = {**context, "step_id": step.id, "step_type": step.type,
                     "step_status": result.status, "step_error": result.error or "",
                     "recipe_name": recipe.name}
        try:
            rendered = self._render_shell(command, variables, result, f"hook {name}")
            process = _run_shell(rendered, self.options.project_dir, HOOK_TIMEOUT,
                                 {"DP_RECIPE": recipe.name, "DP_STEP_ID": step.id},
                                 self.interrupted)
        except (_StepFailed, DpError) as exc:
            result.warnings.append(f"hook {name} for step '{step.id}' could not run: {exc}")
            return
        if process.output.strip():
            self.options.listener.hook_output(name, step.id, process.output)
        if process.exit_code != 0:
            reason = "timed out" if process.timed_out else f"exited with {process.exit_code}"
            result.warnings.append(f"hook {name} for step '{step.id}' {reason}")


def _batch(steps: list[model.Step], start: int) -> list[model.Step]:
    """The step at ``start`` and the consecutive steps sharing its parallel_group."""
    group = steps[start].parallel_group
    end = start + 1
    if group is not None:
        while end < len(steps) and steps[end].parallel_group == group:
            end += 1
    return steps[start:end]


def _first_failure(results: list[model.StepResult]) -> tuple[list[str], Optional[str]]:
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


def _not_run(step: model.Step, reason: str) -> model.StepResult:
    result = model.StepResult(step.id, step.type, model.PENDING)
    result.reason = f"not run: {reason}"
    return result


def _checked(process, timeout: Optional[float]) -> str:
    """The output of a finished process, or _StepFailed saying how it ended."""
    if process.timed_out:
        raise _StepFailed(f"timed out after {timeout:g}s (process group terminated)",
                          output=process.output.strip())
    if process.exit_code != 0:
        last = next((line for line in reversed(process.output.strip().splitlines()) if line), "")
        detail = f": {last[:200]}" if last else ""
        raise _StepFailed(f"exit code {process.exit_code}{detail}", output=process.output.strip())
    return process.output


def _run_shell(rendered: templates.Rendered, cwd: Path, timeout: float, extra_env: dict,
               cancel: threading.Event, on_output=None):
    """``bash -c SCRIPT`` with the template values in the environment (big ones via files)."""
    from dp.process import run_process

    env = {**os.environ, **extra_env}
    large = {name: value for name, value in rendered.env.items()
             if len(value.encode()) > MAX_ENV_VALUE_BYTES}
    env.update({name: value for name, value in rendered.env.items() if name not in large})
    if not large:
        return run_process(["bash", "-c", rendered.text], cwd=cwd, env=env, timeout=timeout,
                           cancel=cancel, on_output=on_output)
    with tempfile.TemporaryDirectory(prefix="dp-values-") as scratch:
        prelude = []
        for name, value in large.items():
            path = Path(scratch) / name
            path.write_text(value, encoding="utf-8")
            env[f"{name}_FILE"] = str(path)
            prelude.append(f'IFS= read -r -d "" {name} < "${{{name}_FILE}}" || true')
        script = "\n".join(prelude + [rendered.text])
        return run_process(["bash", "-c", script], cwd=cwd, env=env, timeout=timeout,
                           cancel=cancel, on_output=on_output)


def _stage_all(directory: Path, result: model.StepResult) -> None:
    """``git add -A`` after an agent step, when the directory is in a git work tree.

    Through ``run_process`` like every other child, so it is bounded by a
    timeout; a missing git or a failure is a warning, not a failed step.
    """
    from dp.process import run_process

    try:
        inside = run_process(["git", "rev-parse", "--is-inside-work-tree"], cwd=directory, timeout=GIT_TIMEOUT)
        if inside.exit_code != 0 or inside.output.strip() != "true":
            return
        staged = run_process(["git", "add", "-A"], cwd=directory, timeout=GIT_TIMEOUT)
    except DpError as exc:
        result.warnings.append(f"auto_stage: {exc.message}")
        return
    if staged.exit_code != 0:
        result.warnings.append(f"auto_stage: git add -A failed: {staged.output.strip()[:200]}")


class _AuditLog:
    """One JSONL file per run, readable only by its owner (outputs may hold secrets)."""

    def __init__(self, directory: Path, recipe_name: str):
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in recipe_name)[:80]
        self.path = directory / f"{safe}_{stamp}.jsonl"
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            raise DpError(f"cannot create audit log {self.path}: {exc.strerror or exc}") from None
        self.handle = os.fdopen(fd, "w", encoding="utf-8")
        self.lock = threading.Lock()

    def write(self, recipe: str, depth: int, result: model.StepResult) -> None:
        entry = {
            "timestamp": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            "recipe": recipe,
            "depth": depth,
            "step_id": result.step_id,
            "type": result.type,
            "status": result.status,
            "duration_ms": result.duration_ms,
            "error": result.error,
            "output_len": len(result.output or ""),
        }
        with self.lock:
            self.handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
            self.handle.flush()

    def close(self) -> None:
        self.handle.close()

