"""Gemini CLI (``@google/gemini-cli``): its hook wire format, tool names and settings.

What the real binary does (0.61.0, read in its bundle and observed through
integration_tests/real_client_gemini/; the binary wins over its docs):

* Hooks live in ``settings.json`` (``~/.gemini/`` for the user, the
  project's ``.gemini/``) as ``{"hooks": {EVENT: [{"matcher", "hooks": [{"type":
  "command", "command", "timeout"}]}]}}`` — Claude Code's shape, so dp's one
  writer serves both. Timeouts are milliseconds. A tool event's matcher is a
  regular expression *searched* in the tool name (not anchored); a
  SessionStart matcher is compared as a plain string with the source
  (``startup``, ``resume``, ``clear``), so ``.*`` never matches there. ``*``
  matches everything in both, and is what dp writes. The command runs
  through ``sh -c`` with the payload on stdin; hooks run only in a trusted
  folder.
* ``BeforeTool`` runs before Gemini's policy check and its confirmation
  (``Scheduler._processToolCall``): the call is rebuilt from
  ``hookSpecificOutput.tool_input`` alone (replaced, not merged: dp sends
  the whole input), and the policy and the confirmation then judge the call
  that will really run. So a rewrite runs only where Gemini would
  run the rewritten command if the model had typed it — a command the user
  never allowed is still asked about (refused in ``-p``), never waved
  through. The model keeps its original call in its history and reads
  "[System] Tool input parameters were modified by a hook before
  execution." after the result; ``additionalContext`` of a BeforeTool hook
  is ignored. So dp keeps its note about what changed (``NOTES_FILE``, a
  few recent sessions) and its ``AfterTool`` entry hands it over: AfterTool
  ``additionalContext`` reaches the model after that very result, inside
  ``<hook_context>``. Advice that changes nothing travels the same way.
* ``{"decision": "deny", "reason": R}`` blocks; the model reads ``Tool
  execution blocked: R``. An exit status of 2 or more with text also denies,
  exit 1 only warns: dp fails open with exit 0 and no output.
* ``AfterTool`` sees every executed tool with ``tool_response``
  (``llmContent``, ``returnDisplay``, ``error``). A shell command that exits
  non-zero is not an error there: its ``llmContent`` ends with ``Exit Code:
  N`` (before the process group line), which is how capture recognises it.
* ``SessionStart`` ``additionalContext`` is put before the prompt, inside
  ``<hook_context>`` (``<`` and ``>`` escaped).
* A tool name Gemini does not know never reaches a hook: Gemini answers
  ``Tool "x" not found`` itself. Tool-name corrections therefore travel as
  context: at session start and in ``GEMINI.md``.
"""

import json

from dp.agents import base
from dp.agents.base import Agent, Event

BEFORE_TOOL = "BeforeTool"
AFTER_TOOL = "AfterTool"
SESSION_START_HOOK = "SessionStart"
EVENTS = {BEFORE_TOOL: base.PRE_TOOL, AFTER_TOOL: base.POST_TOOL, SESSION_START_HOOK: base.SESSION_START}
SHELL_TOOL = "run_shell_command"
# The lines the shell tool appends after a command's output (the order it writes them).
_SHELL_TRAILERS = ("Error: ", "Exit Code: ", "Signal: ", "Background PIDs: ", "Process Group PGID: ")


class GeminiCli(Agent):
    name = "gemini"
    display = "Gemini CLI"
    env_prefixes = ("GEMINI", "GOOGLE")
    child_markers = (("GEMINI_CLI", "1"),)  # 0.61.0 sets it for every shell command
    asks_person = True
    pre_tool_hook = BEFORE_TOOL
    events = EVENTS
    instructions_file = "GEMINI.md"
    session_option = ("--gemini-sessions", "gemini_sessions", "session",
                      "Read Gemini CLI sessions (DIR, default ~/.gemini/tmp).")
    # Gemini CLI 0.61's built-in tools → dp's canonical (Claude Code's) names; tools without
    # a counterpart map to themselves, so dp knows them as real tools here.
    tool_names = {
        SHELL_TOOL: "Bash",
        "read_file": "Read",
        "write_file": "Write",
        "replace": "Edit",
        "glob": "Glob",
        "grep_search": "Grep",
        "list_directory": "LS",
        "web_fetch": "WebFetch",
        "google_web_search": "WebSearch",
        "write_todos": "TodoWrite",
        **{tool: tool for tool in ("read_many_files", "save_memory", "ask_user", "activate_skill")},
    }
    # Its argument names → dp's, where they differ: its listing tools take ``dir_path`` for dp's ``path``
    # (read_file, write_file and replace use dp's).
    tool_args = {**{tool: {"dir_path": "path"} for tool in ("glob", "list_directory")},
                 "grep_search": {"dir_path": "path", "include_pattern": "glob"}}

    def tool_event(self, kind: str, hook: str, payload: dict) -> Event | None:
        tool = payload.get("tool_name")
        if not isinstance(tool, str) or not tool:
            return None
        tool_input = payload.get("tool_input")
        error = None
        if kind == base.POST_TOOL:
            error = failure_text(tool, payload.get("tool_response"))
            kind = base.POST_FAILURE if error is not None else base.POST_TOOL
        return Event(kind, hook, payload, self.canonical(tool), tool, tool_input, error)

    def answer(self, event: Event, decision) -> tuple[int, str, str]:
        kind, text = decision.kind, decision.text
        output = None
        if event.kind == base.PRE_TOOL and kind in (base.BLOCK, base.DENY):
            output = {"decision": "deny", "reason": text}
        elif event.kind == base.PRE_TOOL and kind == base.ASK:
            # Gemini's confirmation, forced whatever the approval mode (yolo too), shows systemMessage.
            output = {"decision": "ask", "reason": text, "systemMessage": text}
        elif event.kind == base.PRE_TOOL and kind == base.REWRITE:
            # Gemini builds the call from this, then applies its policy to it (see above).
            output = {"hookSpecificOutput": {"hookEventName": BEFORE_TOOL, "tool_input": decision.updated_input}}
            remember(event.session, decision.updated_input, text)
        elif event.kind == base.PRE_TOOL and kind == base.CONTEXT:
            remember(event.session, event.tool_input, text)  # no channel now: said after the call
        elif event.kind == base.SESSION_START and kind == base.CONTEXT and text:
            output = {"hookSpecificOutput": {"hookEventName": SESSION_START_HOOK, "additionalContext": text}}
        elif event.kind in (base.POST_TOOL, base.POST_FAILURE):
            note = "\n\n".join(n for n in (recall(event.session, event.tool_input), kind == base.CONTEXT and text) if n)
            if note:
                output = {"hookSpecificOutput": {"hookEventName": AFTER_TOOL, "additionalContext": note}}
        return (0, json.dumps(output) + "\n", "") if output else (0, "", "")


