"""``task`` steps: a project task found by dp's runner detection, as ``dp run`` finds it.

``task: "test -k fast"`` is split into words like a shell would (each word
may hold ``{{values}}``, rendered as text: no shell parses them), and the
first word names the task of the runner detected in the working directory.
"""

from __future__ import annotations

import shlex

from dp.recipes.steps.base import (
    TEXT, Call, StepFailed, StepType, checked, render_text, store_output, timeout, working_dir,
)


class TaskStep(StepType):
    name = "task"
    required = "task"
    keys = {"task": TEXT}
    implied_by = ("task",)
    precedence = 30

    def validate(self, fields, label, problems, warnings) -> None:
        if fields.get("task"):
            try:
                shlex.split(fields["task"])
            except ValueError as exc:
                problems.append(f"{label}: 'task' cannot be split into words: {exc}")

    def run(self, frame, call: Call) -> None:
        from dp.process import run_process

        resolved = _resolve(frame, call)
        process = run_process(resolved.argv, cwd=resolved.cwd, timeout=timeout(call.step),
                              cancel=frame.interrupted, on_output=frame.streamer(call.step))
        store_output(call, checked(process, timeout(call.step)))

    def plan(self, frame, call: Call) -> str:
        resolved = _resolve(frame, call)
        return f"task {shlex.join(resolved.argv)} (in {resolved.cwd})"


def _resolve(frame, call: Call):
    """The project task the step names, found by dp's runner detection (``dp run``)."""
    from dp import runners

    step = call.step
    words = [render_text(word, call.context, call.result, f"step '{step.id}' task")
             for word in shlex.split(step.task)]
    if not words:
        raise StepFailed("task is empty")
    cwd = working_dir(frame.options.project_dir, call)
    return runners.resolve(runners.detect(cwd), words[0], words[1:])
