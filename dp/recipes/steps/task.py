"""``task`` steps: a project task found by dp's runner detection, as ``dp run`` finds it.

``task: "test -k fast"`` is split into words like a shell would (each word
may hold ``{{values}}``, rendered as text: no shell parses them), and the
first word names the task of the runner detected in the working directory.

The step then takes ``dp run``'s own path (``dp.project.task``): the
directory must be one dp may act in (never ``/`` or a system directory,
owned and writable by the user), checked before any project file is read
and again when the task's ``Command`` runs, and the process is handled by
``Command.run`` like every project action's, so a recipe cannot run a task
where ``dp run`` would refuse to.
"""

from __future__ import annotations

import shlex

from dp.recipes.steps import base
from dp.recipes.steps.base import TEXT, Call, StepFailed, StepType


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
        from dp.process import DEFAULT_CAPTURE_LIMIT

        command = _command(frame, call)
        process = command.run(echo=False, timeout=base.timeout(call.step), capture_limit=DEFAULT_CAPTURE_LIMIT,
                              cancel=frame.interrupted, on_output=frame.streamer(call.step))
        base.store_output(call, base.checked(process, base.timeout(call.step)))

    def plan(self, frame, call: Call) -> str:
        command = _command(frame, call)
        return f"task {command.shell_line()} (in {command.cwd})"


def _command(frame, call: Call):
    """The checked ``Command`` for the project task the step names, as ``dp run`` plans it."""
    from dp import runners
    from dp.project.task import task_command, task_directory

    step = call.step
    words = [base.render_text(word, call.context, call.result, f"step '{step.id}' task")
             for word in shlex.split(step.task)]
    if not words:
        raise StepFailed("task is empty")
    directory = task_directory(base.working_dir(frame.options.project_dir, call), None)
    return task_command(runners.resolve(runners.detect(directory), words[0], words[1:]))
