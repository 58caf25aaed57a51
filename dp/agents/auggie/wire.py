"""Auggie: Claude Code's hook shape under Augment's own tool names, gated by Augment's service.

Observed in the shipped code and the real binary of ``@augmentcode/auggie`` 0.36.0 (docs/agents/auggie.md
has the runs):

* settings ``hooks`` in ``~/.augment/settings.json`` (user) and ``<workspace>/.augment/settings.json``
  (project), in Claude Code's shape (``{EVENT: [{"matcher", "hooks": [{"type": "command", "command",
  "timeout"}]}]}``; the matcher a regular expression over tool names, timeouts in milliseconds). They run
  only when Augment's service turns the feature flag ``enable_hooks`` on for the account (off by default);
* the payload is Claude Code's less its ids: ``hook_event_name``, ``tool_name``, ``tool_input``,
  ``tool_output`` and ``tool_error`` (after the call), ``conversation_id`` and ``workspace_roots``: no
  ``cwd``, no ``session_id``, no call id. Auggie's tools: ``launch-process`` (the shell, ``command``),
  ``view``, ``save-file``, ``str-replace-editor`` …;
* PreToolUse could **rewrite** (``hookSpecificOutput.updatedInput`` is the input the tool runs with), but
  that would widen what a person allowed: in manual (interactive) mode Auggie decides whether to ask the
  person on the ORIGINAL input (the UI's ``checkToolCallSafe``: an allow rule of ``toolPermissions``
  matching the original skips the prompt), and the hook runs only afterwards (``executeSequentialTools``:
  ``runPreToolUseHook`` → ``updatedInput`` → ``toolsModel.callTool``, which re-checks only
  ``toolPermissions``). A hook cannot tell which mode it runs in, so dp answers every rewrite with a
  refusal carrying the corrected call: the model reissues it and Auggie's own approval and rules judge it;
* PreToolUse **refuses**: ``permissionDecision: "deny"`` (or exit 2 with stderr), its reason the call's
  result, followed by ``PreToolUse:<tool> hook returned blocking error``. The model reads that reason, the
  only text of a PreToolUse hook that reaches it. It fires for a tool name Auggie does not know too, before
  Auggie rejects it;
* PostToolUse fires after every call, a failure's ``tool_error`` set (a command's exit code inside it); its
  ``additionalContext`` is appended to the call's result (``[Hook Context]``);
* SessionStart (and PromptSubmit) run, but what they print never reaches the model: dp installs neither.

Imported on every Auggie hook call: stdlib only.
"""

import json
import re

from dp.agents import base
from dp.agents.base import Agent, Event, refused_rewrite, tool_call_event, unrun

PRE_TOOL_USE = "PreToolUse"
POST_TOOL_USE = "PostToolUse"
EVENTS = {PRE_TOOL_USE: base.PRE_TOOL, POST_TOOL_USE: base.POST_TOOL}
SHELL_TOOL = "launch-process"
VERSION = "0.36.0"  # the version the facts above were observed in
# How launch-process reports a command: its exit code and output between these tags.
_RESULT = re.compile(r"<return-code>\s*(-?\d+)\s*</return-code>\s*<output>\n?(.*?)\s*</output>", re.S)


class Auggie(Agent):
    name = "auggie"
    display = "Auggie"
    env_prefixes = ("AUGMENT",)
    child_markers = (("AUGMENT_AGENT", "1"),)  # 0.36.0 sets it for every command launch-process runs
    version_command = ("auggie", "--version")
    capture_source = "auggie"
    observed = VERSION
    # A rewrite is always a refusal here (Auggie has no "ask" of a hook's own either): nothing for dp to grant.
    permissions = ("none",)
    pre_tool_hook, events = PRE_TOOL_USE, EVENTS
    tool_names = {
        SHELL_TOOL: "Bash",
        "view": "Read",
        "save-file": "Write",
        "str-replace-editor": "Edit",
        "web-fetch": "WebFetch",
        "remove-files": "remove-files",
        "codebase-retrieval": "codebase-retrieval",
        "apply_patch": "apply_patch",
        "kill-process": "kill-process",
        "read-process": "read-process",
        "write-process": "write-process",
        "list-processes": "list-processes",
        "view_tasklist": "view_tasklist",
        "add_tasks": "add_tasks",
        "update_tasks": "update_tasks",
        "reorganize_tasklist": "reorganize_tasklist",
    }
    tool_args = {"view": {"path": "file_path"}, "save-file": {"path": "file_path", "file_content": "content"},
                 "str-replace-editor": {"path": "file_path"}}
    # apply_patch is a tool of Auggie's own: a shell call of that name is no lost edit tool here.
    tool_commands: dict = {}

    def tool_event(self, kind: str, hook: str, payload: dict) -> Event | None:
        event = tool_call_event(kind, hook, payload)
        if event is None:
            return None
        event.tool = self.canonical(event.agent_tool)
        roots, conversation = payload.get("workspace_roots"), payload.get("conversation_id")
        if isinstance(roots, list) and roots and isinstance(roots[0], str):
            event.cwd = roots[0]
        event.session = conversation if isinstance(conversation, str) else ""
        if kind == base.POST_TOOL and payload.get("tool_error"):
            event.kind, event.error = base.POST_FAILURE, failure_text(payload.get("tool_error"))
        return event

    def answer(self, event: Event, decision) -> tuple[int, str, str]:
        kind, text = decision.kind, decision.text
        if kind == base.REWRITE:  # Auggie might not ask the person about the rewritten call: refuse it instead
            kind, text = base.DENY, refusal(event, decision)
        # A wrong tool name, and a call only the person may decide (Auggie has no question of a hook's own), are
        # refused like any other: a deny's reason is the call's whole result, where exit 2's stderr would stand
        # behind Auggie's "[hook:PreToolUse]:" label.
        if kind in (base.DENY, base.BLOCK, base.ASK):
            output = {"hookEventName": PRE_TOOL_USE, "permissionDecision": "deny", "permissionDecisionReason": text}
        elif kind == base.CONTEXT and text and event.hook == POST_TOOL_USE:
            output = {"hookEventName": POST_TOOL_USE, "additionalContext": text}
        else:
            return 0, "", ""
        return 0, json.dumps({"hookSpecificOutput": output}) + "\n", ""

    def answered_events(self) -> tuple:
        return (PRE_TOOL_USE,)


def refusal(event: Event, decision) -> str:
    """A rewrite as Auggie can take it without widening: what dp would change, and the call to issue instead."""
    return refused_rewrite(event, decision, unrun(decision.text).rstrip().rstrip("."), "Auggie would not ask "
                           "you about the rewritten command, so reissue it and Auggie's own approval applies.")


def failure_text(error) -> str:
    """The error dp stores for a failed call: a command's exit code, then its output, as for Codex CLI
    (``Exit code 127`` …); any other tool's error as Auggie wrote it."""
    text = error if isinstance(error, str) else json.dumps(error)
    found = _RESULT.search(text)
    return f"Exit code {found.group(1)}\n{found.group(2)}".rstrip() if found else text


ADAPTER = Auggie
