"""From a tool call to the rows stored for it.

A failure keeps its redacted input and error plus the shape of the command
that failed; a success keeps only shapes (tool, command word, subcommand,
flags) — one row per simple command of a Bash string. Shapes are read from
the redacted command, so no token or password can become a shape's program
or subcommand (and ``dp.shell.shape`` keeps an option's name, never its value). Shared by the capture
hook, the transcript reader and the Go-database import, so every source
stores the same thing for the same call; ``dp.store.desires`` stores the rows.
"""

from __future__ import annotations

import json
import time

from dp.capture.redact import MAX_SCAN_CHARS, clean_error, clean_input, redact_command
from dp.shell.shape import Shape, shapes

BASH = "Bash"
MAX_KEY_CHARS = 200
# Calls after a failure whose command is kept (redacted): what the agent ran next is the answer
# dp.learn learns; every other success keeps its shape only.
FOLLOW_CALLS = 5
CALL_COMMAND = "call_command"  # a success row's command, in memory only: never a stored column

# (error class, lower-case phrases), first match wins: the order puts the
# specific messages before the generic ones (`bash: x: command not found`
# also ends in "exit code 127").
ERROR_CLASSES = (
    ("unknown tool", ("no such tool available", "not found. did you mean one of",  # Claude Code, Gemini CLI
                      "unsupported call: ",  # Codex CLI
                      "tried to call unavailable tool")),  # the AI SDK's NoSuchToolError, which clients show
    ("command not found", ("command not found", ": not found", "executable file not found")),
    ("unknown subcommand", ("is not a git command", "unknown command", "no such command", "unrecognized subcommand",
                            "unknown subcommand", "invalid choice", "is not a valid command", "unrecognized command")),
    ("unknown option", ("unrecognized option", "unknown option", "invalid option", "illegal option",
                        "unexpected argument", "unknown flag", "unknown argument", "no such option",
                        "unrecognized arguments", "unknown shorthand flag", "invalid argument",
                        ": is unknown",  # curl: option --tokn: is unknown
                        "bad option",  # node: bad option: --foo
                        "flag provided but not defined",  # Go's flag package
                        "unknown switch", "unknown compiler option",  # git (-x); tsc
                        "which wasn't expected")),  # clap 2: Found argument '--foo' which wasn't expected
    ("no such file", ("no such file or directory", "does not exist", "file not found", "not a directory")),
    ("permission denied", ("permission denied", "operation not permitted", "requires approval")),
    ("non-zero exit", ("exit code", "exit status")),
)


def error_class(error) -> str:
    """The failure's class (``command not found``, ``unknown option`` …), ``error`` when none fits."""
    text = (error or "").lower() if isinstance(error, str) else ""
    for name, phrases in ERROR_CLASSES:
        if any(phrase in text for phrase in phrases):
            return name
    return "error"


def now_iso() -> str:
    """UTC, microseconds, ``Z``: sorts as text, like every stored timestamp."""
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1_000_000):06d}Z"


def event_key(session_id, tool_use_id) -> str | None:
    """``<session>:<tool_use_id>``, the identity shared by the hook and the transcript of one call."""
    if not isinstance(tool_use_id, str) or not tool_use_id:
        return None
    return f"{str(session_id or '')[:MAX_KEY_CHARS]}:{tool_use_id[:MAX_KEY_CHARS]}"


def failing_shape(command: str, error) -> Shape | None:
    """The simple command the error is about: the one it names, else the last one that ran. The 1 of a
    ``2>&1`` that the shape split takes for a command is never one (bash's ``line 1:`` would name it). A
    program run by a runner is named by either (``python3 -m py_compile``: ``python3: command not found``
    is that call's failure, not the ``&& echo`` after it)."""
    found = [shape for shape in shapes(command) if not shape.command.isdigit()]
    if not found:
        return None
    text = error if isinstance(error, str) else ""
    for shape in reversed(found):
        if any(_named(name, text) for name in {shape.program, shape.command.split(" ", 1)[0]} if name):
            return shape
    return found[-1]


def _named(name: str, text: str) -> bool:
    """Whether the error ``text`` names program ``name`` (``name: …``, ``'name'``, or opening with it)."""
    return f"{name}:" in text or f"'{name}'" in text or f"{name} " in text[: len(name) + 1]


def failure_row(source: str, tool_name: str, tool_input, error, session_id, cwd, timestamp, key) -> dict:
    """The row for one failed call (input and error redacted and bounded; the error also loses every
    secret found in the input, which a program may print back: ``unknown option '-pSECRET'``)."""
    tool_input = tool_input if isinstance(tool_input, dict) else {}
    found: set = set()
    stored_input = json.dumps(clean_input(tool_input, found), ensure_ascii=False)
    error_text = clean_error(error, found)
    shape = None
    if tool_name == BASH and isinstance(tool_input.get("command"), str):
        shape = failing_shape(redact_command(tool_input["command"]), error_text)
    klass = error_class(error[:MAX_SCAN_CHARS] if isinstance(error, str) else error_text)
    return _row(source, key, "failure", tool_name, stored_input, error_text, shape, tool_input, klass, session_id, cwd,
                timestamp)


def success_rows(source: str, tool_name: str, tool_input, session_id, cwd, timestamp, key) -> list[dict]:
    """The rows for one successful call: its shapes only, never its input."""
    tool_input = tool_input if isinstance(tool_input, dict) else {}
    command = tool_input.get("command") if tool_name == BASH else None
    found = shapes(redact_command(command)) if isinstance(command, str) else []
    rows = []
    for index, shape in enumerate(found or [None]):
        row_key = f"{key}#{index}" if key else None
        rows.append(_row(source, row_key, "success", tool_name, None, None, shape, tool_input, "", session_id, cwd,
                         timestamp))
    if found:
        rows[0][CALL_COMMAND] = tool_input["command"]
    return rows


def keep_command(row: dict) -> dict:
    """A success row that follows a failure: its command stored too, redacted like a failure's input."""
    command = row.pop(CALL_COMMAND, None)
    if isinstance(command, str):
        row["tool_input"] = json.dumps(clean_input({"command": command}), ensure_ascii=False)
    return row


def keep_after_failures(rows):
    """``rows`` in order, each success within ``FOLLOW_CALLS`` calls after a failure of its
    session keeping its command (``keep_command``); the session-file readers' pass."""
    since_failure: dict[str, int] = {}
    for row in rows:
        session = row["session_id"]
        if row["outcome"] == "failure":
            since_failure[session] = 0
        elif CALL_COMMAND in row and session in since_failure:
            since_failure[session] += 1
            if since_failure[session] <= FOLLOW_CALLS:
                keep_command(row)
            else:
                del since_failure[session]
        row.pop(CALL_COMMAND, None)
        yield row


def _row(source, key, outcome, tool_name, tool_input_json, error, shape, tool_input, klass, session_id, cwd, timestamp):
    return {
        "source": source,
        "event_key": key,
        "outcome": outcome,
        "tool_name": str(tool_name)[:MAX_KEY_CHARS],
        "tool_input": tool_input_json,
        "error": error,
        "command": shape.command[:MAX_KEY_CHARS] if shape else "",
        "subcommand": shape.subcommand if shape else "",
        "flags": json.dumps(list(shape.flags) if shape else []),
        "input_keys": json.dumps(sorted(str(key)[:64] for key in tool_input)[:32]),
        "error_class": klass,
        "session_id": str(session_id or "")[:MAX_KEY_CHARS],
        "cwd": str(cwd or "")[:1024],
        "timestamp": timestamp,
    }
