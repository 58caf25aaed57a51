"""Public SWE-agent trajectories → Claude Code transcripts (the session files ``dp ingest`` reads).

The replay benchmark's session files are built with this from public
trajectory files (sources and commits in ``bench/README.md``). Only what the
benchmark needs is kept: each shell call's command and the first
``MAX_RESULT_CHARS`` of its output, redacted with dp's own redaction; the
agent's own tools (``str_replace_editor``, ``submit`` …) are left out. A
trajectory has no exit codes, so a call failed when its output says so the way
a shell does (``command not found``, ``No such file or directory`` …, the
patterns below). Each trajectory becomes one session; its calls are given
times one second apart, and trajectories one hour apart in the order given,
so "split by time" splits by that order.

    python bench/trajectories_to_transcripts.py OUT_DIR SOURCE_LABEL FILE.traj …
"""

from __future__ import annotations

import json
import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from dp.capture.redact import redact_text

MAX_RESULT_CHARS = 300
MAX_COMMAND_CHARS = 2000
START = datetime(2025, 1, 1, tzinfo=timezone.utc)
# SWE-agent's own commands: not shell calls.
AGENT_TOOLS = frozenset({"str_replace_editor", "submit", "open", "goto", "scroll_up", "scroll_down", "edit", "create",
                         "search_file", "find_file", "search_dir", "exit_cost", "exit_forfeit", "skip", "filemap",
                         "python_code", "exit_format", "exit_context", "exit_api"})
FAILED = re.compile(r"command not found|^[^\n]*: not found|No such file or directory|unrecognized (?:option|arguments)|"
                    r"invalid option|unknown option|Traceback \(most recent call last\)|^usage: |^error: ", re.M)


def shell_calls(trajectory: dict):
    """(command, output, failed) for each shell call of a SWE-agent trajectory, in order."""
    for step in trajectory.get("trajectory") or ():
        action = (step.get("action") or "").strip()
        if not action or action.split()[0] in AGENT_TOOLS:
            continue
        output = step.get("observation") or ""
        yield action[:MAX_COMMAND_CHARS], output, bool(FAILED.search(output[:4000]))


def transcript(session: str, calls, start: datetime) -> str:
    """Claude Code transcript lines for ``calls`` (the shape ``dp ingest --claude-transcripts`` reads)."""
    lines = []
    for n, (command, output, failed) in enumerate(calls):
        when = (start + timedelta(seconds=2 * n)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        then = (start + timedelta(seconds=2 * n + 1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        call_id = f"toolu_{session[-12:]}_{n:04d}"
        lines.append({"type": "assistant", "sessionId": session, "timestamp": when, "cwd": "/testbed",
                      "message": {"role": "assistant", "content": [
                          {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}]}})
        text = redact_text(output.replace("\r\n", "\n")[:MAX_RESULT_CHARS])
        if failed and "Exit code" not in text:
            text = "Exit code 1\n" + text
        lines.append({"type": "user", "sessionId": session, "timestamp": then, "cwd": "/testbed",
                      "message": {"role": "user", "content": [
                          {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": failed}]}})
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    out, label, files = Path(argv[0]), argv[1], argv[2:]
    out.mkdir(parents=True, exist_ok=True)
    existing = len(list(out.glob("*.jsonl")))
    for n, name in enumerate(files):
        calls = list(shell_calls(json.loads(Path(name).read_text(encoding="utf-8"))))
        if not calls:
            continue
        session = f"{label}-{Path(name).stem}"[:80]
        start = START + timedelta(hours=existing + n)
        (out / f"{session}.jsonl").write_text(transcript(session, calls, start), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
