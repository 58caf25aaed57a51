"""A scripted agent session through the real hooks (issue 51): each call goes through pave-check with the
agent's PreToolUse JSON, the command the hook answered with runs in bash in a real project, and its real
exit status goes to dp-capture as PostToolUse or PostToolUseFailure, as Claude Code does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def project(root: Path) -> Path:
    """A small repository: sources with TODOs, a README, node_modules, a build artefact, a binary file."""
    repo = root / "app"
    for folder in (".git", "src", "node_modules/left-pad", "build"):
        (repo / folder).mkdir(parents=True, exist_ok=True)
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (repo / "src" / "main.py").write_text("# TODO: handle errors\nprint('hi')\n")
    (repo / "src" / "odd name [1].py").write_text("# TODO: rename me\n")
    (repo / "README.md").write_text("# app\n")
    (repo / "node_modules" / "left-pad" / "index.js").write_text("module.exports = 1\n")
    (repo / "build" / "app.bin").write_bytes(bytes(range(256)))
    return repo


def learn_gradlew(env: dict, repo: Path) -> None:
    """Two earlier sessions where ``gradle`` was not found and ``./gradlew`` worked, then the learning pass:
    dp answers the next ``gradle`` failure with ``./gradlew`` (on a machine without gradle)."""
    (repo / "gradlew").write_text("#!/bin/sh\necho BUILD SUCCESSFUL\n")
    (repo / "gradlew").chmod(0o755)
    for name in ("earlier-1", "earlier-2"):
        earlier = Session(env, repo, name)
        assert earlier.call("gradle -q test")[1] == 127 and earlier.call("./gradlew -q test")[1] == 0
    assert dp(env, "suggest", "--json").returncode == 0  # the learning pass


class Session:
    """One agent session's calls through the real hooks, numbered ``toolu_<session>_<n>``."""

    def __init__(self, env: dict, cwd: Path, name: str):
        self.env, self.cwd, self.name, self.count = env, cwd, name, 0
        self.told: list[str] = []  # what dp-capture printed after each call
        self.answers: list[tuple] = []  # pave-check's (exit status, stdout, stderr) for each call

    def call(self, command: str) -> tuple[str, int]:
        """Run ``command`` as the agent would: (the command that ran, its exit status)."""
        self.count += 1
        base = {"session_id": self.name, "transcript_path": "", "cwd": str(self.cwd), "permission_mode": "default",
                "tool_name": "Bash", "tool_use_id": f"toolu_{self.name}_{self.count}"}
        pre = subprocess.run([str(BIN / "pave-check")], capture_output=True, text=True, env=self.env, timeout=60,
                             input=json.dumps({**base, "hook_event_name": "PreToolUse",
                                               "tool_input": {"command": command}}))
        assert pre.returncode == 0, pre.stderr
        self.answers.append((pre.returncode, pre.stdout, pre.stderr))
        ran = json.loads(pre.stdout)["hookSpecificOutput"]["updatedInput"]["command"] if pre.stdout else command
        done = subprocess.run(["bash", "-c", ran], cwd=self.cwd, capture_output=True, text=True, env=self.env,
                              timeout=60)
        if done.returncode == 0:
            post = {"hook_event_name": "PostToolUse", "tool_response": {"stdout": done.stdout, "stderr": ""}}
        else:
            post = {"hook_event_name": "PostToolUseFailure", "is_interrupt": False,
                    "error": f"Exit code {done.returncode}\n{done.stderr}"}
        told = subprocess.run([str(BIN / "dp-capture")], capture_output=True, text=True, env=self.env, timeout=60,
                              input=json.dumps({**base, **post, "tool_input": {"command": ran}}))
        assert told.returncode == 0, told.stderr
        self.told.append(told.stdout)
        return ran, done.returncode


def dp(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "dp"), *args], capture_output=True, text=True, env=env, timeout=120)


def stats(env: dict, *args: str) -> dict:
    proc = dp(env, "stats", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def rule(report: dict, name: str) -> dict:
    """The counts of the rule called ``name`` in a dp stats report."""
    return next(found for found in report["rules"] if found["rule"] == name)