NOTES_FILE = "gemini-notes.json"
MAX_NOTE_SESSIONS = 16
MAX_NOTES = 32  # per session: calls rewritten but not yet finished (parallel calls, a cancelled one)


def _note_key(tool_input) -> str:
    """Which call a note is for: the command that runs, or the whole input of another tool."""
    if isinstance(tool_input, dict) and isinstance(tool_input.get("command"), str):
        return tool_input["command"]
    return json.dumps(tool_input, sort_keys=True, ensure_ascii=False)


def _notes_path() -> str:
    import os

    from dp.cachedir import cache_dir

    return os.path.join(cache_dir(), NOTES_FILE)


def remember(session: str, tool_input, note: str) -> None:
    """Keep ``note`` for the AfterTool event of the call that runs ``tool_input`` (best effort)."""
    if not session or not note:
        return
    from dp.cachedir import read_json_object, write_atomically

    path = _notes_path()
    sessions = read_json_object(path, 1 << 20)
    notes = sessions.pop(session, {})
    notes = notes if isinstance(notes, dict) else {}
    notes[_note_key(tool_input)] = note
    while len(notes) > MAX_NOTES:
        del notes[next(iter(notes))]
    sessions[session] = notes
    while len(sessions) > MAX_NOTE_SESSIONS:
        del sessions[next(iter(sessions))]
    try:
        write_atomically(path, json.dumps(sessions).encode())
    except OSError:
        pass  # the model still reads Gemini's own notice


def recall(session: str, tool_input) -> str:
    """The note kept for the call that ran ``tool_input`` ('' if none), forgotten once handed over."""
    import os

    path = _notes_path()
    if not session or not os.path.exists(path):
        return ""
    from dp.cachedir import read_json_object

    sessions = read_json_object(path, 1 << 20)
    notes = sessions.get(session)
    note = notes.pop(_note_key(tool_input), "") if isinstance(notes, dict) else ""
    if note:
        from dp.cachedir import write_atomically

        try:
            write_atomically(path, json.dumps(sessions).encode())
        except OSError:
            pass
    return note if isinstance(note, str) else ""


def failure_text(tool: str, response) -> str | None:
    """The failure an AfterTool ``tool_response`` reports (None for a success).

    A tool's ``error`` (its message); for the shell tool also a non-zero
    ``Exit Code:`` among the lines it appends after the output — only there,
    so a command that merely prints "Exit Code: 1" is not a failure.
    """
    if not isinstance(response, dict):
        return None
    error = response.get("error")
    content = _text(response.get("llmContent"))
    if error:
        message = error.get("message") if isinstance(error, dict) else error
        return str(message or content or "error")
    if tool != SHELL_TOOL:
        return None
    code = _exit_code(content)
    return content if code not in (None, "0") else None


def _text(content) -> str:
    """``llmContent`` as text (a string, or parts with ``text``), without the ``<untrusted_context>`` wrapper."""
    if isinstance(content, list):
        content = "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    text = content if isinstance(content, str) else ""
    text = text.strip()
    for opening, closing in (("<untrusted_context>", "</untrusted_context>"),):
        if text.startswith(opening) and text.endswith(closing):
            text = text[len(opening):-len(closing)].strip()
    return text


def _exit_code(content: str) -> str | None:
    """The ``Exit Code: N`` among the trailing lines the shell tool appends, if any."""
    for line in reversed(content.splitlines()[-len(_SHELL_TRAILERS):]):
        if not line.startswith(_SHELL_TRAILERS):
            break
        if line.startswith("Exit Code: "):
            return line[len("Exit Code: "):].strip()
    return None


ADAPTER = GeminiCli
# The session-start JSON this agent sends its hook (as observed in its binary; the tests send it).
SESSION_START_SAMPLE = {"session_id": "g1", "hook_event_name": "SessionStart", "source": "startup"}
