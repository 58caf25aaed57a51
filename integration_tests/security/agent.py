"""The agent's side of a paving test: a HOME with dp's store, the user's own tools on PATH, the
real ``pave-check`` with Claude Code's JSON, and bash running whatever the hook let through."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


class Agent:
    """The agent's side: a HOME with dp's store, PATH with the user's own tools, the real hook."""

    def __init__(self, root: Path, tools: list):
        self.home = root / "home"
        (self.home / ".dp").mkdir(parents=True, exist_ok=True)
        self.path = ":".join([*map(str, tools), "/usr/local/bin", "/usr/bin", "/bin"])
        self.env = {key: value for key, value in os.environ.items()
                    if not key.startswith(("DP_", "CLAUDE", "VIRTUAL_ENV", "UV_", "POETRY", "npm_config"))}
        self.env.update({"HOME": str(self.home), "XDG_CACHE_HOME": str(root / "cache"), "PATH": self.path,
                         "UV_CACHE_DIR": str(root / "uv-cache"), "UV_OFFLINE": "1", "UV_NO_PYTHON_DOWNLOADS": "1",
                         "POETRY_CACHE_DIR": str(root / "poetry-cache")})

    def dp(self, *args, cwd) -> str:
        proc = subprocess.run([str(BIN / "dp"), *args], cwd=cwd, env=self.env, capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc.stdout

    def hook(self, command: str, cwd: Path) -> dict:
        """Claude Code's PreToolUse JSON through the real pave-check (--verbose: it says why)."""
        payload = {"session_id": "mallory", "transcript_path": str(self.home / "t.jsonl"), "cwd": str(cwd),
                   "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": command, "description": "Run it"}, "tool_use_id": "toolu_01"}
        proc = subprocess.run([str(BIN / "pave-check"), "--verbose"], input=json.dumps(payload), cwd=cwd,
                              env=self.env, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)["hookSpecificOutput"] if proc.stdout else {}

    def run(self, command: str, cwd: Path) -> subprocess.CompletedProcess:
        """What the agent's Bash tool does with the command the hook let through."""
        return subprocess.run(["bash", "-c", command], cwd=cwd, env=self.env, capture_output=True, text=True,
                              timeout=300)


def as_let_through(agent: Agent, command: str, cwd: Path) -> tuple[str, dict]:
    """The command the agent runs after the hook, and the hook's answer."""
    answer = agent.hook(command, cwd)
    return answer.get("updatedInput", {}).get("command", command), answer
