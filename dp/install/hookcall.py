"""The installed hook run once, as the agent would run it: ``dp init``'s demonstration and ``dp doctor``
start the very command an entry holds, with the agent's own sample payload, and read its answer through
the agent's adapter."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from dp import agents
from dp.hook import HOOK_TIMEOUT_SECONDS


def sample_payload(tool_name: str, tool_input: dict, cwd: Path, agent=None) -> dict:
    """A before-tool payload shaped like the ones ``agent`` (Claude Code when None) sends."""
    return (agent or agents.get()).hooks().sample_payload(tool_name, tool_input, cwd)


class HookCall:
    """What one run of a hook command did."""

    def __init__(self, returncode: int | None, stdout: str, stderr: str, seconds: float, error: str = ""):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
        self.error = error  # why it could not run, or timed out

    @property
    def output(self) -> dict | None:
        """The JSON object on stdout, if there is one."""
        try:
            value = json.loads(self.stdout)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def decision(self, agent=None):
        """What the answer says, read by ``agent``'s adapter (Claude Code when None)."""
        return (agent or agents.get()).hooks().read_answer(self.returncode or 0, self.stdout, self.stderr)


def call(command: str | list[str], payload: dict, cwd: Path, timeout: float = HOOK_TIMEOUT_SECONDS,
         path_first: Path | None = None) -> HookCall:
    """Run the hook with the payload on stdin, as Claude Code does.

    A string goes through the shell like a settings entry; an argv list
    runs without one (for commands dp did not write itself). ``path_first`` is put
    before PATH (the demo's stand-in for a program this machine lacks).
    """
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(cwd)}
    if path_first is not None:
        env["PATH"] = os.pathsep.join([str(path_first), env.get("PATH", os.defpath)])
    started = time.perf_counter()
    try:
        proc = subprocess.run(
            command,
            shell=isinstance(command, str),
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return HookCall(None, "", "", time.perf_counter() - started, f"did not finish within {timeout:g} s")
    except OSError as exc:
        return HookCall(None, "", "", time.perf_counter() - started, f"could not start: {exc.strerror or exc}")
    return HookCall(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - started)
