"""The tools ``dp mcp`` offers: names, descriptions and input schemas, as plain data.

They ride along in every model request, so they are short (all of them
together stay under 2,000 tokens, ~8,000 characters; a test holds them to it)
and this module imports nothing: ``dp doctor`` and the tests read it without
the MCP SDK.
"""

from __future__ import annotations

from dp.project.makefiles import LANGUAGES

_STRING = {"type": "string"}

TOOLS = (
    {
        "name": "project_recipe",
        "description": (
            "Run a project task by name with the runner the project uses (npm/pnpm/yarn/bun "
            "scripts, cargo, pdm/poetry/uv, make, just, task). The first word of op must be a "
            "task the project defines (see available_tasks or the tasks tool): an unknown op is "
            "refused, never guessed or passed to another runner. Returns runner, command, stdout "
            "(stdout+stderr merged), stderr (\"\"), exit_code, timed_out (300 s), available_tasks."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "op": {"type": "string", "description": 'Task and arguments, e.g. "test" or "build --release".'},
                "cwd": {"type": "string", "description": "Directory relative to the project root."},
            },
            "required": ["op"],
        },
    },
    {
        "name": "run_script",
        "description": (
            "Run a package.json script with the project's package manager (packageManager field, "
            "else lockfile: bun, pnpm, yarn, npm) from the workspace root. Node projects only. "
            "Returns combined stdout+stderr ending in a line `exit: N`."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "Script name from package.json#scripts."},
                "timeout": {"type": "number", "description": "Seconds (default 300, at most 1800)."},
            },
            "required": ["name"],
        },
    },
    {
        "name": "project_actions",
        "description": (
            "Makefile targets and git in one working directory (never / or a system directory; "
            "must be yours and writable). action: list (.PHONY targets), run (`make TARGET`, a "
            ".PHONY target), add (`git add` of paths inside the directory), commit (message via "
            "stdin, 16 KB max), generate (starter Makefile; pick the language from the project's "
            "files, one per Makefile). dry_run shows the exact command and runs nothing."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "action": {"enum": ["list", "run", "add", "commit", "generate"]},
                "target": _STRING,
                "paths": {"type": "array", "items": _STRING},
                "message": _STRING,
                "language": {"enum": list(LANGUAGES)},
                "working_directory": {"type": "string", "description": "Default: the project root."},
                "dry_run": {"type": "boolean"},
            },
            "required": ["action"],
        },
        "annotations": {"destructiveHint": True},
    },
    {
        "name": "recipe",
        "description": (
            "Multi-step YAML recipes of this project (./recipes, ./.dp/recipes). action: list, "
            "validate, or run (context values in set; dry_run renders every step and runs "
            "nothing). Returns the per-step results as JSON (id, type, status, output, error, "
            "duration_ms). Agent steps run only if the server was started with "
            "--allow-agent-steps."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "action": {"enum": ["list", "validate", "run"]},
                "recipe": {"type": "string", "description": "Recipe name or file inside the project."},
                "set": {"type": "object", "description": "Context values."},
                "dry_run": {"type": "boolean"},
            },
            "required": ["action"],
        },
    },
    {
        "name": "tasks",
        "description": (
            "List the project's runners and tasks (what project_recipe can run): each runner, "
            "why it was chosen, its tasks with their commands, and available_tasks."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {"cwd": {"type": "string", "description": "Directory relative to the project root."}},
        },
        "annotations": {"readOnlyHint": True},
    },
)

TOOL_NAMES = tuple(tool["name"] for tool in TOOLS)
