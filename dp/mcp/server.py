"""``dp mcp``: dp's project tools over MCP (stdio), with the official Python SDK.

This is the only module that imports the SDK (``mcp``), and only ``dp mcp``
imports it, so neither the hook nor ``dp --help`` pays for it. Each call runs
its tool on a worker thread; meanwhile the event loop sends progress
notifications (for clients that asked for them, with a progress token) and,
when the client cancels the request or goes away, sets the job's cancel
switch, which ends the child's whole process group, and waits for that
before giving up the request.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import anyio
import mcp.types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from dp import __version__
from dp.mcp import actions, project_tools, recipe_tool
from dp.mcp.job import InvalidParams, Job, ToolRefusal
from dp.mcp.tools import TOOLS

HANDLERS = {
    "project_recipe": project_tools.project_recipe,
    "run_script": project_tools.run_script,
    "project_actions": actions.project_actions,
    "recipe": recipe_tool.recipe,
    "tasks": project_tools.tasks,
}
# How often the loop looks at a running job; a progress notification goes out
# when something happened, and at least every HEARTBEAT seconds.
POLL_SECONDS = 0.1
HEARTBEAT_SECONDS = 2.0

INSTRUCTIONS = (
    "dp runs this project's own tasks, scripts, Makefile targets, guarded git and YAML recipes. "
    "Call tasks first to see what exists."
)


def serve(root: Path, allow_agent_steps: bool = False) -> None:
    """Serve on stdin/stdout until the client closes the connection."""
    context = project_tools.Context(root, allow_agent_steps)
    server = build_server(context)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


def build_server(context: project_tools.Context) -> Server:
    tools = [types.Tool.model_validate(tool) for tool in TOOLS]

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        handler = HANDLERS.get(params.name)
        if handler is None:
            raise MCPError(types.INVALID_PARAMS, f"unknown tool {params.name!r}; tools: {', '.join(HANDLERS)}")
        job = Job()
        try:
            value = await _run_job(ctx, job, lambda: handler(dict(params.arguments or {}), context, job))
        except InvalidParams as exc:
            raise MCPError(types.INVALID_PARAMS, str(exc)) from None
        except ToolRefusal as exc:
            return types.CallToolResult(content=[_text(str(exc))], is_error=True)
        return _result(value)

    return Server(
        "dp",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _result(value) -> types.CallToolResult:
    """A handler's dict (sent as JSON text and as structured content), or (text, dict)."""
    if isinstance(value, tuple):
        text, structured = value
    else:
        text, structured = json.dumps(value, indent=2, ensure_ascii=False), value
    return types.CallToolResult(content=[_text(text)], structured_content=structured)


def _text(text: str) -> types.TextContent:
    return types.TextContent(type="text", text=text)


async def _run_job(ctx, job: Job, work):
    """Run ``work`` on a thread; report progress; on cancellation stop it and wait for it."""
    outcome: dict = {}

    def target() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:  # handed to the event loop below
            outcome["error"] = exc

    thread = threading.Thread(target=target, name="dp-mcp-tool", daemon=True)
    thread.start()
    reported = (0, 0.0)  # the first notification: on the first news, or after a heartbeat
    try:
        while thread.is_alive():
            reported = await _report(ctx, job, reported)
            await anyio.sleep(POLL_SECONDS)
    except anyio.get_cancelled_exc_class():
        job.cancel.set()  # the child's process group gets SIGTERM, then SIGKILL
        with anyio.CancelScope(shield=True):
            while thread.is_alive():
                await anyio.sleep(POLL_SECONDS)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


async def _report(ctx, job: Job, reported: tuple[int, float]) -> tuple[int, float]:
    version, elapsed, message = job.progress()
    if version == reported[0] and elapsed - reported[1] < HEARTBEAT_SECONDS:
        return reported
    await ctx.session.report_progress(round(elapsed, 3), job.total, f"{elapsed:.0f} s: {message}")
    return version, elapsed
