"""The adapter of the agents that run dp as OpenCode's plugin: OpenCode and the agents built on it (Kilo Code).

Their plugin hooks are OpenCode's, so the one plugin (``dp/agents/opencode/plugin/dp.ts``, put in place by each
agent's ``install`` role, ``dp.agents.plugin_files``) sends dp the same JSON from each, and ``PluginAgent``
reads it and answers in it; an agent's ``wire`` is this adapter with the agent's names and tools
(dp/agents/opencode/wire.py says what the JSON is and what OpenCode was seen to do with each answer).

Imported on every hook call of these agents: stdlib only.
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
# How OpenCode 1.18.33 (and Kilo Code 7.7.7) word such a call's error (the model reads it).
UNAVAILABLE = "Model tried to call unavailable tool"


class PluginAgent(Agent):
    """An agent running dp's OpenCode plugin: its payloads read and its answers written."""

    pre_tool_hook = BEFORE
    events = EVENTS
    # A rewrite always runs under the agent's own permission check of the rewritten call, and a
    # plugin cannot approve or ask: only dp's default.
    permissions = ("none",)
    # OpenCode 1.18.33's built-in tools → dp's canonical (Claude Code's) names (an agent built on it adds its own).
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
