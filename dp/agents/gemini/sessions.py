"""``dp ingest --gemini-sessions``: failed calls from Gemini CLI's saved sessions.

Gemini CLI (0.61.0) keeps every session as JSONL in
``~/.gemini/tmp/<project>/chats/session-*.jsonl``: a first line with the
``sessionId``, then one line per message — a ``gemini`` message is written
again each time it changes, the last time with its ``toolCalls`` (``id``,
``name``, ``args``, ``status`` ``success``/``error``, ``result`` as the
``functionResponse`` parts the model read, ``timestamp``). The project's
directory is in ``<project>/.project_root``. It is the only record of a
tool name Gemini does not know (``Tool "x" not found. Did you mean …``),
which never reaches a hook.

A failed shell command is a ``success`` there; its output says ``Exit
Code: N``, read the way the capture hook reads it. Each call's key is
``<session>:<call id>``, so reading a session twice adds nothing; a session
the AfterTool hook already captured (rows of source ``gemini``) is skipped,
since the hook's rows carry no call id to match.
"""

from __future__ import annotations

from pathlib import Path

from dp.agents import get
from dp.agents.gemini.wire import SHELL_TOOL, failure_text
from dp.capture.events import event_key, failure_row, now_iso, success_rows
from dp.capture.sessionfiles import Totals, json_lines
from dp.capture.timestamps import normalize
from dp.store import desires

DEFAULT_DIR = Path("~/.gemini/tmp")
SOURCE = "gemini-session"
WHERE = "Gemini CLI keeps sessions in ~/.gemini/tmp/<project>/chats"
GEMINI = get("gemini")
HOOK_SOURCE = GEMINI.capture_source
MAX_ROOT_BYTES = 4096


def session_files(directory: Path) -> list[Path]:
    """Every saved session under ``directory``, in a stable order."""
    return sorted(path for path in directory.rglob("session-*.jsonl") if path.is_file() and path.parent.name == "chats")


def ingest(conn, directory: Path, progress=None) -> Totals:
    """Read every session under ``directory`` into the store; one transaction per file."""
    files = session_files(directory)
    totals = Totals()
    for index, path in enumerate(files, 1):
        rows = list(_rows(conn, path, totals))
        totals.added += desires.add(conn, rows)
        totals.files += 1
        if progress:
            progress(index, len(files), path)
    return totals


def _rows(conn, path: Path, totals: Totals):
    session, calls = path.stem, {}
    for entry in json_lines(path, totals):
        if isinstance(entry.get("sessionId"), str) and "toolCalls" not in entry:
            session = entry["sessionId"]
        if entry.get("type") == "gemini" and isinstance(entry.get("toolCalls"), list):
            for call in entry["toolCalls"]:
                if isinstance(call, dict) and isinstance(call.get("id"), str) and isinstance(call.get("name"), str):
                    calls[call["id"]] = (call, entry.get("timestamp"))  # a later copy of the message wins
    if not calls or desires.has_session(conn, HOOK_SOURCE, session):
        return
    cwd = _project_root(path)
    for call_id, (call, written) in calls.items():
        yield from _call_rows(call, call_id, session, cwd, normalize(call.get("timestamp") or written, now_iso()),
                              totals)


def _call_rows(call: dict, call_id: str, session: str, cwd: str, when: str, totals: Totals):
    name, args = call["name"], call.get("args")
    tool = GEMINI.canonical(name)
    output, error = _result(call.get("result"))
    key = event_key(session, call_id)
    if call.get("status") == "error" or error:
        totals.failures += 1
        yield failure_row(SOURCE, tool, args, error or output or "error", session, cwd, when, key)
        return
    failure = failure_text(name, {"llmContent": without_hooks(output)}) if name == SHELL_TOOL else None
    if failure is not None:
        totals.failures += 1
        yield failure_row(SOURCE, tool, args, failure, session, cwd, when, key)
        return
    totals.successes += 1
    yield from success_rows(SOURCE, tool, args, session, cwd, when, key)


# What Gemini CLI (0.61.0) saves after a tool's output when hooks acted on the call: each hook's
# ``additionalContext`` as ``<hook_context>…</hook_context>`` (dp's note of a rewrite, an answer after a
# failure), and after a rewrite this line. The model read them after the output; the hook saw the output alone.
_REWRITTEN = "[System] Tool input parameters were modified by a hook before execution."
_CONTEXT_OPEN, _CONTEXT_CLOSE = "<hook_context>", "</hook_context>"


def without_hooks(output: str) -> str:
    """A saved shell result as the AfterTool hook saw it: what hooks added after the output taken off, so the
    shell tool's ``Exit Code:`` is its last lines again (else every rewritten or answered call that failed
    would be read as a success)."""
    text = output.rstrip()
    while True:
        if text.endswith(_REWRITTEN):
            text = text[:-len(_REWRITTEN)].rstrip()
        elif text.endswith(_CONTEXT_CLOSE) and _CONTEXT_OPEN in text:
            text = text[:text.rindex(_CONTEXT_OPEN)].rstrip()
        else:
            return text


def _result(parts) -> tuple[str, str]:
    """(output, error) of a call's ``functionResponse`` parts."""
    output, error = [], []
    for part in parts if isinstance(parts, list) else ():
        response = part.get("functionResponse") if isinstance(part, dict) else None
        inner = response.get("response") if isinstance(response, dict) else None
        if not isinstance(inner, dict):
            continue
        if isinstance(inner.get("output"), str):
            output.append(inner["output"])
        if isinstance(inner.get("error"), str):
            error.append(inner["error"])
    return "\n".join(output), "\n".join(error)


def _project_root(path: Path) -> str:
    """The project directory Gemini recorded for this session's folder ('' when unknown)."""
    marker = path.parent.parent / ".project_root"
    try:
        with open(marker, "rb") as handle:
            return handle.read(MAX_ROOT_BYTES).decode("utf-8", "replace").strip()
    except OSError:
        return ""
