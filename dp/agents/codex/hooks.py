"""Codex CLI's install side: ``~/.codex/hooks.json`` (``$CODEX_HOME``) or a project's ``.codex/hooks.json``.

The entries are fixed, whatever the rules: Codex runs a hook only after the user trusted it, and the
trust is a hash of the handler (``dp/agents/codex/wire.py``), so a rule change must never change them.
"""

import os
from pathlib import Path

from dp.agents.codex.wire import POST_TOOL_USE, PRE_TOOL_USE, UNASKED
from dp.agents.hookbase import Hooks

HOOK_TIMEOUT_SECONDS = 5
CAPTURE_TIMEOUT_SECONDS = 30  # Codex waits for it: async hooks do not run in `codex exec` 0.169.0
ALL_TOOLS = "*"


class CodexCliHooks(Hooks):
    folder = ".codex"
    file = "hooks.json"
    install_notes = ("Codex runs these hooks once you trust them (open `codex`, then /hooks; dp doctor shows their "
                     "trust); a rewrite runs where Codex would run the command unasked, elsewhere it is refused "
                     "with the corrected command",)

    def user_folder(self, home=None) -> Path:
        """``$CODEX_HOME`` when set (and no ``home`` is given), else ``~/.codex``."""
        codex_home = os.environ.get("CODEX_HOME") if home is None else None
        return Path(codex_home).expanduser() if codex_home else super().user_folder(home)

    def sample_payload(self, tool: str, tool_input: dict, cwd) -> dict:
        """As Codex CLI 0.169.0 sends it from ``codex exec`` (approval ``never``: ``bypassPermissions``)."""
        return {"session_id": "dp-sample", "turn_id": "dp-sample-turn", "transcript_path": None, "cwd": str(cwd),
                "hook_event_name": PRE_TOOL_USE, "model": "dp-sample", "permission_mode": UNASKED,
                "tool_name": tool, "tool_input": tool_input, "tool_use_id": "call_dp_sample"}

    def hook_entries(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> dict:
        """Fixed entries, whatever the rules: Codex's trust is a hash of them (see the module docstring)."""
        handler = {"type": "command", "command": hook_command, "timeout": HOOK_TIMEOUT_SECONDS}
        return {PRE_TOOL_USE: [{"matcher": ALL_TOOLS, "hooks": [dict(handler)]}],
                "SessionStart": [{"hooks": [dict(handler)]}]}

    def capture_entries(self, capture_command: str) -> dict:
        handler = {"type": "command", "command": capture_command, "timeout": CAPTURE_TIMEOUT_SECONDS}
        return {POST_TOOL_USE: [{"matcher": ALL_TOOLS, "hooks": [handler]}]}


HOOKS = CodexCliHooks()
