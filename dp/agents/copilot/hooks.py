"""Copilot CLI's install side: ``~/.copilot/hooks/dp.json`` (``$COPILOT_HOME/hooks``) or a repository's
``.github/hooks/dp.json``, in the camelCase format whose payloads name each tool as the model called it.

Why that format, why every command ends in ``|| true`` and where a repository's hooks load is in
``dp/agents/copilot/wire.py``.
"""

import re

from dp.agents import base
from dp.agents.base import Decision
from dp.agents.copilot.wire import PRE_TOOL_USE, SESSION_START_HOOK, copilot_home
from dp.agents.hookbase import Hooks

CAPTURE_EVENTS = ("postToolUseFailure", "postToolUse")
# Appended to every command dp writes: a hook that fails to start must not deny the call.
FAIL_OPEN = " || true"
# The first version whose preToolUse reads `modifiedArgs` (its changelog, shipped in 1.0.102's package:
# "preToolUse hooks now respect modifiedArgs/updatedInput, and additionalContext fields"). Before it a
# rewrite answered with `modifiedArgs` would let the original command run.
MODIFIED_ARGS_SINCE = (1, 0, 24)


class CopilotCliHooks(Hooks):
    bench_start = "tools"  # preToolUse names the tools rules concern (dp.agents.matchers)
    project_folder = ".github/hooks"
    file = "dp.json"

    def user_folder(self, home=None):
        return copilot_home(home) / "hooks"

    def filter_support(self) -> dict:
        return {"filtered": False, "version": None,
                "reason": "Copilot CLI's matchers select tools, not commands: the hook starts for every call of "
                          "the tools dp can act on (its shell among them)"}

    def hook_entries(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> dict:
        from dp.agents.settings import HOOK_TIMEOUT_SECONDS

        if not reads_modified_args(self.agent.installed_version()) and "--mode" not in hook_command:
            hook_command += " --mode advise"  # the original would run: refuse with the corrected command
        from dp.agents.matchers import anchored, tools

        handler = {"type": "command", "command": hook_command + FAIL_OPEN, "timeout": HOOK_TIMEOUT_SECONDS}
        # Copilot matches the whole tool name, as the model wrote it (an unknown one too), against the regex.
        return {SESSION_START_HOOK: [{"hooks": [dict(handler)]}],
                PRE_TOOL_USE: [{"matcher": anchored(tools(self.agent, rules)), "hooks": [dict(handler)]}]}

    def capture_entries(self, capture_command: str) -> dict:
        from dp.agents.settings import CAPTURE_TIMEOUT_SECONDS

        handler = {"type": "command", "command": capture_command + FAIL_OPEN, "timeout": CAPTURE_TIMEOUT_SECONDS}
        return {event: [{"hooks": [dict(handler)]}] for event in CAPTURE_EVENTS}

    def sample_payload(self, tool: str, tool_input: dict, cwd) -> dict:
        return {"sessionId": "dp-sample", "timestamp": 0, "cwd": str(cwd), "toolName": tool, "toolArgs": tool_input}

    def read_answer(self, status: int, stdout: str, stderr: str):
        from dp.agents.answers import json_object

        output = json_object(stdout) if status == 0 else {}  # any other exit: Copilot denies, "hook errored"
        text = output.get("additionalContext")
        text = text if isinstance(text, str) else ""
        if output.get("permissionDecision") in ("deny", "ask"):
            return Decision(base.ASK if output["permissionDecision"] == "ask" else base.DENY,
                            str(output.get("permissionDecisionReason") or ""))
        if isinstance(output.get("modifiedArgs"), dict):
            return Decision(base.REWRITE, text, output["modifiedArgs"])
        return Decision(base.CONTEXT, text) if text else Decision(base.NOTHING)


def reads_modified_args(version: str | None) -> bool:
    """Whether a Copilot CLI of ``version`` runs a hook's ``modifiedArgs`` (an unknown version: assume a
    current one, which the real-client tests pin)."""
    if not version:
        return True
    found = re.match(r"(\d+)\.(\d+)\.(\d+)", version)
    return found is None or tuple(int(part) for part in found.groups()) >= MODIFIED_ARGS_SINCE


HOOKS = CopilotCliHooks()
