"""Claude Code: the agent dp was built for, so its wire format is dp's own.

Tool names are dp's canonical ones (``Bash``, ``Read`` …). The answers are
the ones ``pave-check`` always printed, byte for byte (the hook tests and
the real-client tests hold them): a tool-name alias blocks with exit 2 and
the correction on stderr; a rewrite is ``hookSpecificOutput.updatedInput``
plus ``additionalContext`` and, only when the user chose ``--permission``, a
``permissionDecision`` (without one Claude Code runs the rewritten command
only where the original would have run, so a rewrite never widens).

What Claude Code's settings, filters and client look like lives in
``dp/agents/claude/``: its install side is ``hooks.py``, which the hook never loads.
"""

import json

from dp.agents import base
from dp.agents.base import Agent, Event, tool_call_event

PRE_TOOL_USE = "PreToolUse"
# Claude Code's event names → dp's; the capture events are dp-capture's.
EVENTS = {
    PRE_TOOL_USE: base.PRE_TOOL,
    "SessionStart": base.SESSION_START,
    "PostToolBatch": base.AFTER_BATCH,
    "PostToolUse": base.POST_TOOL,
    "PostToolUseFailure": base.POST_FAILURE,
}


class ClaudeCode(Agent):
    name = "claude"
    display = "Claude Code"
    env_prefixes = ("CLAUDE", "ANTHROPIC")
    child_markers = (("CLAUDECODE", "1"),)  # 2.1.330 sets it for every Bash call (and AI_AGENT=claude-code_…)
    many_handlers_per_call = True  # one settings handler per `if` condition a command matches (filters.py)
    asks_person = True
    docs_page = "claude-code.md"  # the first agent's page predates docs/agents/
    # What dp-capture has always stored for Claude Code's hook events (dp ingest stores "transcript").
    capture_source = "hook"
    pre_tool_hook = PRE_TOOL_USE
    events = EVENTS
    default_hook = PRE_TOOL_USE  # a payload naming no hook event is read as a before-tool call
    scopes = ("user", "project", "local")
    instructions_file = "CLAUDE.md"
    session_option = ("--claude-transcripts", "claude_transcripts", "transcript",
                      "Read Claude Code transcripts (DIR, default ~/.claude/projects).")

    observed = "2.1.330"
    demo_rejects_unknown_tools = True
    unknown_tool_marks = ("No such tool available",)

    def installed_version(self) -> str | None:
        from dp.agents.claude.client import find_claude, spelled, version_of

        binary = find_claude()
        version = version_of(binary) if binary else None
        return spelled(version) if version else None

    def lacks(self, version: str | None) -> str | None:
        from dp.agents.claude.client import lacks

        return lacks(version)

    def is_present(self) -> bool:
        from dp.agents.claude.client import present

        return present()

    def answered_events(self) -> tuple:
        from dp.agents.claude.filters import EVENTS

        return EVENTS

    def is_own_tool(self, name: str) -> bool:
        from dp.agents.tools import is_builtin

        return is_builtin(name)

    def tool_event(self, kind: str, hook: str, payload: dict) -> Event | None:
        return tool_call_event(kind, hook, payload, payload.get("error"))

    def answer(self, event: Event, decision) -> tuple[int, str, str]:
        kind, text = decision.kind, decision.text
        if kind == base.BLOCK:
            return 2, "", text + "\n"
        if kind == base.CONTEXT:
            output = {"hookEventName": event.hook, "additionalContext": text} if text else None
        elif kind in (base.DENY, base.ASK):  # ask: Claude Code puts the call to the person (in -p: refused)
            output = {"hookEventName": PRE_TOOL_USE, "permissionDecision": kind, "permissionDecisionReason": text}
        elif kind == base.REWRITE:
            output = {"hookEventName": PRE_TOOL_USE, "updatedInput": decision.updated_input}
            if text and not decision.told:  # Claude Code shows each handler's note (dp.hook.notes._first_to_tell)
                output["additionalContext"] = text
            if decision.permission != "none":  # the user's explicit choice (dp pave --permission, --yes for allow)
                output["permissionDecision"] = decision.permission
                output["permissionDecisionReason"] = text
        else:
            output = None
        return 0, json.dumps({"hookSpecificOutput": output}) + "\n" if output else "", ""


ADAPTER = ClaudeCode
# The session-start JSON this agent sends its hook (as observed in its binary; the tests send it).
SESSION_START_SAMPLE = {"session_id": "s1", "transcript_path": "/dev/null", "hook_event_name": "SessionStart", "source": "startup"}
