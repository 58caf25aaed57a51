"""Factory Droid: Claude Code's hook shape, with its own tool names and its own risk judgement.

Observed in the real binary of ``@factory/cli`` 0.225.2 (``droid exec`` against a custom model,
docs/agents/droid.md has the runs):

* hooks in ``~/.factory/settings.json`` (user) or a project's ``.factory/settings.json``, Claude
  Code's shape; a group may add ``commandRegex`` (tested against an Execute call's command). Events
  ``PreToolUse``, ``PostToolUse``, ``SessionStart``, ``Stop``, ``SessionEnd`` … (no failure event);
* the payload is Claude Code's (``tool_name``, ``tool_input``, ``cwd``, ``session_id``,
  ``transcript_path``) with Droid's tool names (``Execute``, ``Create``, ``FetchUrl`` …) and its
  autonomy level as ``permission_mode`` (``auto-low``, ``auto-medium``, ``auto-high``, ``normal``,
  ``spec``); no call id. PreToolUse fires for a tool name Droid does not know too;
* **never widen.** ``permissionDecision: "allow"`` bypasses Droid's permission check, so dp never
  sends it. ``updatedInput`` alone is merged into the call; when it changes an Execute command Droid
  drops the model's ``riskLevel``, applies its command block list to the new command and judges it as
  unclassified: it runs only at ``--auto high`` (lower levels end ``droid exec`` with "insufficient
  permission"). So dp rewrites in place only where ``permission_mode`` is ``auto-high``; elsewhere it
  refuses the call with the corrected command, and the model reissues it with a risk level of its own,
  which Droid judges. ``ask`` only logs, so dp's questions to the person are refusals too;
* a refusal (``deny``, or exit 2 with stderr) is what the model reads as the result
  (``Error: <reason>``); PreToolUse ``additionalContext`` is dropped, PostToolUse's and
  SessionStart's reach the model (a user message after the result; before the prompt).

Imported on every Droid hook call: stdlib only.
"""

import json

from dp.agents import base
from dp.agents.base import Agent, Event, refused_rewrite, tool_call_event, unrun

PRE_TOOL_USE = "PreToolUse"
POST_TOOL_USE = "PostToolUse"
EVENTS = {PRE_TOOL_USE: base.PRE_TOOL, "SessionStart": base.SESSION_START, POST_TOOL_USE: base.POST_TOOL}
SHELL_TOOL = "Execute"
# The one autonomy level at which Droid runs a rewritten (unclassified) command without asking.
REWRITES_AT = "auto-high"
VERSION = "0.225.2"  # the version the facts above were observed in


class FactoryDroid(Agent):
    name = "droid"
    display = "Factory Droid"
    env_prefixes = ("FACTORY", "DROID")
    child_markers = (("FACTORY_DISABLE_SETTINGS_PERSISTENCE", "true"),)  # set for every command `droid exec` runs
    pre_tool_hook = PRE_TOOL_USE
    events = EVENTS
    # A rewrite Droid runs is never approved by dp (no "allow"), so there is no permission for dp to grant.
    permissions = ("none",)
    session_option = ("--droid-sessions", "droid_sessions", "session",
                      "Read Factory Droid session files (DIR, default ~/.factory/sessions).")
    observed = VERSION
    # Droid 0.225.2's built-in tools → dp's canonical (Claude Code's) names.
    tool_names = {
        SHELL_TOOL: "Bash",
        "Read": "Read",
        "Create": "Write",
        "Edit": "Edit",
        "Glob": "Glob",
        "Grep": "Grep",
        "LS": "LS",
        "FetchUrl": "WebFetch",
        "WebSearch": "WebSearch",
        "TodoWrite": "TodoWrite",
        "Task": "Agent",  # its subagent tool, Claude Code's Agent (which was called Task)
        "Skill": "Skill",
        "TaskOutput": "TaskOutput",
        "TaskStop": "TaskStop",
        "ToolSearch": "ToolSearch",
    }
    # Its argument names where they are not dp's (the schemas 0.225.2 offers the model).
    tool_args = {
        "Edit": {"old_str": "old_string", "new_str": "new_string", "change_all": "replace_all"},
        "Grep": {"glob_pattern": "glob"},
        "Glob": {"patterns": "pattern", "folder": "path"},
    }

    def tool_event(self, kind: str, hook: str, payload: dict) -> Event | None:
        event = tool_call_event(kind, hook, payload)
        if event is not None:
            event.tool = self.canonical(event.agent_tool)
        return event

    def answer(self, event: Event, decision) -> tuple[int, str, str]:
        kind, text = decision.kind, decision.text
        if kind == base.REWRITE and event.approval != REWRITES_AT:
            kind, text = base.DENY, refusal(event, decision)
        if kind == base.BLOCK:  # exit 2: Droid refuses the call and the model reads stderr as it is
            return 2, "", text
        if kind in (base.DENY, base.ASK):  # "ask" only logs in Droid: a question to the person is a refusal
            output = {"hookEventName": PRE_TOOL_USE, "permissionDecision": "deny", "permissionDecisionReason": text}
        elif kind == base.REWRITE:  # no permissionDecision: "allow" would bypass Droid's own check
            output = {"hookEventName": PRE_TOOL_USE, "updatedInput": decision.updated_input}
        elif kind == base.CONTEXT and text and event.hook in EVENTS:
            output = {"hookEventName": event.hook, "additionalContext": text}
        else:
            return 0, "", ""
        return 0, json.dumps({"hookSpecificOutput": output}) + "\n", ""


def refusal(event: Event, decision) -> str:
    """A rewrite Droid would not run at this autonomy level: what dp would change, and the call to issue instead."""
    return refused_rewrite(event, decision, unrun(decision.text).rstrip().rstrip("."), "Droid runs a rewritten "
                           "command only at --auto high, so reissue it and Droid judges its risk.")


ADAPTER = FactoryDroid
# The session-start JSON this agent sends its hook (as observed in its binary; the tests send it).
SESSION_START_SAMPLE = {"session_id": "d1", "transcript_path": "/dev/null", "cwd": "/tmp", "permission_mode": "off",
                        "hook_event_name": "SessionStart", "source": "startup"}
