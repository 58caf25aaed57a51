"""The shapes a recipe takes once parsed, and the results a run produces.

Plain slotted classes rather than dataclass magic so that ``dp recipe`` stays
cheap to import; every field mirrors a YAML key of the recipe format.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

# Step statuses, in the order a step can pass through them.
PENDING = "pending"
RUNNING = "running"
COMPLETED = "completed"
SKIPPED = "skipped"
FAILED = "failed"
DEGRADED = "degraded"  # ran, but its output could not be parsed as the JSON asked for

DEFAULT_MAX_DEPTH = 6
DEFAULT_MAX_TOTAL_STEPS = 200
HOOK_NAMES = ("pre_step", "post_step", "on_error")


def batch(steps: list[Step], start: int) -> list[Step]:
    """The step at ``start`` and the consecutive steps sharing its parallel_group: what runs at once."""
    group = steps[start].parallel_group
    end = start + 1
    while group is not None and end < len(steps) and steps[end].parallel_group == group:
        end += 1
    return steps[start:end]


class Step:
    """One step of a recipe, as written (templates not yet rendered).

    ``type`` names its entry in ``dp.recipes.steps.REGISTRY``; fields a type
    does not read stay None (or false, or empty).
    """

    # Fields that are None unless the YAML sets them, and flags that are false unless it does.
    _OPTIONAL = (
        "command", "agent", "prompt", "recipe", "task", "output", "condition", "mode", "model",
        "working_dir", "timeout", "auto_stage", "parallel_group",
    )
    _FLAGS = ("parse_json", "parse_json_required", "continue_on_error", "values_as_code")
    # In the order ``to_dict`` (``--explain --json``) lists them.
    __slots__ = (
        "id", "type", "command", "agent", "prompt", "recipe", "task", "output", "condition",
        "parse_json", "parse_json_required", "mode", "model", "working_dir", "timeout",
        "auto_stage", "continue_on_error", "when_tags", "parallel_group", "context", "values_as_code",
    )

    command: str | None
    agent: str | None
    prompt: str | None
    recipe: str | None
    task: str | None
    output: str | None
    condition: str | None
    mode: str | None
    model: str | None
    working_dir: str | None
    timeout: float | None
    auto_stage: bool | None
    parallel_group: str | None
    parse_json: bool
    parse_json_required: bool
    continue_on_error: bool
    values_as_code: bool  # the author's opt-in: this step's values may reach a code sink (dp.shell.sinks)

    def __init__(self, id: str, type: str, **fields: Any):
        self.id = id
        self.type = type
        for name in self._OPTIONAL:
            setattr(self, name, fields.get(name))
        for name in self._FLAGS:
            setattr(self, name, bool(fields.get(name, False)))
        self.when_tags: list[str] = list(fields.get("when_tags") or [])
        self.context: dict[str, Any] = dict(fields.get("context") or {})

    @property
    def output_key(self) -> str:
        """The context variable that receives this step's output."""
        return self.output or self.id

    def to_dict(self) -> dict[str, Any]:
        """The step's non-empty fields, for ``--explain --json``."""
        out: dict[str, Any] = {}
        for name in self.__slots__:
            value = getattr(self, name)
            if value not in (None, False, [], {}):
                out[name] = value
        return out


class Recipe:
    """A parsed, validated recipe (any ``extends`` parent is already merged in)."""

    __slots__ = (
        "name", "version", "description", "author", "tags", "context", "steps",
        "max_depth", "max_total_steps", "hooks", "path", "warnings",
    )

    def __init__(self, name: str, steps: list[Step], **fields: Any):
        self.name = name
        self.steps = steps
        self.version: str | None = fields.get("version")
        self.description: str | None = fields.get("description")
        self.author: str | None = fields.get("author")
        self.tags: list[str] = list(fields.get("tags") or [])
        self.context: dict[str, Any] = dict(fields.get("context") or {})
        self.max_depth: int = fields.get("max_depth", DEFAULT_MAX_DEPTH)
        self.max_total_steps: int = fields.get("max_total_steps", DEFAULT_MAX_TOTAL_STEPS)
        self.hooks: dict[str, str] = dict(fields.get("hooks") or {})
        self.path = fields.get("path")
        self.warnings: list[str] = list(fields.get("warnings") or [])


class StepResult:
    """What happened to one step (``children`` holds a sub-recipe's step results)."""

    __slots__ = (
        "step_id", "type", "status", "output", "error", "duration_ms", "warnings",
        "rendered", "children", "tolerated", "reason", "values_as_code",
    )

    def __init__(self, step_id: str, type: str, status: str = PENDING):
        self.step_id = step_id
        self.type = type
        self.status = status
        self.output: str | None = None
        self.error: str | None = None  # why it failed
        self.reason: str | None = None  # why it was skipped or not run
        self.duration_ms = 0
        self.warnings: list[str] = []
        self.rendered: str | None = None  # dry-run: what would run
        self.children: list[StepResult] = []
        self.tolerated = False  # failed, but the step has continue_on_error
        self.values_as_code = False  # the step opted in to values reaching code (the audit log says so)

    @property
    def ok(self) -> bool:
        return self.status != FAILED

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.step_id,
            "type": self.type,
            "status": self.status,
            "output": self.output,
            "error": self.error,
            "duration_ms": self.duration_ms,
        }
        if self.reason:
            out["reason"] = self.reason
        if self.warnings:
            out["warnings"] = self.warnings
        if self.rendered is not None:
            out["rendered"] = self.rendered
        if self.children:
            out["steps"] = [child.to_dict() for child in self.children]
        return out


class RecipeResult:
    """The outcome of one run: per-step results and the final context."""

    __slots__ = ("recipe_name", "success", "steps", "context", "duration_ms", "dry_run",
                 "audit_path")

    def __init__(self, recipe_name: str, steps: list[StepResult], context: dict[str, Any],
                 duration_ms: int, dry_run: bool = False):
        self.recipe_name = recipe_name
        self.steps = steps
        self.context = context
        self.duration_ms = duration_ms
        self.dry_run = dry_run
        self.audit_path: Path | None = None  # the JSONL audit log written, if any
        self.success = all(step.ok or step.tolerated for step in steps)

    def to_dict(self) -> dict[str, Any]:
        return {
            "recipe": self.recipe_name,
            "success": self.success,
            "dry_run": self.dry_run,
            "audit_log": str(self.audit_path) if self.audit_path else None,
            "duration_ms": self.duration_ms,
            "steps": [step.to_dict() for step in self.steps],
            "context": self.context,
        }
