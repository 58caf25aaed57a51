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
