"""A machine and a project for the answers from knowledge (issue 50): a real PATH, a real project, real
failed calls, and each agent's hook JSON for them.

The PATH is a stock machine's (``stock_machine.stock_path``: no rg, fd or uv) plus the programs a case
adds, each a link to the real program (or, for one that must merely exist on PATH, such as a second
Python, a script). A failed call is run for real (``/bin/bash -c``, in the project, on that PATH), and its
exit code and output become the payload each agent sends after it: Claude Code's PostToolUseFailure,
Gemini CLI's AfterTool (a shell command that exits non-zero is a success there, its output ending in
``Exit Code: N``), Codex CLI's PostToolUse (no failure event: the exit code is in its session file, one
``item_completed`` line written here as Codex 0.169.0 writes it).
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from capture_support import run_capture
from stock_machine import stock_path

VENV_BIN = Path(sys.executable).parent
_CALLS = itertools.count()


class Machine:
    """One machine: ``path`` (its PATH, one directory), ``project`` (a git repository that looks like one),
    ``env`` (dp's scratch HOME and store, on that PATH)."""

    def __init__(self, root: Path, env: dict):
        self.root, self.bin = root, Path(stock_path(root))
        self.env = {**env, "PATH": str(self.bin)}
        self.project = root / "shop"
        _project(self.project)

    def add(self, *programs: str) -> None:
        """Put these real programs on the PATH (dp's own venv first, for just and task)."""
        for program in programs:
            found = shutil.which(program, path=f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}")
            assert found, f"{program} is not installed on this machine"
            if not (self.bin / program).exists():
                (self.bin / program).symlink_to(os.path.realpath(found))

    def script(self, path: Path, text: str = "#!/bin/sh\nexit 0\n") -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        path.chmod(0o755)
        return path

    def run(self, command: str, cwd: Path | None = None) -> tuple[int, str]:
        """Run ``command`` as the agent's shell would, on this machine: (exit code, output)."""
        proc = subprocess.run(["/bin/bash", "-c", command], cwd=cwd or self.project, capture_output=True, text=True,
                              env={"PATH": str(self.bin), "HOME": self.env["HOME"], "LANG": "C.UTF-8"}, timeout=60)
        return proc.returncode, proc.stderr + proc.stdout

    def fail(self, agent: str, command: str, session: str = "s1", cwd: Path | None = None) -> str:
        """Run ``command`` for real (it must fail), hand ``agent``'s hook JSON for it to the real dp-capture,
        and return what the model would read after the call ('' for nothing)."""
        code, output = self.run(command, cwd)
        assert code != 0, output
        return self.told(agent, command, code, output, session, cwd)

    def told(self, agent: str, command: str, code: int, output: str, session: str = "s1",
             cwd: Path | None = None) -> str:
        """What the model would read after ``command`` failed with ``code`` and ``output`` (a program this
        machine lacks, as another machine prints it: make 3.81's quotes), through the real dp-capture."""
        call_id = f"call_{next(_CALLS):06d}"
        payload = _PAYLOADS[agent](self, command, code, output, session, call_id, str(cwd or self.project))
        proc = run_capture(payload, "--agent", agent, env=self.env)
        assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
        if not proc.stdout:
            return ""
        output = json.loads(proc.stdout)["hookSpecificOutput"]
        return output["additionalContext"]


def _project(root: Path) -> None:
    """A web shop's repository: git, package.json with scripts, node_modules, build output, binary and
    oddly named files."""
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "package.json").write_text(json.dumps({"name": "shop", "version": "1.0.0", "scripts": {
        "test": "node --test", "test:unit": "node --test test/unit", "lint": "eslint src", "build": "tsc -p ."}}))
    (root / "src").mkdir()
    (root / "src" / "cart.js").write_text("export class Cart {\n  total() { return 0 }\n}\n")
    (root / "src" / "notes (draft).md").write_text("# Cart\nTODO: taxes\n")
    (root / "dist").mkdir()
    (root / "dist" / "cart.js").write_text("class Cart{total(){return 0}}\n")
    (root / "assets").mkdir()
    (root / "assets" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01")
    (root / "node_modules" / "left-pad").mkdir(parents=True)
    (root / "node_modules" / "left-pad" / "index.js").write_text("module.exports = s => s\n")
    (root / ".gitignore").write_text("node_modules/\ndist/\n")


_PAYLOADS: dict = {}  # agent → its hook JSON after a failed shell call, each beside its builder below


def _payload_of(agent: str):
    """Register the function that writes ``agent``'s hook JSON for a failed call."""
    def register(builder):
        _PAYLOADS[agent] = builder
        return builder
    return register


@_payload_of("claude")
def _claude(machine, command, code, output, session, call_id, cwd) -> dict:
    return {"session_id": session, "transcript_path": f"{machine.env['HOME']}/.claude/projects/-shop/{session}.jsonl",
            "cwd": cwd, "permission_mode": "default", "hook_event_name": "PostToolUseFailure", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "Run it"}, "tool_use_id": call_id,
            "error": f"Exit code {code}\n{output.rstrip()}", "is_interrupt": False}


@_payload_of("gemini")
def _gemini(machine, command, code, output, session, call_id, cwd) -> dict:
    content = f"Output: {output.rstrip()}\nExit Code: {code}\nProcess Group PGID: 4242"
    return {"session_id": session, "transcript_path": "", "cwd": cwd, "hook_event_name": "AfterTool",
            "timestamp": "2026-11-29T10:00:01.000Z", "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "Run it"},
            "tool_response": {"llmContent": f"<untrusted_context>\n{content}\n</untrusted_context>",
                              "returnDisplay": output, "error": None}}


@_payload_of("codex")
def _codex(machine, command, code, output, session, call_id, cwd) -> dict:
    rollout = machine.root / "codex" / f"rollout-{session}.jsonl"
    rollout.parent.mkdir(exist_ok=True)
    item = {"type": "CommandExecution", "id": call_id, "process_id": "22979", "command": ["/bin/bash", "-lc", command],
            "cwd": f"file://{cwd}", "parsed_cmd": [{"type": "unknown", "cmd": command}],
            "source": "unified_exec_startup", "status": "failed", "aggregated_output": output, "exit_code": code,
            "duration": {"secs": 0, "nanos": 173314020}}
    line = {"timestamp": "2026-11-29T10:39:08.059Z", "ordinal": 13, "type": "event_msg",
            "payload": {"type": "item_completed", "thread_id": session, "turn_id": "turn-1", "item": item}}
    with open(rollout, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")
    return {"session_id": session, "turn_id": "turn-1", "transcript_path": str(rollout), "cwd": cwd,
            "hook_event_name": "PostToolUse", "model": "gpt-5.5", "permission_mode": "bypassPermissions",
            "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": call_id, "tool_response": output}


AGENTS = tuple(_PAYLOADS)  # the agents whose failed-call JSON is written here: the three
