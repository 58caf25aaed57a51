"""``recipe`` (seed 001): list, validate and run the project's YAML recipes.

The run is ``dp recipe run``'s engine (``dp.recipes.runner``) with the
request's cancel switch as its interrupt, so a cancelled call ends the
running steps' process groups; the result is the per-step JSON that
``dp recipe run --output-format json`` prints, with long step outputs cut.
Agent steps start another coding agent: only a server started with
``--allow-agent-steps`` runs them.
"""

from __future__ import annotations

from pathlib import Path

from dp.errors import DpError
from dp.mcp.job import Job, ToolRefusal, clip_text
from dp.mcp.project_tools import Context, optional_string
from dp.paths import confined
from dp.recipes.agents import AgentAdapter
from dp.recipes.runner import Listener

ACTIONS = ("list", "validate", "run")
# A step's output in the result beyond this is cut from the front, with a note.
STEP_OUTPUT_LIMIT = 8_000


def recipe(args: dict, context: Context, job: Job):
    from dp.recipes import discovery, parser

    action = args.get("action")
    if action not in ACTIONS:
        raise ToolRefusal(f"action must be one of {', '.join(ACTIONS)}")
    roots = discovery.search_roots(context.root, [])
    if action == "list":
        return {"recipes": parser.catalogue(roots)}
    name = optional_string(args, "recipe")
    if name is None:
        raise ToolRefusal(f"{action} needs recipe: a recipe name (action list shows them) or a file in the project")
    try:
        loaded = parser.load_recipe(_recipe_path(name, roots, context.root), roots)
    except DpError as exc:
        raise ToolRefusal(exc.message) from None
    if action == "validate":
        return {"valid": True, "name": loaded.name, "path": str(loaded.path),
                "steps": len(loaded.steps), "warnings": loaded.warnings}
    return _run(loaded, args, context, job)


def _recipe_path(name: str, roots, root: Path) -> Path:
    """The recipe ``name`` means; a file must lie inside the project (symlinks resolved)."""
    from dp.recipes import parser

    path = confined(parser.resolve_recipe_argument(name, roots, root), root)
    if path is None:
        raise ToolRefusal(f"recipe {name} is outside the project {root}; name a recipe inside it")
    return path


def _run(loaded, args: dict, context: Context, job: Job) -> dict:
    from dp.recipes import agents, runner

    values = args.get("set") or {}
    if not isinstance(values, dict):
        raise ToolRefusal("set must be an object of context values, e.g. {\"target\": \"release\"}")
    adapter = agents.PromptCliAdapter() if context.allow_agent_steps else _NoAgentSteps()
    options = runner.RunOptions(
        context.root,
        adapter=adapter,
        dry_run=bool(args.get("dry_run")),
        listener=_Progress(job),
        cancel=job.cancel,
    )
    result = runner.run_recipe(loaded, options, values).to_dict()
    _clip_outputs(result["steps"])
    return result


def _clip_outputs(steps: list) -> None:
    for step in steps:
        step["output"] = clip_text(step.get("output"), STEP_OUTPUT_LIMIT)
        _clip_outputs(step.get("steps", []))


class _NoAgentSteps(AgentAdapter):
    """The agent adapter of a server started without ``--allow-agent-steps``: every agent step fails."""

    def run(self, request):
        raise DpError(
            "agent steps are off in this MCP server (they would start another agent); "
            "the user can start it with `dp mcp --allow-agent-steps`"
        )


class _Progress(Listener):
    """Step starts and ends as the call's progress messages."""

    def __init__(self, job: Job):
        self.job = job
        self.done = 0

    def step_started(self, step, depth):
        self.job.note(f"step {step.id} [{step.type}] running")

    def step_finished(self, result, depth):
        self.done += 1
        self.job.note(f"step {result.step_id}: {result.status} ({self.done} finished)")
