"""pave-check --agent qwen with the JSON Qwen Code 0.24.4's hooks send (Claude Code's shape, Gemini CLI's tool names).

The real ``qwen`` runs these in integration_tests/real_client_qwen/; here the hook alone, fast.
"""

from __future__ import annotations

import json
import subprocess

from hook_support import BIN, dp_alias, isolated_env


def test_qwens_read_file_takes_dps_names(tmp_path):
    """A rule on Read's file_path acts on Qwen's read_file, whose argument is file_path too."""
    env = isolated_env(tmp_path)
    assert dp_alias(env, "--tool", "Read", "--param", "file_path", "/srv/old/", "/srv/new/").returncode == 0
    payload = {"session_id": "q1", "hook_event_name": "PreToolUse", "cwd": "/work/app", "tool_name": "read_file",
               "tool_input": {"file_path": "/srv/old/a.py"}}
    proc = subprocess.run([str(BIN / "pave-check"), "--agent", "qwen"], input=json.dumps(payload),
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0 and "/srv/new/a.py" in proc.stdout, (proc.stdout, proc.stderr)
