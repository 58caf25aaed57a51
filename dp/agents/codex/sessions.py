"""``dp ingest --codex-sessions``: failed calls from Codex CLI's session files.

Codex's hooks miss two kinds of failure that its session files hold
(``dp/agents/codex/rollout.py`` describes the format): a tool name the model made up
never reaches a hook (the model is told ``unsupported call: NAME``), and a
PostToolUse that ran while dp-capture was not installed is gone. Each shell
call is stored as the hook stores it — tool ``Bash``, input ``{"command": …}``,
``Exit code N`` and the output as the error — under the same key
(``<session>:<call id>``), so a call the hook already recorded is not added
again, and reading a file twice adds nothing.
"""

from __future__ import annotations

from pathlib import Path

from dp.agents.codex import rollout
from dp.capture.events import event_key, failure_row, now_iso, success_rows
from dp.capture.sessionfiles import Totals, ingest_files
from dp.capture.timestamps import normalize

SOURCE = "codex-session"
WHERE = "Codex CLI keeps sessions in ~/.codex/sessions, or $CODEX_HOME/sessions"
DEFAULT_DIR = rollout.default_directory()  # read when dp ingest imports this, so $CODEX_HOME counts


def ingest(conn, directory: Path, progress=None) -> Totals:
    """Read every session file under ``directory`` into the store; one transaction per file."""
    return ingest_files(conn, rollout.session_files(directory), _rows, progress)


class _Session:
    """What one file says about its session so far: id, working directory, open calls."""

    def __init__(self, path: Path):
        self.id = "-".join(path.stem.split("-")[-5:])  # rollout-<date>T<time>-<uuid>, until session_meta says
        self.cwd = ""
        self.calls: dict = {}  # call id → (tool name, arguments)


def _rows(path: Path, totals: Totals):
    session = _Session(path)
    with open(path, "rb") as handle:
        lines = _counted(handle, totals)
        skipped = [0]
        for entry in rollout.entries(lines, skipped):
            yield from _entry_rows(entry, session, totals)
        totals.skipped_lines += skipped[0]


def _counted(handle, totals: Totals):
    for raw in handle:
        totals.lines += 1
        yield raw


def _entry_rows(entry: dict, session: _Session, totals: Totals):
    payload, kind = entry["payload"], entry.get("type")
    when = normalize(entry.get("timestamp"), now_iso())
    if kind == "session_meta":
        found = payload.get("session_id") or payload.get("id")
        session.id = found if isinstance(found, str) and found else session.id
        session.cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else ""
    elif kind == "response_item" and payload.get("type") == "function_call" and isinstance(payload.get("call_id"), str):
        session.calls[payload["call_id"]] = (payload.get("name"), rollout.call_arguments(payload))
    elif kind == "response_item" and payload.get("type") == "function_call_output":
        yield from _unknown_tool(payload, session, when, totals)
    else:
        item = rollout.command_execution(entry)
        if item is not None:
            yield from _command(item, session, when, totals)


def _unknown_tool(payload: dict, session: _Session, when: str, totals: Totals):
    """A call of a tool Codex does not have: the only trace of a made-up tool name."""
    output = payload.get("output")
    call = session.calls.pop(payload.get("call_id"), None)
    if call is None or not isinstance(output, str) or not output.startswith(rollout.UNSUPPORTED):
        return
    name, arguments = call
    if isinstance(name, str) and name:
        totals.failures += 1
        key = event_key(session.id, payload.get("call_id"))
        yield failure_row(SOURCE, name, arguments, output, session.id, session.cwd, when, key)


def _command(item: dict, session: _Session, when: str, totals: Totals):
    call = session.calls.pop(item.get("id"), None)
    arguments = call[1] if call else {}
    command = rollout.executed(item) or arguments.get("cmd")  # what ran: a rewrite's result, as the hook stores it
    if not isinstance(command, str) or not command:
        return
    tool_input = {"command": command}
    key = event_key(session.id, item.get("id"))
    code, output = item.get("exit_code"), item.get("aggregated_output")
    cwd = arguments.get("workdir") if isinstance(arguments.get("workdir"), str) else session.cwd
    if isinstance(code, int) and not isinstance(code, bool) and code != 0:
        totals.failures += 1
        yield failure_row(SOURCE, "Bash", tool_input, rollout.failure_text(code, output), session.id, cwd, when, key)
    else:
        totals.successes += 1
        yield from success_rows(SOURCE, "Bash", tool_input, session.id, cwd, when, key)
