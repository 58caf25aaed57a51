"""OpenCode (``opencode-ai``): dp as a plugin inside the agent, its decisions made by dp's core.

OpenCode has no hook commands in its settings; its extension point is a
JavaScript/TypeScript plugin that runs inside the agent (``plugin/dp.ts`` here,
installed by ``dp init --agent opencode`` into ``~/.config/opencode/plugin/``
or a project's ``.opencode/plugin/``, see ``install``). The plugin decides
only whether to ask dp: for a call dp's hook gate (dp.hook.gate ``door``) says a
rule or paving could concern it runs ``pave-check --agent opencode``, and for a
failure and the Bash calls just after it ``dp-capture --agent opencode``, with the
small JSON this module reads, and does what the answer says. So the rules, paving, tool-name
corrections and capture are dp's one copy, as for every other agent.

What OpenCode 1.18.33 does, observed in the real binary (``opencode run``):

* ``tool.execute.before`` runs before the tool's own ``execute``, with the
  model's arguments as ``output.args``; changes made to that object in place
  are what runs, what OpenCode's transcript records, *and what the model's own
  history shows* as its call. The permission check (``permission`` in
  ``opencode.json``) happens inside ``execute``, on the changed arguments: a
  command the user allowed (``"grep *": "allow"``), rewritten into one they
  denied, is denied — so a rewrite never runs where the rewritten command
  would not have, and dp rewrites rather than refusing. Nothing tells the
  model about the change, so the plugin appends dp's note to the result the
  model reads (``tool.execute.after`` may change ``output.output``).
* An error thrown from ``tool.execute.before`` fails the call; the model
  reads the error's message as the tool's result. That is how dp blocks and
  refuses ({"error": text}).
* A tool name OpenCode does not have (``read_file``) becomes a call of its
  ``invalid`` tool (``args: {tool, error}``), and *that* goes through
  ``tool.execute.before``: the plugin sees the made-up name, so a tool-name
  alias blocks it with dp's correction. (A name that differs only in case,
  ``Read``, OpenCode itself runs as ``read``.)
* ``tool.execute.after`` fires only when ``execute`` returned: a shell
  command that exits non-zero is a success there (``metadata.exit``), but a
  tool that throws (a missing file, a refused permission, dp's own block)
  fires no after-hook. Those reach the plugin's ``event`` hook as a
  ``message.part.updated`` whose tool state is ``error``; the plugin hands
  them to dp-capture as ``tool.error``.
* ``experimental.chat.system.transform`` runs before every model request:
  the corrections up front go into the system prompt there.

The JSON between the plugin and dp (``hook_event_name`` is the plugin's own
name for the moment it calls dp)::

    → {"hook_event_name": "tool.execute.before", "tool", "args", "session_id", "call_id", "cwd"}
    ← {"args": {...}, "note": "..."}   run these arguments; tell the model the note after the result
    ← {"error": "..."}                 refuse the call with this text
    ← {"note": "..."}                  advice only, said after the result
    → {"hook_event_name": "session.start", "session_id", "cwd"}
    ← {"system": "..."}                added to the system prompt of the session
    → {"hook_event_name": "tool.execute.after", ..., "output", "exit"}   (dp-capture)
    ← {"note": "..."}                  after a failed command: a learned answer, added to its result
    → {"hook_event_name": "tool.error", ..., "error"}                    (dp-capture)

Imported on every hook call of OpenCode's: stdlib only.
"""

import json

from dp.agents import base
from dp.agents.base import Agent, Event

BEFORE = "tool.execute.before"
AFTER = "tool.execute.after"
ERROR = "tool.error"
START = "session.start"
EVENTS = {BEFORE: base.PRE_TOOL, AFTER: base.POST_TOOL, ERROR: base.POST_FAILURE, START: base.SESSION_START}
SHELL_TOOL = "bash"
# OpenCode's stand-in for a call of a tool it does not have: its args name the model's tool.
INVALID_TOOL = "invalid"
# How OpenCode 1.18.33 words such a call's error (the model reads it).
UNAVAILABLE = "Model tried to call unavailable tool"


