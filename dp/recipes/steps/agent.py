"""``agent`` steps: a prompt for a headless coding agent, through the run's ``AgentAdapter``.

The prompt is rendered as text (no shell reads it); ``agent:`` names an
agent definition whose body becomes the system prompt and whose ``model``
is the default. An agent asked for JSON that answers in prose is asked once
more for JSON only. With a working_dir inside a git work tree, what the
agent changed is staged afterwards (``auto_stage``), so the next step's
``git diff --cached`` sees it.
"""

from __future__ import annotations

import functools
from pathlib import Path

from dp.errors import DpError
from dp.recipes import agents, discovery, model
from dp.recipes.steps.base import (
    FLAG,
    TEXT,
    Call,
    StepFailed,
    StepType,
    checked,
    render_text,
    store_output,
    timeout,
    working_dir,
)

GIT_TIMEOUT = 120.0


class AgentStep(StepType):
    name = "agent"
    required = "prompt"
    keys = {"agent": TEXT, "prompt": TEXT, "mode": TEXT, "model": TEXT, "auto_stage": FLAG}
    implied_by = ("agent", "prompt")
    precedence = 20

    def implied(self, raw: dict) -> bool:
        """As the recipe runner infers it: ``agent``, or a ``prompt`` with no ``command``
        (a step with both is the runner's bash step, its prompt unused)."""
        return "agent" in raw or ("prompt" in raw and "command" not in raw)

    def run(self, frame, call: Call) -> None:
        request = _request(frame, call)
        output = _ask(frame, call, request)
        retry = functools.partial(_ask, frame, call, request, agents.JSON_ONLY_REMINDER)
        store_output(call, output, retry)

    def plan(self, frame, call: Call) -> str:
        request = _request(frame, call)
        return f"agent {request.agent_name or '(no agent definition)'}: {request.prompt}"


def _ask(frame, call: Call, request: agents.AgentRequest, reminder: str = "") -> str:
    if reminder:
        request = request.with_prompt(request.prompt + reminder)
    process = frame.options.adapter.run(request)
    output = checked(process, request.timeout)
    if request.working_dir is not None and frame.options.auto_stage \
            and call.step.auto_stage is not False:
        _stage_all(request.working_dir, call.result)
    return output


def _request(frame, call: Call) -> agents.AgentRequest:
    step = call.step
    prompt = render_text(step.prompt or "", call.context, call.result, f"step '{step.id}' prompt")
    system_prompt, model_name = None, step.model
    if step.agent:
        try:
            path = discovery.resolve_agent(step.agent, frame.options.agent_dirs)
            system_prompt, front = discovery.read_agent_prompt(path)
        except (discovery.AgentNotFound, OSError) as exc:
            raise StepFailed(str(exc)) from None
        model_name = model_name or (front.get("model") if isinstance(front.get("model"), str)
                                    else None)
    cwd = working_dir(frame.options.project_dir, call) if step.working_dir else None
    return agents.AgentRequest(
        prompt, system_prompt=system_prompt, agent_name=step.agent, model=model_name,
        mode=step.mode, working_dir=cwd, timeout=timeout(step), cancel=frame.interrupted,
    )


def _stage_all(directory: Path, result: model.StepResult) -> None:
    """``git add -A`` after an agent step, when the directory is in a git work tree.

    Through ``run_process`` like every other child, so it is bounded by a
    timeout; a missing git or a failure is a warning, not a failed step.
    """
    from dp.process import run_process

    try:
        inside = run_process(["git", "rev-parse", "--is-inside-work-tree"], cwd=directory,
                             timeout=GIT_TIMEOUT)
        if inside.exit_code != 0 or inside.output.strip() != "true":
            return
        staged = run_process(["git", "add", "-A"], cwd=directory, timeout=GIT_TIMEOUT)
    except DpError as exc:
        result.warnings.append(f"auto_stage: {exc.message}")
        return
    if staged.exit_code != 0:
        result.warnings.append(f"auto_stage: git add -A failed: {staged.output.strip()[:200]}")
