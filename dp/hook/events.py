"""pave-check's answers to SessionStart and PostToolBatch.

Claude Code rejects a tool name it does not know (``read_file``) before any
PreToolUse hook runs, so a tool-name alias can never block such a call. Two
channels do reach the model (observed with the real client, 2.1.330):

* SessionStart ``additionalContext`` lands in the first user message: the
  corrections, up front, in a few bounded lines;
* PostToolBatch fires after the batch that held the rejected call, with the
  rejection in ``tool_calls[].tool_response``; its ``additionalContext``
  reaches the model next to that error — the correction right after the
  mistake.

Imported only for these two events, never on the PreToolUse path.
"""

from __future__ import annotations

import json

from dp.rules.model import COMMAND, FLAG, LITERAL, RECIPE, REGEX, TOOL_ALIAS

MAX_LINES = 12
MAX_CHARS = 2000
UNKNOWN_TOOL_ERROR = "No such tool available"
HEADER = "dp (desire paths) corrections on this machine; follow them:"
# Which command corrections matter most when not all fit: the ones that
# change the program, then recipes, flags and the rest.
_PRIORITY = (TOOL_ALIAS, COMMAND, RECIPE, FLAG, LITERAL, REGEX)


def session_context(rules, notices=()) -> str:
    """The SessionStart text for ``rules`` ('' when there are none): at most
    MAX_LINES lines and MAX_CHARS characters, saying how many were left out.

    ``notices`` are the project layers that do not act (dp.layers: untrusted,
    changed, broken), said once each after the corrections, so the person
    learns at the start of the session why the project's rules are absent."""
    corrections = _corrections(rules)
    said = [f"dp: {text}" for text in notices]
    return "\n".join(part for part in (corrections, *said) if part)


def _corrections(rules) -> str:
    from dp.rules.wording import rule_line

    ranked = sorted(enumerate(rules), key=lambda item: (_rank(item[1]), item[0]))
    lines, used = [HEADER], len(HEADER)
    for shown, (_, rule) in enumerate(ranked):
        line = f"- {_scope(rule)}{rule_line(rule)}"
        left = len(ranked) - shown
        if len(lines) > MAX_LINES or used + len(line) + 1 > MAX_CHARS - 80:
            lines.append(f"- … and {left} more (see AGENTS.md or `dp pave --agents-md`)")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines) if len(lines) > 1 else ""


def _rank(rule) -> int:
    return _PRIORITY.index(rule.match_kind) if rule.match_kind in _PRIORITY else len(_PRIORITY)


def _scope(rule) -> str:
    if rule.command:
        return f"{rule.command}: "
    if rule.tool and rule.param:
        return f"{rule.tool} {rule.param}: "
    return ""


def unknown_tool_corrections(conn, payload: dict, project=None, marks=(UNKNOWN_TOOL_ERROR,)) -> str:
    """One correction per rejected call of an aliased tool name in the batch ('' if none);
    ``project``'s acting tool-name aliases (dp.layers) come before the store's. A call was
    rejected when its response holds one of ``marks``, the agent's words for an unknown tool
    (``Agent.unknown_tool_marks``)."""
    from dp.layers.effective import tool_alias as project_alias
    from dp.store.read import tool_alias

    calls = payload.get("tool_calls")
    notes = []
    for call in calls if isinstance(calls, list) else ():
        if not isinstance(call, dict) or not isinstance(call.get("tool_name"), str):
            continue
        response = call.get("tool_response")
        text = response if isinstance(response, str) else json.dumps(response)
        if not any(mark in text for mark in marks):
            continue
        alias = project_alias(project, call["tool_name"])
        if alias is None and conn is not None:
            alias = tool_alias(conn, call["tool_name"])
        if alias is not None:
            note = alias.message or f"{alias.from_name} is not a valid tool. Use {alias.to_name} instead."
            if note not in notes:
                notes.append(note)
    return "dp: " + " ".join(notes) if notes else ""


def answer(event: str, text: str) -> str:
    """The hook's stdout for ``additionalContext`` (nothing when there is nothing to say)."""
    if not text:
        return ""
    return json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}) + "\n"
