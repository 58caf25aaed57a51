"""Public agent trajectories → Claude Code transcripts (the session files ``dp ingest`` reads).

The replay benchmark's session files are built with this from public
trajectory files (sources and commits in ``bench/README.md``). Each file's
format is recognised by its content:

* a SWE-agent trajectory (``*.traj``: JSON with a ``trajectory`` list);
* a Claude Code session as ``claude -p --output-format stream-json`` prints
  it (JSON lines, a ``system``/``init`` line, then ``assistant``/``user`` lines);
* a Codex CLI session as ``codex exec --json`` prints it (``thread.started``,
  ``item.completed`` lines with ``command_execution`` items and exit codes);
* a Codex CLI session rendered as Markdown by ai-workflow-agent
  (``# Codex Agent 実行ログ``: a ``コマンド`` line and ``failed (exit_code=N)``
  per command).

Only what the benchmark needs is kept: each tool call (a Claude Code session
keeps every tool, the others their shell calls) and the first
``MAX_RESULT_CHARS`` of its output, redacted with dp's own redaction. A
Codex command is the one its ``bash -lc`` wrapper runs. A SWE-agent
trajectory has no exit codes, so a call failed when its output says so the
way a shell does (``command not found``, ``No such file or directory`` …, the
patterns below); the other formats record exit codes or ``is_error``. Each
file becomes one session; its calls are given times two seconds apart, and
files one hour apart in the order given, so "split by time" splits by that
order. With ``--git``, the files are every version of the files so named in a
repository's history (each distinct content once, a Markdown rendering
skipped where its raw log is beside it), and a session starts at its commit's
time (plus a minute per file of the same run), so sessions of several
repositories interleave by their real time.

    python bench/trajectories_to_transcripts.py OUT_DIR SOURCE_LABEL FILE …
    python bench/trajectories_to_transcripts.py --git REPO OUT_DIR SOURCE_LABEL [NAME …]
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
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
CODEX_MARKDOWN = "# Codex Agent"
# One command of a rendered Codex log: the command in backticks, its status line, its output block.
MARKDOWN_CALL = re.compile(r"^\*\*コマンド\*\*: `(?P<command>.*?)`\n\*\*ステータス\*\*: (?P<status>\w+)"
                           r"(?: \(exit_code=(?P<code>-?\d+)\))?\n(?:\n```text\n(?P<output>.*?)\n```)?", re.M | re.S)


def shell_calls(trajectory: dict):
    """(tool, input, output, failed) for each shell call of a SWE-agent trajectory, in order."""
    for step in trajectory.get("trajectory") or ():
        action = (step.get("action") or "").strip()
        if not action or action.split()[0] in AGENT_TOOLS:
            continue
        output = step.get("observation") or ""
        yield "Bash", {"command": action[:MAX_COMMAND_CHARS]}, output, bool(FAILED.search(output[:4000]))


def stream_json_calls(lines: list[dict]):
    """(tool, input, output, failed) for each tool call of a ``claude -p --output-format stream-json`` session."""
    calls = {}
    for entry in lines:
        message = entry.get("message")
        blocks = message.get("content") if isinstance(message, dict) else None
        if not isinstance(blocks, list):
            continue
        for block in blocks:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                calls[block["id"]] = (block.get("name"), block.get("input"))
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
                name, tool_input = calls.pop(block["tool_use_id"])
                if isinstance(name, str) and isinstance(tool_input, dict):
                    yield name, tool_input, _text(block.get("content")), block.get("is_error") is True


def _text(content) -> str:
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return content if isinstance(content, str) else ""


def codex_json_calls(lines: list[dict]):
    """(tool, input, output, failed) for each command of a ``codex exec --json`` session."""
    for entry in lines:
        item = entry.get("item") if entry.get("type") == "item.completed" else None
        if isinstance(item, dict) and item.get("type") == "command_execution" and isinstance(item.get("command"), str):
            code = item.get("exit_code")
            if isinstance(code, int):
                yield _codex_call(item["command"], item.get("aggregated_output") or "", code)


def codex_markdown_calls(text: str):
    """(tool, input, output, failed) for each command of a Codex session rendered as Markdown."""
    for found in MARKDOWN_CALL.finditer(text):
        if found.group("code") is not None:
            yield _codex_call(found.group("command"), found.group("output") or "", int(found.group("code")))


def _codex_call(command: str, output: str, code: int):
    """A Codex command as the agent wrote it (the script its ``bash -lc`` wrapper runs), with its exit code."""
    inner = unwrap(command)
    text = f"Exit code {code}\n{output}" if code else output
    return "Bash", {"command": inner[:MAX_COMMAND_CHARS]}, text, code != 0


def unwrap(command: str) -> str:
    """The script of ``bash -lc 'SCRIPT'`` (``/bin/bash -lc``, ``bash -c`` …); any other command as it is."""
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    if len(words) == 3 and words[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh") and words[1] in ("-lc", "-c"):
        return words[2]
    return command


def calls_of(path: Path):
    """The calls of one trajectory file, its format recognised by its content; [] for any other file."""
    return calls_in(path.read_text(encoding="utf-8", errors="replace"))


def calls_in(text: str):
    """The calls of one trajectory file's text, its format recognised by its content."""
    if text.startswith(CODEX_MARKDOWN):
        return list(codex_markdown_calls(text))
    stripped = text.lstrip()
    if stripped.startswith("{") and "\n{" not in stripped[:200000].rstrip():
        try:
            return list(shell_calls(json.loads(text)))
        except (ValueError, AttributeError):
            pass
    lines = []
    for line in text.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict):
            lines.append(entry)
    if any(str(entry.get("type", "")).startswith(("thread.", "item.")) for entry in lines[:5]):
        return list(codex_json_calls(lines))
    return list(stream_json_calls(lines))


