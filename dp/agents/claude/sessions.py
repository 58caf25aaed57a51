"""``dp ingest --claude-transcripts``: failed calls from Claude Code's session transcripts.

A transcript (``~/.claude/projects/<project>/<session>.jsonl``) has one line
per content block: an ``assistant`` line holds a ``tool_use`` block, a later
``user`` line its ``tool_result`` with ``is_error``. It is the only place
Claude Code reports a hallucinated tool name (``No such tool available:
read_file`` is rejected before any hook runs). Lines of the client's own
types (``queue-operation``, ``attachment``, ``api-request`` …), truncated
and malformed lines are skipped. Each call's key is ``<session>:<tool_use_id>``,
the same the capture hook uses, so reading a transcript twice, or one the hook
already saw, adds nothing.
"""

from __future__ import annotations

from pathlib import Path

from dp.capture.events import event_key, failure_row, now_iso, success_rows
from dp.capture.sessionfiles import Totals, ingest_files, json_lines
from dp.capture.timestamps import normalize

DEFAULT_DIR = Path("~/.claude/projects")
SOURCE = "transcript"
WHERE = "Claude Code keeps transcripts in ~/.claude/projects"


def transcript_files(directory: Path) -> list[Path]:
    """Every ``*.jsonl`` under ``directory`` (subagent transcripts included), in a stable order."""
    return sorted(path for path in directory.rglob("*.jsonl") if path.is_file())


def ingest(conn, directory: Path, progress=None) -> Totals:
    """Read every transcript under ``directory`` into the store; one transaction per file.

    ``progress(done, total, path)`` is called after each file.
    """
    return ingest_files(conn, transcript_files(directory), _rows, progress)


def _rows(path: Path, totals: Totals):
    calls = {}  # tool_use id → (name, input)
    for entry in json_lines(path, totals):
        kind = entry.get("type")
        message = entry.get("message")
        blocks = message.get("content") if isinstance(message, dict) else None
        if kind not in ("assistant", "user") or not isinstance(blocks, list):
            continue
        for block in blocks:
            if not isinstance(block, dict):
                continue
            if kind == "assistant" and block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                calls[block["id"]] = (block.get("name"), block.get("input"))
            elif kind == "user" and block.get("type") == "tool_result":
                call = calls.pop(block.get("tool_use_id"), None)
                if call is not None and isinstance(call[0], str) and call[0]:
                    yield from _result_rows(entry, block, call, path, totals)


def _result_rows(entry: dict, block: dict, call, path: Path, totals: Totals):
    name, tool_input = call
    session = entry.get("sessionId") if isinstance(entry.get("sessionId"), str) else path.stem
    key = event_key(session, block.get("tool_use_id"))
    when = normalize(entry.get("timestamp"), now_iso())
    cwd = entry.get("cwd")
    if block.get("is_error") is True:
        totals.failures += 1
        yield failure_row(SOURCE, name, tool_input, result_text(block.get("content")), session, cwd, when, key)
    else:
        totals.successes += 1
        yield from success_rows(SOURCE, name, tool_input, session, cwd, when, key)


def result_text(content) -> str:
    """A tool_result's text (a string or text blocks), without the client's ``<tool_use_error>`` wrapper."""
    if isinstance(content, list):
        content = "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    text = content if isinstance(content, str) else ""
    for tag in ("<tool_use_error>", "</tool_use_error>"):
        text = text.replace(tag, "")
    return text.strip()
