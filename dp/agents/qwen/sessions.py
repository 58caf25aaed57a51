"""``dp ingest --qwen-sessions``: failed calls from Qwen Code's session files.

Qwen Code 0.24.4 writes each session to
``~/.qwen/projects/<project>/chats/<session>.jsonl``, one JSON object a line: an
``assistant`` line's ``message.parts[].functionCall {id, name, args}`` is a call,
and a later ``tool_result`` line holds its ``functionResponse`` and
``toolCallResult {callId, status, errorType}``. A tool name the model made up
reaches no PreToolUse hook (``errorType: tool_not_registered``); the file is where
it is kept for good, as is every failure of a session that ran without dp-capture.
Rows are stored as the hook stores them — dp's tool names (``Bash``), the
``<session>:<call id>`` key the hook uses (Qwen's ``tool_call_id``) — so a call the
hook recorded is not added again. Calls a hook denied (dp's own refusals) are
neither failures nor successes of the model's.
"""

from __future__ import annotations

from pathlib import Path

from dp.agents import get
from dp.capture.events import event_key, failure_row, now_iso, success_rows
from dp.capture.sessionfiles import Totals, ingest_files, json_lines
from dp.capture.timestamps import normalize

DEFAULT_DIR = Path("~/.qwen/projects")
WHERE = "Qwen Code keeps sessions in ~/.qwen/projects/<project>/chats"
SOURCE = "qwen-session"
DENIED = "execution_denied"


def session_files(directory: Path) -> list[Path]:
    """Every ``chats/*.jsonl`` under ``directory`` (or the files of one ``chats`` directory), in a stable order."""
    return sorted(path for path in directory.rglob("*.jsonl") if path.is_file() and path.parent.name == "chats")


def ingest(conn, directory: Path, progress=None) -> Totals:
    """Read every session file under ``directory`` into the store; one transaction per file."""
    return ingest_files(conn, session_files(directory), _rows, progress)


def _rows(path: Path, totals: Totals):
    qwen = get("qwen")
    calls = {}  # call id → (tool name, arguments)
    for entry in json_lines(path, totals):
        message = entry.get("message") if isinstance(entry.get("message"), dict) else {}
        parts = [part for part in message.get("parts") or () if isinstance(part, dict)]
        if entry.get("type") == "assistant":
            for part in parts:
                call = part.get("functionCall")
                if isinstance(call, dict) and isinstance(call.get("id"), str) and isinstance(call.get("name"), str):
                    calls[call["id"]] = (call["name"], call.get("args"))
        elif entry.get("type") == "tool_result":
            result = entry.get("toolCallResult") if isinstance(entry.get("toolCallResult"), dict) else {}
            call = calls.pop(result.get("callId"), None)
            if call is not None and result.get("errorType") != DENIED:
                yield from _result_rows(qwen, entry, result, call, parts, totals)


def _result_rows(qwen, entry: dict, result: dict, call, parts: list, totals: Totals):
    name, arguments = call
    tool = qwen.canonical(name)
    session = entry.get("sessionId") if isinstance(entry.get("sessionId"), str) else ""
    key = event_key(session, result.get("callId"))
    when = normalize(entry.get("timestamp"), now_iso())
    cwd = entry.get("cwd") if isinstance(entry.get("cwd"), str) else ""
    if result.get("status") == "error":
        totals.failures += 1
        yield failure_row(SOURCE, tool, arguments, _response_text(parts), session, cwd, when, key)
    else:
        totals.successes += 1
        yield from success_rows(SOURCE, tool, arguments, session, cwd, when, key)


def _response_text(parts: list) -> str:
    """What the model read: the ``error`` (or ``output``) of the call's function response."""
    for part in parts:
        response = (part.get("functionResponse") or {}).get("response")
        if isinstance(response, dict):
            text = response.get("error", response.get("output"))
            if isinstance(text, str):
                return text
    return ""
