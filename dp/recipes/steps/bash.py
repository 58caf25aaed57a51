"""``bash`` steps: a script whose ``{{values}}`` reach bash through the environment.

The script is rendered by ``dp.recipes.templates.render_shell``: each
placeholder becomes a ``"${DP_VAR_…}"`` reference fitted to its quoting
context, so what a value holds is never parsed as code by bash. A value a
program would run as code (``sh -c {{v}}``, ``eval``, ``python3 -c`` …:
``dp.shell.sinks``) is refused when the recipe is read, unless the step
says ``values_as_code: true`` — its author's visible opt-in, for values
they wrote themselves (``--set``), shown by ``dp recipe explain`` and in the
audit log. Values too large for one environment string travel through a
file instead. Recipe hooks run through ``run_shell`` too, with no opt-in.
"""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path

from dp.recipes import templates
from dp.recipes.steps.base import FLAG, TEXT, Call, StepType, checked, render_shell, store_output, timeout, working_dir

# Values larger than this reach bash through a file: one environment string
# is capped at 128 KiB on Linux.
MAX_ENV_VALUE_BYTES = 64 * 1024

class BashStep(StepType):
    name = "bash"
    required = "command"
    keys = {"command": TEXT, "values_as_code": FLAG}

    def validate(self, fields, label, problems, warnings) -> None:
        if fields.get("command"):
            check_shell_template(fields["command"], f"{label}: 'command'", problems, warnings,
                                 code_allowed=bool(fields.get("values_as_code")))

    def run(self, frame, call: Call) -> None:
        step = call.step
        rendered = render_shell(step.command or "", call.context, call.result, call.where, step.values_as_code)
        cwd = working_dir(frame.options.project_dir, call)
        process = run_shell(rendered, cwd, timeout(step),
                            {"DP_RECIPE": call.recipe.name, "DP_STEP_ID": step.id,
                             "DP_PROJECT_DIR": str(frame.options.project_dir)},
                            frame.interrupted, on_output=frame.streamer(step))
        store_output(call, checked(process, timeout(step)))

    def plan(self, frame, call: Call) -> str:
        step = call.step
        return render_shell(step.command or "", call.context, call.result, call.where, step.values_as_code).display()


def check_shell_template(command: str, label: str, problems: list[str], warnings: list[str],
                         code_allowed: bool = False) -> None:
    """Validation of a script template (a bash step's command, a hook): every refused placeholder."""
    try:
        templates.render_shell(command, None, code_allowed=code_allowed, opt_in=bool(label.startswith("step")))
    except templates.TemplateError as exc:
        problems.extend(f"{label}: {line}" for line in exc.message.splitlines())
    else:
        if code_allowed and templates.code_sinks(command):
            warnings.append(f"{label}: values_as_code: its values run as code where placed "
                            f"({', '.join(templates.code_sinks(command))}); give it only values you wrote")


def run_shell(rendered: templates.Rendered, cwd: Path, timeout: float, extra_env: dict,
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
