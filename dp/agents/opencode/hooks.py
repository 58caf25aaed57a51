"""OpenCode's install side: no hook entries, a plugin file (its "install" role, ``install.py``) that asks
dp on every call, sending the small JSON ``dp/agents/opencode/wire.py`` describes.
"""

from dp.agents import base
from dp.agents.base import Decision
from dp.agents.hookbase import Hooks
from dp.agents.opencode.wire import BEFORE, INVALID_TOOL, UNAVAILABLE


class OpenCodeHooks(Hooks):
    bench_start, bench_after = "door", 0  # the plugin decides in-process, captures in-process
    bench_label = "OpenCode (plugin, front door)"
    def sample_payload(self, tool: str, tool_input: dict, cwd) -> dict:
        """As the plugin sends it; a tool OpenCode does not have arrives as its ``invalid`` tool."""
        args = tool_input
        agent = self.agent
        if not agent.is_own_tool(tool):
            tools = ", ".join(sorted(agent.tool_names))
            tool, args = INVALID_TOOL, {"tool": tool, "error": f"{UNAVAILABLE} '{tool}'. Available tools: {tools}."}
        return {"hook_event_name": BEFORE, "tool": tool, "args": args, "session_id": "ses_dp_sample",
                "call_id": "call_dp_sample", "cwd": str(cwd)}

    def read_answer(self, status: int, stdout: str, stderr: str):
        from dp.agents.answers import json_object

        output = json_object(stdout)
        note = output.get("note")
        note = note if isinstance(note, str) else ""
        if isinstance(output.get("error"), str):
            return Decision(base.DENY, output["error"])
        if isinstance(output.get("args"), dict):
            return Decision(base.REWRITE, note, output["args"])
        return Decision(base.CONTEXT, note) if note else Decision(base.NOTHING)

    def config_path(self, scope: str, home=None, project_dir=None):
        """The plugin file dp installs for ``scope`` (OpenCode has no hook entries to write)."""
        from dp.agents.opencode.install import plugin_path

        return plugin_path(scope, home, project_dir)

    def hook_entries(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> dict:
        return {}  # no settings entries: the plugin asks dp on every call

    def capture_entries(self, capture_command: str) -> dict:
        return {}


HOOKS = OpenCodeHooks()