class OpenCode(Agent):
    name = "opencode"
    display = "OpenCode"
    env_prefixes = ("OPENCODE",)
    child_markers = (("OPENCODE", "1"),)  # 1.18.33 sets it (and OPENCODE_PID, AGENT=1) for every command
    pre_tool_hook = BEFORE
    events = EVENTS
    # A rewrite always runs under OpenCode's own permission check of the rewritten call, and a
    # plugin cannot approve or ask: only dp's default.
    permissions = ("none",)
    # OpenCode 1.18.33's built-in tools → dp's canonical (Claude Code's) names.
    tool_names = {
        SHELL_TOOL: "Bash",
        "read": "Read",
        "write": "Write",
        "edit": "Edit",
        "glob": "Glob",
        "grep": "Grep",
        "list": "LS",
        "webfetch": "WebFetch",
        "websearch": "WebSearch",
        "todowrite": "TodoWrite",
        "task": "Task",
        "skill": "Skill",
        # Its own tools without a Claude Code counterpart: real names here, never a hallucination.
        **{tool: tool for tool in ("apply_patch", "codesearch", "question", "lsp")},
    }
    # Its argument names → dp's, where they differ (the schemas the 1.18.33 binary offers the model).
    tool_args = {
        "read": {"filePath": "file_path"},
        "write": {"filePath": "file_path"},
        "edit": {"filePath": "file_path", "oldString": "old_string", "newString": "new_string",
                 "replaceAll": "replace_all"},
        "grep": {"include": "glob"},
    }

    def tool_event(self, kind: str, hook: str, payload: dict) -> Event | None:
        tool, args = payload.get("tool"), payload.get("args")
        if not isinstance(tool, str) or not tool:
            return None
        args = args if isinstance(args, dict) else {}
        error = payload.get("error") if kind == base.POST_FAILURE else None
        if tool == INVALID_TOOL and isinstance(args.get("tool"), str) and args["tool"]:
            # The model's made-up name: what dp's tool-name aliases and capture are about.
            tool, error = args["tool"], args.get("error")
            args = {}
            kind = base.POST_FAILURE if kind == base.POST_TOOL else kind
        elif kind == base.POST_TOOL:
            kind, error = _outcome(tool, payload)
        event = Event(kind, hook, payload, self.canonical(tool), tool, args, error if error is None else str(error))
        call = payload.get("call_id")
        event.call_id = call if isinstance(call, str) else None
        return event

    def answer(self, event: Event, decision) -> tuple[int, str, str]:
        kind, text = decision.kind, decision.text
        output = None
        if event.kind == base.PRE_TOOL and kind in (base.BLOCK, base.DENY, base.ASK):  # a plugin cannot ask: refused
            output = {"error": text}
        elif event.kind == base.PRE_TOOL and kind == base.REWRITE:
            output = {"args": decision.updated_input, "note": text}
        elif event.kind == base.PRE_TOOL and kind == base.CONTEXT and text:
            output = {"note": text}
        elif event.kind == base.SESSION_START and kind == base.CONTEXT and text:
            output = {"system": text}
        elif event.kind == base.POST_FAILURE and kind == base.CONTEXT and text:
            output = {"note": text}  # dp-capture's learned answer: the plugin adds it to the failed call's result
        return (0, json.dumps(output) + "\n", "") if output else (0, "", "")


def _outcome(tool: str, payload: dict) -> tuple[str, str | None]:
    """(POST_FAILURE, error) for a shell command that exited non-zero, else (POST_TOOL, None)."""
    code = payload.get("exit")
    if tool != SHELL_TOOL or not isinstance(code, int) or isinstance(code, bool) or code == 0:
        return base.POST_TOOL, None
    output = payload.get("output")
    return base.POST_FAILURE, f"Exit code {code}\n{output if isinstance(output, str) else ''}".rstrip()


ADAPTER = OpenCode
# The session-start JSON this agent sends its hook (as observed in its binary; the tests send it).
SESSION_START_SAMPLE = {"hook_event_name": "session.start", "session_id": "ses_1"}
