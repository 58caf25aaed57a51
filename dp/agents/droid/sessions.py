"""``dp ingest --droid-sessions``: failed calls from Factory Droid's session files.

Droid 0.225.2 writes each session to ``~/.factory/sessions/<cwd with / as ->/<session>.jsonl``, one JSON
object a line: a ``session_start`` line (``id``, ``cwd``), then ``message`` lines whose ``message`` is an
``assistant`` turn with ``tool_use`` blocks or a ``user`` turn with their ``tool_result`` (``is_error``), and
the hooks' runs as ``user`` messages naming ``hookEventName``, ``hookToolCallId`` and ``hookResults``.
No hook fires after a failed call, so the file is where failures are kept; calls dp's PreToolUse hook
refused (a ``deny`` or exit 2) are neither the model's failures nor its successes, and are left out.
Rows carry dp's tool names (``Bash`` for ``Execute``) and the ``<session>:<call id>`` key, so a file read
twice adds nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from dp.agents import get
from dp.capture.events import event_key, failure_row, now_iso, success_rows
from dp.capture.sessionfiles import Totals, ingest_files, json_lines
from dp.capture.timestamps import normalize

DEFAULT_DIR = Path("~/.factory/sessions")
WHERE = "Factory Droid keeps sessions in ~/.factory/sessions/<project>"
SOURCE = "droid-session"


def ingest(conn, directory: Path, progress=None) -> Totals:
    """Read every session file (``*.jsonl``) under ``directory`` into the store, in a stable order; one
    transaction per file."""
    files = sorted(path for path in directory.rglob("*.jsonl") if path.is_file())
    return ingest_files(conn, files, _rows, progress)


def _rows(path: Path, totals: Totals):
    droid = get("droid")
    session, cwd, calls, refused = path.stem, "", {}, set()
    for entry in json_lines(path, totals):
        if entry.get("type") == "session_start":
            session = entry["id"] if isinstance(entry.get("id"), str) else session
            cwd = entry["cwd"] if isinstance(entry.get("cwd"), str) else cwd
        message = entry.get("message") if entry.get("type") == "message" else None
        if not isinstance(message, dict):
            continue
        if _refused_by_hook(message):
            refused.add(message.get("hookToolCallId"))
        for block in message.get("content") or ():
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and isinstance(block.get("id"), str) and isinstance(block.get("name"), str):
                calls[block["id"]] = (droid.canonical(block["name"]), block.get("input"))
            elif block.get("type") == "tool_result" and block.get("tool_use_id") not in refused:
                call = calls.pop(block.get("tool_use_id"), None)
                if call is not None:
                    when = normalize(entry.get("timestamp"), now_iso())
                    yield from _result_rows(block, call, session, cwd, when, totals)


def _refused_by_hook(message: dict) -> bool:
    """Whether a hook run recorded in ``message`` refused its call (PreToolUse's ``deny`` or exit 2)."""
    if message.get("hookEventName") != "PreToolUse":
        return False
    for result in message.get("hookResults") or ():
        if not isinstance(result, dict):
            continue
        try:
            answer = json.loads(result.get("stdout") or "{}")
        except ValueError:
            answer = {}
        specific = answer.get("hookSpecificOutput") if isinstance(answer, dict) else None
        if result.get("exitCode") == 2 or isinstance(specific, dict) and specific.get("permissionDecision") == "deny":
            return True
    return False


def _result_rows(block: dict, call, session: str, cwd: str, when: str, totals: Totals):
    tool, tool_input = call
    key = event_key(session, block.get("tool_use_id"))
    if block.get("is_error") is True:
        totals.failures += 1
        content = block.get("content")
        yield failure_row(SOURCE, tool, tool_input, content if isinstance(content, str) else "", session, cwd, when, key)
    else:
        totals.successes += 1
        yield from success_rows(SOURCE, tool, tool_input, session, cwd, when, key)
