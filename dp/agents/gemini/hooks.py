"""Gemini CLI's install side: ``~/.gemini/settings.json`` or a project's ``.gemini/settings.json``, with
its own answer to read back (``decision``/``reason``, a rewrite as ``hookSpecificOutput.tool_input``).

Why dp needs an ``AfterTool`` entry besides ``BeforeTool`` (the model reads dp's note about a rewrite
only after the result) is in ``dp/agents/gemini/wire.py``.
"""

import json

from dp.agents import base
from dp.agents.base import Decision
from dp.agents.gemini.wire import AFTER_TOOL, BEFORE_TOOL, SESSION_START_HOOK
from dp.agents.hookbase import Hooks

# Gemini's hook timeout is in milliseconds; the same 5 s Claude Code's entries get.
HOOK_TIMEOUT_MS = 5000
CAPTURE_TIMEOUT_MS = 10000


class GeminiCliHooks(Hooks):
    # BeforeTool names the tools rules concern (dp.agents.matchers); AfterTool: pave-check for dp's note, dp-capture
    bench_start, bench_after = "tools", 2
    folder = ".gemini"

    def sample_payload(self, tool: str, tool_input: dict, cwd) -> dict:
        return {
            "session_id": "dp-sample",
            "transcript_path": "",
            "cwd": str(cwd),
            "hook_event_name": BEFORE_TOOL,
            "timestamp": "2026-01-01T00:00:00.000Z",
            "tool_name": tool,
            "tool_input": tool_input,
        }

    def read_answer(self, status: int, stdout: str, stderr: str):
        try:
            output = json.loads(stdout)
        except ValueError:
            output = None
        if not isinstance(output, dict):
            text = (stdout or stderr).strip()  # Gemini reads plain text too: exit 2+ denies with it
            return Decision(base.DENY, text) if status >= 2 and text else Decision(base.NOTHING)
        if output.get("decision") in ("deny", "block", "ask"):
            return Decision(base.ASK if output["decision"] == "ask" else base.DENY, str(output.get("reason") or ""))
        specific = output.get("hookSpecificOutput")
        if isinstance(specific, dict) and isinstance(specific.get("tool_input"), dict):
            return Decision(base.REWRITE, "", specific["tool_input"])
        return Decision(base.NOTHING)

    def hook_entries(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> dict:
        """BeforeTool for the tools dp can act on under ``rules`` (dp.agents.matchers: the shell, the
        tools rules name, the names aliases correct; Gemini searches the matcher in the tool name, so
        dp anchors it), AfterTool for the same tools (dp's note on what it changed), SessionStart for
        the corrections (its matcher is compared with the source as text: only ``*`` means all)."""
        from dp.agents.matchers import anchored, tools

        handler = {"type": "command", "command": hook_command, "timeout": HOOK_TIMEOUT_MS}
        matcher = anchored(tools(self.agent, rules))
        return {
            BEFORE_TOOL: [{"matcher": matcher, "hooks": [dict(handler)]}],
            AFTER_TOOL: [{"matcher": matcher, "hooks": [dict(handler)]}],  # hands over dp's note (see the module docstring)
            SESSION_START_HOOK: [{"matcher": "*", "hooks": [dict(handler)]}],
        }

    def capture_entries(self, capture_command: str) -> dict:
        """AfterTool for every tool: Gemini has no async hooks, so dp-capture is quick and bounded."""
        handler = {"type": "command", "command": capture_command, "timeout": CAPTURE_TIMEOUT_MS}
        return {AFTER_TOOL: [{"matcher": "*", "hooks": [handler]}]}


HOOKS = GeminiCliHooks()
