"""Qwen Code: a Gemini CLI descendant whose hooks speak Claude Code's JSON.

Observed in the shipped code and the real binary of ``@qwen-code/qwen-code`` 0.24.4
(docs/agents/qwen.md has the runs):

* settings ``hooks`` in ``~/.qwen/settings.json`` (user) and ``.qwen/settings.json``
  (project, loaded only in a trusted folder) in Claude Code's shape
  (``{EVENT: [{"matcher", "hooks": [{"type": "command", "command", "timeout"}]}]}``,
  timeouts in seconds); events ``PreToolUse``, ``PostToolUse``,
  ``PostToolUseFailure``, ``PostToolBatch``, ``SessionStart`` … with Claude
  Code's payload fields (``tool_name``, ``tool_input``, ``tool_use_id``,
  ``permission_mode``, ``error``) and Gemini CLI's tool names
  (``run_shell_command``, ``read_file``, ``edit`` …);
* PreToolUse can **deny** (``permissionDecision: "deny"`` or exit 2 with the
  reason on stderr; the model reads the reason as the tool's result) but not
  **rewrite**: ``firePreToolUseHook`` reads no ``updatedInput``, so the original
  runs even with ``permissionDecision: "allow"``. dp therefore answers every
  rewrite with a refusal carrying the corrected call: the model reissues it and
  Qwen's own approval (default, auto-edit, yolo, plan) judges what really runs,
  so nothing is ever widened;
* a command that exits non-zero fires ``PostToolUseFailure`` (``error`` holds
  ``Exit Code: N``); a tool name Qwen does not know fires no PreToolUse, but
  ``PostToolBatch`` carries it (``Tool "x" not found in registry``) and its
  ``additionalContext`` is appended to that very result;
* SessionStart ``additionalContext`` reaches the model before its first turn.

Imported on every Qwen Code hook call: stdlib only.
"""

import json

from dp.agents import base
from dp.agents.base import Agent, Event, refused_rewrite, tool_call_event, unrun

PRE_TOOL_USE = "PreToolUse"
POST_TOOL_BATCH = "PostToolBatch"
EVENTS = {
    PRE_TOOL_USE: base.PRE_TOOL,
    "SessionStart": base.SESSION_START,
    POST_TOOL_BATCH: base.AFTER_BATCH,
    "PostToolUse": base.POST_TOOL,
    "PostToolUseFailure": base.POST_FAILURE,
}
SHELL_TOOL = "run_shell_command"
VERSION = "0.24.4"  # the version the facts above were observed in


class QwenCode(Agent):
    name = "qwen"
    display = "Qwen Code"
    env_prefixes = ("QWEN", "OPENAI", "DASHSCOPE")
    child_markers = (("QWEN_CODE", "1"),)  # 0.24.4 sets it for every shell command
    asks_person = True
    pre_tool_hook = PRE_TOOL_USE
    events = EVENTS
    instructions_file = "QWEN.md"
    # A rewrite is always a refusal here, so there is no permission for dp to grant.
    permissions = ("none",)
    session_option = ("--qwen-sessions", "qwen_sessions", "session",
                      "Read Qwen Code session files (DIR, default ~/.qwen/projects).")
    unknown_tool_marks = ("not found in registry",)
    observed = VERSION
    # Qwen Code 0.24.4's built-in tools → dp's canonical (Claude Code's) names.
    tool_names = {
        SHELL_TOOL: "Bash",
        "read_file": "Read",
        "write_file": "Write",
        "edit": "Edit",
        "glob": "Glob",
        "grep_search": "Grep",
        "list_directory": "LS",
        "web_fetch": "WebFetch",
        "web_search": "WebSearch",
        "todo_write": "TodoWrite",
        "notebook_edit": "NotebookEdit",
        "agent": "Task",
        "skill": "Skill",
        "save_memory": "save_memory",
        "ask_user_question": "AskUserQuestion",
        "exit_plan_mode": "ExitPlanMode",
        "lsp": "lsp",
    }
    # Its argument names are dp's (read_file/write_file/edit take file_path, old_string, new_string;
    # glob and grep_search path and glob, in the schemas 0.24.4 offers the model): no tool_args.

    def tool_event(self, kind: str, hook: str, payload: dict) -> Event | None:
        event = tool_call_event(kind, hook, payload, payload.get("error"))
        if event is not None:
            event.tool = self.canonical(event.agent_tool)
            # Qwen's tool_use_id is made up per hook call; tool_call_id is the model's call id, the one its
            # session file keeps (dp ingest --qwen-sessions keys its rows with it too).
            call_id = payload.get("tool_call_id")
            event.call_id = call_id if isinstance(call_id, str) and call_id else event.call_id
        return event

    def answer(self, event: Event, decision) -> tuple[int, str, str]:
        kind, text = decision.kind, decision.text
        if kind == base.REWRITE:  # Qwen would run the original: refuse it with the corrected call instead
            kind, text = base.DENY, refusal(event, decision)
        if kind == base.BLOCK:  # exit 2: Qwen denies the call with stderr as the reason
            return 2, "", text + "\n"
        if kind in (base.DENY, base.ASK):
            output = {"hookEventName": PRE_TOOL_USE, "permissionDecision": kind, "permissionDecisionReason": text}
        elif kind == base.CONTEXT and text and event.hook in EVENTS:
            output = {"hookEventName": event.hook, "additionalContext": text}
        else:
            return 0, "", ""
        return 0, json.dumps({"hookSpecificOutput": output}) + "\n", ""

    def answered_events(self) -> tuple:
        return (PRE_TOOL_USE, "SessionStart", POST_TOOL_BATCH)


def refusal(event: Event, decision) -> str:
    """A rewrite as Qwen Code can take it: what dp would change, and the call to issue instead."""
    return refused_rewrite(event, decision, unrun(decision.text).rstrip().rstrip("."), "Qwen Code runs no "
                           "rewritten call from a hook, so reissue it and Qwen Code's own approval applies.")


ADAPTER = QwenCode
# The session-start JSON this agent sends its hook (as observed in its binary; the tests send it).
SESSION_START_SAMPLE = {"session_id": "q1", "hook_event_name": "SessionStart", "source": "startup"}
