"""Codex CLI's session files ("rollouts"): what a shell command really did.

Codex writes every session to ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<id>.jsonl``
(the hooks get its path as ``transcript_path``). One JSON object per line,
``{"timestamp", "type", "payload"}``; the lines dp reads (Codex CLI 0.169.0):

* ``session_meta``: ``payload.session_id`` (also ``id``) and ``cwd``;
* ``response_item`` with ``payload.type == "function_call"``: the model's call
  (``name``, ``arguments`` as a JSON string, ``call_id``) — the shell tool is
  ``exec_command`` with ``cmd`` (and ``workdir``);
* ``response_item`` with ``payload.type == "function_call_output"``: what the
  model read back (``unsupported call: NAME`` for a tool that does not exist);
* ``event_msg`` with ``payload.type == "item_completed"`` and
  ``payload.item.type == "CommandExecution"``: the command's ``exit_code``,
  ``status`` and ``aggregated_output``, with ``item.id`` the call id, and the
  ``command`` that ran (``["/bin/bash", "-lc", TEXT]``: a hook's rewrite, where
  the model's ``function_call`` keeps what it wrote).

PostToolUse carries only the command's output text, no exit code and no
failure flag; the rollout holds the exit code, and Codex has written it there
before it starts PostToolUse (observed in every run). So the capture hook
looks the call up here. Stdlib only: the capture hook imports this.
"""

from __future__ import annotations

import json
import os

from dp.jsonobject import json_object

SHELL_TOOL = "exec_command"
# The tail of a rollout the capture hook reads for one call (it was written just now).
TAIL_BYTES = 4 << 20
MAX_LINE_BYTES = 32 << 20
UNSUPPORTED = "unsupported call: "


def entries(lines, skipped=None):
    """The JSON objects of rollout lines (bytes); unreadable ones are counted in ``skipped[0]`` and passed over."""
    for raw in lines:
        if len(raw) > MAX_LINE_BYTES:
            if skipped is not None:
                skipped[0] += 1
            continue
        try:
            entry = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):
            entry = None
        if isinstance(entry, dict) and isinstance(entry.get("payload"), dict):
            yield entry
        elif raw.strip() and skipped is not None:
            skipped[0] += 1


def command_execution(entry: dict) -> dict | None:
    """The ``CommandExecution`` item of an ``item_completed`` line, else None."""
    payload = entry.get("payload") or {}
    if entry.get("type") != "event_msg" or payload.get("type") != "item_completed":
        return None
    item = payload.get("item")
    return item if isinstance(item, dict) and item.get("type") == "CommandExecution" else None


def executed(item: dict) -> str | None:
    """The command a ``CommandExecution`` item ran, as the shell got it (``["/bin/bash", "-lc", TEXT]``): after
    a PreToolUse hook rewrote the call, this is the rewritten command, while the model's ``function_call`` keeps
    the one it wrote (Codex CLI 0.169.0). None when the item says it otherwise."""
    command = item.get("command")
    if isinstance(command, list) and len(command) == 3 and all(isinstance(part, str) for part in command) \
            and command[1] in ("-lc", "-c"):
        return command[2]
    return None


def exit_code(transcript_path, call_id) -> int | None:
    """The exit code Codex recorded for shell call ``call_id``, read from the end of its rollout; None if absent."""
    if not isinstance(transcript_path, str) or not transcript_path or not isinstance(call_id, str) or not call_id:
        return None
    try:
        with open(transcript_path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - TAIL_BYTES))
            tail = handle.read()
    except OSError:
        return None
    lines = tail.split(b"\n")
    if size > TAIL_BYTES:
        lines = lines[1:]  # the first line is cut
    needle = call_id.encode("utf-8")
    for entry in entries(line for line in reversed(lines) if needle in line):
        item = command_execution(entry)
        if item is not None and item.get("id") == call_id:
            code = item.get("exit_code")
            return code if isinstance(code, int) and not isinstance(code, bool) else None
    return None


def failure_text(code: int, output) -> str:
    """The error dp stores for a shell command that exited non-zero: its exit code, then its output
    (the hook and ``dp ingest --codex-sessions`` store the same text for the same call)."""
    if not isinstance(output, str):
        output = "" if output is None else json.dumps(output)
    return f"Exit code {code}\n{output}".rstrip()


def call_arguments(payload: dict) -> dict:
    """A ``function_call``'s arguments as an object ({} when they are not a JSON object)."""
    return json_object(payload.get("arguments"))


def session_files(directory) -> list:
    """Every rollout under ``directory`` (``sessions`` and ``archived_sessions`` alike), in a stable order."""
    from pathlib import Path

    return sorted(path for path in Path(directory).rglob("*.jsonl") if path.is_file())


def default_directory():
    """Where Codex keeps its sessions: ``$CODEX_HOME/sessions``, ``~/.codex/sessions`` by default."""
    from pathlib import Path

    home = os.environ.get("CODEX_HOME")
    return (Path(home).expanduser() if home else Path.home() / ".codex") / "sessions"
