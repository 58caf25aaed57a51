"""A recording wrapper in place of pave-check and dp-capture in an agent's installed hook entries.

What a real-client test of "which calls start a dp process" reads: the wrapper appends the JSON
each start was given to its program's log, then hands it to the real program unchanged, so the
session goes on exactly as with dp's own entries. Put in place after the last rule change: a rule
change re-syncs the entries, and with them the real program's path.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from agent_home import BIN

PROGRAMS = ("pave-check", "dp-capture")


def record(settings: Path, root: Path) -> dict[str, Path]:
    """Wrap each of dp's programs named in ``settings`` with a recorder; {program: its log}."""
    text = settings.read_text()
    logs = {}
    for program in PROGRAMS:
        real = str(BIN / program)
        if real not in text:
            continue
        log, wrapper = root / f"{program}.log", root / f"recording-{program}"
        wrapper.write_text("#!/bin/bash\ninput=$(cat)\n"
                           f"printf '%s\\n' \"$input\" >> {shlex.quote(str(log))}\n"
                           f"printf '%s' \"$input\" | exec {shlex.quote(real)} \"$@\"\n")
        wrapper.chmod(0o755)
        text = text.replace(real, str(wrapper))
        logs[program] = log
    settings.write_text(text)
    return logs


def started(log: Path) -> list[tuple[str, str]]:
    """(event, tool) of each start recorded in ``log`` that was given a tool call, in order (a session's
    start and an after-batch event left out); the event is '' where the agent names none (Copilot CLI)."""
    if not log.exists():
        return []
    payloads = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    return [(payload.get("hook_event_name", ""), payload.get("tool_name") or payload.get("toolName"))
            for payload in payloads if payload.get("tool_name") or payload.get("toolName")]
