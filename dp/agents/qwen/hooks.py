"""Qwen Code's install side: ``~/.qwen/settings.json`` or a project's ``.qwen/settings.json`` (loaded only
in a folder Qwen Code trusts), Claude Code's shape with timeouts in seconds.

Its payloads and answers are Claude Code's, less ``updatedInput`` (``rewrites``): Qwen Code 0.24.4 runs
no rewritten call from a hook, so dp answers a rewrite with a refusal (``dp/agents/qwen/wire.py``).
"""

from dp.agents.hookbase import Hooks
from dp.agents.qwen.wire import POST_TOOL_BATCH, PRE_TOOL_USE, VERSION

ALL_TOOLS = "*"
HOOK_TIMEOUT_SECONDS = 10
CAPTURE_TIMEOUT_SECONDS = 30


class QwenCodeHooks(Hooks):
    # PreToolUse names the tools rules concern (dp.agents.matchers); PostToolUse: pave-check for dp's note, dp-capture
    bench_start, bench_after = "tools", 2
    folder = ".qwen"
    rewrites = False
    install_notes = (f"Qwen Code ({VERSION}) runs no rewritten input from a hook: dp refuses a call it would "
                     "rewrite, with the corrected command, and the model reissues it under Qwen's own approval",
                     "project hooks (.qwen/settings.json) load only in a folder Qwen Code trusts")

    def sample_payload(self, tool: str, tool_input: dict, cwd) -> dict:
        """As Qwen Code 0.24.4 sends it from ``qwen -p`` (``permission_mode`` is its approval mode), with the
        model's call id (``tool_call_id``) beside the one it makes up per hook call."""
        return {**super().sample_payload(tool, tool_input, cwd), "tool_call_id": "call_dp_sample"}

    def hook_entries(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> dict:
        """PreToolUse for the tools dp can act on under ``rules`` (dp.agents.matchers; Qwen searches a
        matcher starting with ``^`` in the tool name as a regular expression), SessionStart for the
        corrections, and PostToolBatch, which has no matcher, only while a tool-name alias can correct
        a rejected name there (an empty list takes an earlier entry out)."""
        from dp.agents.matchers import anchored, tools
        from dp.rules.model import TOOL_ALIAS

        handler = {"type": "command", "command": hook_command, "timeout": HOOK_TIMEOUT_SECONDS}
        aliases = any(rule.match_kind == TOOL_ALIAS for rule in rules)
        return {PRE_TOOL_USE: [{"matcher": anchored(tools(self.agent, rules)), "hooks": [dict(handler)]}],
                "SessionStart": [{"hooks": [dict(handler)]}],
                POST_TOOL_BATCH: [{"hooks": [dict(handler)]}] if aliases else []}

    def capture_entries(self, capture_command: str) -> dict:
        handler = {"type": "command", "command": capture_command, "timeout": CAPTURE_TIMEOUT_SECONDS}
        return {"PostToolUseFailure": [{"matcher": ALL_TOOLS, "hooks": [dict(handler)]}],
                "PostToolUse": [{"matcher": ALL_TOOLS, "hooks": [dict(handler)]}]}


HOOKS = QwenCodeHooks()