def transcript(session: str, calls, start: datetime, cwd: str = "/testbed") -> str:
    """Claude Code transcript lines for ``calls`` (the shape ``dp ingest --claude-transcripts`` reads), run
    in ``cwd``: one directory per source repository (``/testbed/LABEL``), so that an answer dp learns in
    one repository's sessions acts in that repository's later sessions only, as it would on their machines."""
    lines = []
    for n, (tool, tool_input, output, failed) in enumerate(calls):
        when = (start + timedelta(seconds=2 * n)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        then = (start + timedelta(seconds=2 * n + 1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        call_id = f"toolu_{session[-12:]}_{n:04d}"
        lines.append({"type": "assistant", "sessionId": session, "timestamp": when, "cwd": cwd,
                      "message": {"role": "assistant", "content": [
                          {"type": "tool_use", "id": call_id, "name": tool, "input": tool_input}]}})
        text = redact_text(output.replace("\r\n", "\n")[:MAX_RESULT_CHARS])
        if failed and tool == "Bash" and "Exit code" not in text:
            text = "Exit code 1\n" + text
        lines.append({"type": "user", "sessionId": session, "timestamp": then, "cwd": cwd,
                      "message": {"role": "user", "content": [
                          {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": failed}]}})
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def history(repo: str, names: tuple[str, ...]):
    """(commit time, path, text) of every version of a file named ``names`` in the history of the git
    repository ``repo`` up to its checked-out commit, oldest commit first, each distinct content once. A session rendered as
    Markdown beside its raw log (``agent_log.md`` by ``agent_log_raw.txt``) is read from the raw log."""
    log = subprocess.run(["git", "-C", repo, "log", "--reverse", "--format=@%H %ct", "--name-only", "--diff-filter=AM",
                          "HEAD"], capture_output=True, text=True, check=True).stdout
    seen, commit, when = set(), "", 0
    for line in log.splitlines():
        if line.startswith("@"):
            commit, when = line[1:].split()[0], int(line.split()[1])
            continue
        if not line.endswith(names):
            continue
        raw = line.rsplit("/", 1)[0] + "/agent_log_raw.txt" if "/" in line else "agent_log_raw.txt"
        if line.endswith("agent_log.md") and _size(repo, f"{commit}:{raw}"):
            continue
        blob = subprocess.run(["git", "-C", repo, "rev-parse", f"{commit}:{line}"], capture_output=True,
                              text=True).stdout.strip()
        if blob and blob not in seen:
            seen.add(blob)
            text = subprocess.run(["git", "-C", repo, "cat-file", "blob", blob], capture_output=True).stdout
            yield when, line, text.decode("utf-8", "replace")


def _size(repo: str, spec: str) -> int:
    proc = subprocess.run(["git", "-C", repo, "cat-file", "-s", spec], capture_output=True, text=True)
    return int(proc.stdout) if proc.returncode == 0 else 0


def write(out: Path, session: str, calls, start: datetime, label: str) -> None:
    (out / f"{session}.jsonl").write_text(transcript(session, calls, start, f"/testbed/{label}"), encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) >= 4 and argv[0] == "--git":  # --git REPO OUT_DIR LABEL NAME …
        repo, out, label, names = argv[1], Path(argv[2]), argv[3], tuple(argv[4:]) or ("agent_log_raw.txt",)
        out.mkdir(parents=True, exist_ok=True)
        same_commit: dict[int, int] = {}
        for n, (when, path, text) in enumerate(history(repo, names)):
            calls = calls_in(text)
            if calls:
                same_commit[when] = same_commit.get(when, -1) + 1
                start = datetime.fromtimestamp(when, timezone.utc) + timedelta(minutes=same_commit[when])
                write(out, f"{label}-{n:05d}-{path.replace('/', '_')[-60:].rsplit('.', 1)[0]}", calls, start, label)
        return 0
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    out, label, files = Path(argv[0]), argv[1], argv[2:]
    out.mkdir(parents=True, exist_ok=True)
    existing = len(list(out.glob("*.jsonl")))
    for n, name in enumerate(files):
        calls = calls_of(Path(name))
        if calls:
            session = f"{label}-{existing + n:05d}-{Path(name).name.rsplit('.', 1)[0][-60:]}"
            write(out, session, calls, START + timedelta(hours=existing + n), label)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
