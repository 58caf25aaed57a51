"""The tools ``dp mcp`` offers: names, descriptions and input schemas, as plain data.

They ride along in every model request, so they are short (all of them
together stay under 2,000 tokens, ~8,000 characters; a test holds them to it)
and this module imports nothing: ``dp doctor`` and the tests read it without
the MCP SDK.
"""

from __future__ import annotations

from dp.project.makefiles import LANGUAGES

_STRING = {"type": "string"}


def _tool(name: str, description: str, properties: dict, required=(), **annotations) -> dict:
    """One tool as MCP lists it (annotations are MCP's hints, e.g. destructiveHint)."""
    schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    tool = {"name": name, "description": description, "inputSchema": schema}
    if annotations:
        tool["annotations"] = annotations
    return tool


def _described(kind: str, text: str) -> dict:
    return {"type": kind, "description": text}


_CWD = _described("string", "Directory relative to the project root.")

TOOLS = (
    _tool(
        "project_recipe",
        "Run a project task by name with the runner the project uses (npm/pnpm/yarn/bun "
        "scripts, cargo, pdm/poetry/uv, make, just, task). The first word of op must be a "
        "task the project defines (see available_tasks or the tasks tool): an unknown op is "
        "refused, never guessed or passed to another runner. Returns runner, command, stdout "
        "(stdout+stderr merged), stderr (\"\"), exit_code, timed_out (300 s), available_tasks.",
        {"op": _described("string", 'Task and arguments, e.g. "test" or "build --release".'), "cwd": _CWD},
        required=["op"],
    ),
    _tool(
        "run_script",
        "Run a package.json script with the project's package manager (packageManager field, "
        "else lockfile: bun, pnpm, yarn, npm) from the workspace root. Node projects only. "
        "Returns combined stdout+stderr ending in a line `exit: N`.",
        {
            "name": _described("string", "Script name from package.json#scripts."),
            "timeout": _described("number", "Seconds (default 300, at most 1800)."),
        },
        required=["name"],
    ),
    _tool(
        "project_actions",
        "Makefile targets and git in one working directory of the project (yours and writable). action: list (.PHONY targets), run (`make TARGET`, a "
        ".PHONY target), add (`git add` of paths inside the directory), commit (message via "
        "stdin, 16 KB max), generate (starter Makefile; pick the language from the project's "
        "files, one per Makefile). dry_run shows the exact command and runs nothing.",
        {
            "action": {"enum": ["list", "run", "add", "commit", "generate"]},
            "target": _STRING,
            "paths": {"type": "array", "items": _STRING},
            "message": _STRING,
            "language": {"enum": list(LANGUAGES)},
            "working_directory": _described("string", "Inside the project; default: its root."),
            "dry_run": {"type": "boolean"},
        },
        required=["action"],
        destructiveHint=True,
    ),
    _tool(
        "recipe",
        "Multi-step YAML recipes of this project (./recipes, ./.dp/recipes). action: list, "
        "validate, or run (context values in set; dry_run renders every step and runs "
        "nothing). Returns the per-step results as JSON (id, type, status, output, error, "
        "duration_ms). Agent steps run only if the server was started with --allow-agent-steps.",
        {
            "action": {"enum": ["list", "validate", "run"]},
            "recipe": _described("string", "Recipe name or file inside the project."),
            "set": _described("object", "Context values."),
            "dry_run": {"type": "boolean"},
        },
        required=["action"],
    ),
    _tool(
        "tasks",
        "List the project's runners and tasks (what project_recipe can run): each runner, why "
        "it was chosen, its tasks with their commands, and available_tasks.",
        {"cwd": _CWD},
        readOnlyHint=True,
    ),
)

TOOL_NAMES = tuple(tool["name"] for tool in TOOLS)
