"""The interface every step type implements, and the tools step modules share.

A step type says which YAML keys are its own (``keys``, with how each is
checked), which one it cannot do without (``required``), which keys make an
untyped step one of its kind (``implied_by``), and then how to check its
values (``validate``), run (``run``) and describe a dry run (``plan``). The
execution frame (``dp.recipes.frame``) does everything around that: tags,
conditions, limits, hooks, the audit log, parallel groups.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dp.paths import confined
from dp.recipes import jsonout, model, templates

DEFAULT_STEP_TIMEOUT = 3600.0

# How a step type's own key is checked when the recipe is read.
TEXT = "text"  # non-empty text
FLAG = "flag"  # true or false
VARIABLES = "variables"  # a mapping of variable names to values


class StepFailed(Exception):
    """Ends a step as failed with this message (and whatever output it had)."""

    def __init__(self, message: str, output: str | None = None):
        super().__init__(message)
        self.output = output


@dataclass(slots=True, eq=False)  # one object per run: identity, not field equality
class Call:
    """One step being run: where it sits, what it sees, and what it produces.

    ``updates`` is what the step adds to the context once its batch is done.
    """

    step: model.Step
    recipe: model.Recipe
    context: dict
    depth: int
    chain: list[str]
    limits: tuple[int, int]
    result: model.StepResult
    updates: dict[str, Any] = field(default_factory=dict, init=False)

    @property
    def where(self) -> str:
        """How warnings and errors name the step."""
        return f"step '{self.step.id}'"


class StepType:
    """One kind of step. Subclasses set the class attributes and implement ``run`` and ``plan``."""

    name = ""
    required = ""  # the key a step of this type cannot do without
    keys: dict[str, str] = {}  # the keys only this type reads, with how each is checked
    implied_by: tuple[str, ...] = ()  # keys that make a step without 'type' this type
    precedence = 100  # lower wins when an untyped step has keys of several types

    def implied(self, raw: dict) -> bool:
        """Whether an untyped step with these keys is of this type."""
        return any(key in raw for key in self.implied_by)

    def validate(self, fields: dict[str, Any], label: str, problems: list[str],
                 warnings: list[str]) -> None:
        """Check the type's own values (the generic checks have passed); append what is wrong."""

    def run(self, frame, call: Call) -> None:
        """Run the step: set ``call.result.output`` and ``call.updates``, or raise StepFailed."""
        raise NotImplementedError

    def plan(self, frame, call: Call) -> str:
        """A dry run: what the step would run, rendered, without running anything."""
        raise NotImplementedError


def store_output(call: Call, output: str, retry: Callable[[], str] | None = None) -> None:
    """Record a step's text output and what its output variable receives.

    With ``parse_json`` the variable gets the JSON found in the output;
    ``retry`` (an agent) gets one more chance asked for JSON only.
    """
    step, result = call.step, call.result
    text = output.strip()
    result.output = text
    if not step.parse_json:
        call.updates[step.output_key] = jsonout.parse_output(text)
        return
    found, value = jsonout.extract_json(text)
    if not found and retry is not None:
        result.warnings.append(f"step '{step.id}': output is not JSON; asking the agent again")
        text = retry().strip()
        result.output = text
        found, value = jsonout.extract_json(text)
    if found:
        call.updates[step.output_key] = value
        return
    if step.parse_json_required:
        raise StepFailed("output is not JSON (parse_json_required)", output=text)
    result.status = model.DEGRADED
    result.reason = "output is not JSON; stored as text"
    call.updates[step.output_key] = text


def checked(process, timeout: float | None) -> str:
    """The output of a finished process, or StepFailed saying how it ended."""
    if process.timed_out:
        raise StepFailed(f"timed out after {timeout:g}s (process group terminated)",
                         output=process.output.strip())
    if process.exit_code != 0:
        last = next((line for line in reversed(process.output.strip().splitlines()) if line), "")
        detail = f": {last[:200]}" if last else ""
        raise StepFailed(f"exit code {process.exit_code}{detail}", output=process.output.strip())
    return process.output


def timeout(step: model.Step) -> float:
    return float(step.timeout) if step.timeout else DEFAULT_STEP_TIMEOUT


def render_shell(template: str, context: dict, result: model.StepResult,
                 where: str, code_allowed: bool = False) -> templates.Rendered:
    """A bash script for ``template`` (values in the environment); StepFailed when unsafe."""
    try:
        return templates.render_shell(template, context, code_allowed=code_allowed)
    except templates.TemplateError as exc:
        raise StepFailed(_in(where, exc)) from None


def render_text(template: str, context: dict, result: model.StepResult, where: str) -> str:
    try:
        return templates.render_text(template, context).text
    except templates.TemplateError as exc:
        raise StepFailed(_in(where, exc)) from None


def _in(where: str, exc) -> str:
    """A template's error lines, each saying which template of the step it is in."""
    return "\n".join(f"{where}: {line}" for line in exc.message.splitlines())


def working_dir(root: Path, call: Call) -> Path:
    """The step's working_dir, rendered and confined to the project directory ``root``."""
    step = call.step
    if not step.working_dir:
        return root
    text = render_text(step.working_dir, call.context, call.result, f"step '{step.id}' working_dir")
    path = confined(root / text, root)
    if path is None:
        raise StepFailed(f"working_dir '{text}' is outside the project directory {root}")
    if not path.is_dir():
        raise StepFailed(f"working_dir '{text}' is not a directory")
    return path
