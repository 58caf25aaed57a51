"""The tool names Claude Code has, so dp can tell a real tool from a hallucinated one.

From the Claude Code tools reference (code.claude.com/docs/en/tools-reference):
these names are the exact strings used in permission rules, hook matchers and
the ``tool_name`` of a PreToolUse payload. MCP tools are named
``mcp__<server>__<tool>`` and are always possible.
"""

BUILTIN_TOOLS = frozenset(
    {
        "Agent",
        "Artifact",
        "AskUserQuestion",
        "Bash",
        "CronCreate",
        "CronDelete",
        "CronList",
        "Edit",
        "EnterPlanMode",
        "EnterWorktree",
        "ExitPlanMode",
        "ExitWorktree",
        "Glob",
        "Grep",
        "ListMcpResourcesTool",
        "LSP",
        "Monitor",
        "NotebookEdit",
        "PowerShell",
        "Read",
        "ReadMcpResourceTool",
        "SendMessage",
        "Skill",
        "TaskCreate",
        "TaskGet",
        "TaskList",
        "TaskOutput",
        "TaskStop",
        "TaskUpdate",
        "TeamCreate",
        "TeamDelete",
        "TodoWrite",
        "ToolSearch",
        "WebFetch",
        "WebSearch",
        "Write",
    }
)

# Names older Claude Code releases used, with what replaced them. Rules for
# them fire only on outdated installations.
RETIRED_TOOLS = {
    "Task": "Agent",
    "MultiEdit": "Edit",
    "LS": "Glob",
    "NotebookRead": "Read",
    "TodoRead": "TodoWrite",
    "BashOutput": "TaskOutput",
    "KillShell": "TaskStop",
    "SlashCommand": "Skill",
}

# String parameters of the tools people write --tool/--param rules for.
TOOL_PARAMS = {
    "Bash": ("command", "description"),
    "Read": ("file_path", "pages"),
    "Write": ("file_path", "content"),
    "Edit": ("file_path", "old_string", "new_string"),
    "Glob": ("pattern", "path"),
    "Grep": ("pattern", "path", "glob", "type", "output_mode"),
    "NotebookEdit": ("notebook_path", "cell_id", "new_source", "cell_type", "edit_mode"),
    "WebFetch": ("url", "prompt"),
    "WebSearch": ("query",),
}

MCP_PREFIX = "mcp__"


def is_builtin(name: str) -> bool:
    return name in BUILTIN_TOOLS


def is_possible_tool(name: str) -> bool:
    """A name a tool call can carry: a built-in tool or an MCP tool."""
    return name in BUILTIN_TOOLS or (name.startswith(MCP_PREFIX) and len(name) > len(MCP_PREFIX))

# Parameters a call cannot do without, and the other (non-string) ones, so that
# a hallucinated call's input can be checked against a real tool's schema.
REQUIRED_PARAMS = {
    "Bash": ("command",),
    "Read": ("file_path",),
    "Write": ("file_path", "content"),
    "Edit": ("file_path", "old_string", "new_string"),
    "Glob": ("pattern",),
    "Grep": ("pattern",),
    "NotebookEdit": ("notebook_path", "new_source"),
    "WebFetch": ("url", "prompt"),
    "WebSearch": ("query",),
}
OTHER_PARAMS = {
    "Bash": ("timeout", "run_in_background", "dangerouslyDisableSandbox"),
    "Read": ("offset", "limit"),
    "Edit": ("replace_all",),
    "Grep": ("-i", "-n", "-A", "-B", "-C", "multiline", "head_limit", "offset"),
    "WebSearch": ("allowed_domains", "blocked_domains"),
}


# Argument names models write for a built-in tool's parameter (``path`` for
# Read's ``file_path``): dp's similarity scoring reads them, and the mod renames
# a fixed call's keys with them (``argument_renames``).
KEY_SYNONYMS = {
    "path": "file_path", "file": "file_path", "filename": "file_path", "filepath": "file_path", "file_name": "file_path",
    "target_file": "file_path", "absolute_path": "file_path", "cmd": "command", "script": "command",
    "shell_command": "command", "query": "pattern", "regex": "pattern", "search": "pattern", "text": "content",
    "contents": "content", "data": "content", "body": "content", "uri": "url", "link": "url", "directory": "path",
    "dir": "path", "glob": "pattern", "old": "old_string", "new": "new_string", "old_str": "old_string",
    "new_str": "new_string", "search_term": "pattern",
}


def tool_params(name: str) -> frozenset:
    """Every parameter dp knows of the built-in tool ``name``."""
    return frozenset(TOOL_PARAMS.get(name, ()) + REQUIRED_PARAMS.get(name, ()) + OTHER_PARAMS.get(name, ()))


def argument_renames(tool: str) -> dict[str, str]:
    """``{model's key: tool's parameter}`` for a call that runs as ``tool``: every synonym of one
    of its parameters that is not itself a parameter of it (Glob keeps its own ``path``)."""
    params = tool_params(tool)
    return {key: param for key, param in KEY_SYNONYMS.items() if param in params and key not in params}
