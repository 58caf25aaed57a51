"""dp ingest --gemini-sessions on saved sessions with damage: broken lines are counted and skipped."""

from __future__ import annotations

import json
import subprocess

from cli_assertions import assert_one_line_error
from hook_support import BIN, isolated_env


def write_session(root, lines):
    chats = root / ".gemini" / "tmp" / "my app" / "chats"
    chats.mkdir(parents=True)
    (chats.parent / ".project_root").write_text("/work/my app\n")
    path = chats / "session-2026-11-26T10-00-abcd1234.jsonl"
    path.write_bytes(b"\n".join(line if isinstance(line, bytes) else json.dumps(line).encode() for line in lines))
    (chats / "notes.txt").write_text("not a session")
    return path


def call(call_id, name, args, output=None, error=None, status="success"):
    response = {"output": output} if output is not None else {"error": error}
    return {"id": call_id, "name": name, "args": args, "status": status, "timestamp": "2026-11-26T10:00:05.000Z",
            "result": [{"functionResponse": {"id": call_id, "name": name, "response": response}}]}


def test_damaged_lines_are_skipped_and_the_rest_is_read(tmp_path):
    env = isolated_env(tmp_path)
    home = tmp_path / "home"
    write_session(home, [
        {"sessionId": "s-1", "projectHash": "x", "startTime": "2026-11-26T10:00:00.000Z", "kind": "main"},
        b'{"id": "m1", "type": "gemini", "toolCalls": [{"id": "trunc',
        b"[1, 2, 3]",
        {"id": "m2", "type": "gemini", "content": ""},
        {"id": "m2", "type": "gemini", "toolCalls": [
            call("c1", "run_shell_command", {"command": "cargo biuld"},
                 output="<untrusted_context>\nOutput: error: no such command: `biuld`\nExit Code: 101\n</untrusted_context>"),
            call("c2", "run_shell_command", {"command": "echo 'Exit Code: 1'"},
                 output="<untrusted_context>\nOutput: Exit Code: 1\nProcess Group PGID: 7\n</untrusted_context>"),
            {"id": 5, "name": "broken"},
        ]},
    ])
    proc = subprocess.run([str(BIN / "dp"), "ingest", "--gemini-sessions", str(home / ".gemini" / "tmp"), "--json"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)["gemini_sessions"]
    assert (report["files"], report["skipped_lines"], report["failures"], report["successes"]) == (1, 2, 1, 1)
    events = json.loads(subprocess.run([str(BIN / "dp"), "desires", "--json"], capture_output=True, text=True,
                                       env=env, timeout=60).stdout)
    [event] = events
    assert (event["tool_name"], event["error_class"], event["cwd"], event["session_id"]) == (
        "Bash", "unknown subcommand", "/work/my app", "s-1")


def test_a_missing_directory_is_one_error_line(tmp_path):
    env = isolated_env(tmp_path)
    proc = subprocess.run([str(BIN / "dp"), "ingest", "--gemini-sessions", str(tmp_path / "nope")],
                          capture_output=True, text=True, env=env, timeout=60)
    assert_one_line_error(proc, "is not a directory (Gemini CLI keeps sessions in ~/.gemini/tmp/<project>/chats)")


def test_a_failed_call_a_hook_rewrote_or_answered_is_a_failure(tmp_path):
    """Gemini CLI 0.61.0 saves what hooks added after a shell call's output (each additionalContext in
    <hook_context>, and a line after a rewrite): the exit code before them still makes the call a failure
    (issue 51: dp stats counts a rewritten call's outcome from the session file alone)."""
    env = isolated_env(tmp_path)
    home = tmp_path / "home"
    rewritten = ("<untrusted_context>\nOutput: python3: error while loading shared libraries\nExit Code: 1\n"
                 "Process Group PGID: 25822\n</untrusted_context>\n\n<hook_context>dp: python → python3</hook_context>"
                 "\n\n[System] Tool input parameters were modified by a hook before execution.")
    answered = ("<untrusted_context>\nOutput: bash: line 4: gradle: command not found\nExit Code: 127\n"
                "Process Group PGID: 7\n</untrusted_context>\n\n<hook_context>dp: this failure has a known answer. "
                "Run this instead:\n./gradlew -q build</hook_context>")
    worked = ("<untrusted_context>\nOutput: ok\nProcess Group PGID: 8\n</untrusted_context>\n\n"
              "<hook_context>dp: grep → rg</hook_context>\n\n"
              "[System] Tool input parameters were modified by a hook before execution.")
    write_session(home, [
        {"sessionId": "s-2", "projectHash": "x", "startTime": "2026-11-26T10:00:00.000Z", "kind": "main"},
        {"id": "m1", "type": "gemini", "toolCalls": [
            call("c1", "run_shell_command", {"command": "python3 x.py"}, output=rewritten),
            call("c2", "run_shell_command", {"command": "gradle -q build"}, output=answered),
            call("c3", "run_shell_command", {"command": "rg -n TODO src"}, output=worked)]},
    ])
    proc = subprocess.run([str(BIN / "dp"), "ingest", "--gemini-sessions", str(home / ".gemini" / "tmp"), "--json"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)["gemini_sessions"]
    assert (report["failures"], report["successes"]) == (2, 1)
