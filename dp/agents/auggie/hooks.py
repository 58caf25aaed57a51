"""Auggie's install side: ``~/.augment/settings.json`` or a workspace's ``.augment/settings.json``, Claude
Code's shape with the matcher a regular expression over tool names and timeouts in milliseconds.

Its answers are Claude Code's, less ``updatedInput`` (``rewrites``): Auggie would not ask the person about a
rewritten call, so dp answers a rewrite with a refusal (``dp/agents/auggie/wire.py``).

Only PreToolUse (pave-check) and PostToolUse (dp-capture): Auggie 0.36.0 drops whatever a SessionStart
hook prints, so an entry there would start a process for nothing (``dp/agents/auggie/wire.py``).
"""

from dp.agents.auggie.wire import POST_TOOL_USE, PRE_TOOL_USE, VERSION
from dp.agents.hookbase import Hooks

ALL_TOOLS = ".*"
HOOK_TIMEOUT_MS = 5_000  # what dp reports for its hook (dp.install.hook)
CAPTURE_TIMEOUT_MS = 30_000


class AuggieHooks(Hooks):
    folder = ".augment"
    rewrites = False
    install_notes = (f"Auggie ({VERSION}) runs hooks only where Augment's service enables them for the account "
                     "(the feature flag enable_hooks), and the corrections are not stated up front",
                     "Auggie decides whether to ask you about a call before any hook runs: dp refuses a call it "
                     "would rewrite, with the corrected command, and the model reissues it under Auggie's own "
                     "approval")

    def sample_payload(self, tool: str, tool_input: dict, cwd) -> dict:
        """As Auggie 0.36.0 sends it from ``auggie --print``: no cwd, session or call id of Claude Code's."""
        return {"hook_event_name": PRE_TOOL_USE, "conversation_id": "dp-sample", "workspace_roots": [str(cwd)],
                "tool_name": tool, "tool_input": tool_input, "tool_output": "[undefined]", "tool_error": None,
                "is_mcp_tool": False}

    def hook_entries(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> dict:
        handler = {"type": "command", "command": hook_command, "timeout": HOOK_TIMEOUT_MS}
        return {PRE_TOOL_USE: [{"matcher": ALL_TOOLS, "hooks": [handler]}]}

    def capture_entries(self, capture_command: str) -> dict:
        handler = {"type": "command", "command": capture_command, "timeout": CAPTURE_TIMEOUT_MS}
        return {POST_TOOL_USE: [{"matcher": ALL_TOOLS, "hooks": [handler]}]}


HOOKS = AuggieHooks()
