"""Driving the real ``claude -p`` against the scripted fake model.

A ``RealClient`` is one user's machine in a temporary directory: its own HOME
(with XDG directories and TMPDIR inside), dp's default store in that HOME, a
project directory, a ``bin`` directory on PATH for stand-in programs, and
whatever ``dp init`` installed into ``~/.claude/settings.json``. ``run()``
starts the fake model with a list of turns, runs the real client once and
returns a ``Session`` to assert on: the client's JSON result and every request
body it sent, so a test checks what the model was really shown.
"""

from __future__ import annotations

import json
import shlex
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from agent_home import user_environment

from dp.agents.claude.fake_api import FakeAnthropic, bash, block_text

BIN = Path(sys.executable).parent
QUIET = {
    "DISABLE_AUTOUPDATER": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
}


# The model URL of every ``claude`` the throwaway user starts outside ``run()`` (the
# ``claude plugin`` commands ``dp init --plugin`` and ``dp uninstall`` run, ``plugin
# validate``/``test``): a 127.0.0.1 port this process holds bound and never listens
# on, so a connection would be refused at once. With the default, first-party URL,
# 2.1.330 fetches remote settings and policy limits from api.anthropic.com at every
# start and, where that name does not resolve, retries each five times with backoff:
# about 18 s per command, most of the plugin tests' time. A base URL of the user's
# own (a gateway) skips both fetches; no request reaches it.
_UNLISTENED = socket.socket()
_UNLISTENED.bind(("127.0.0.1", 0))
NO_MODEL_URL = f"http://127.0.0.1:{_UNLISTENED.getsockname()[1]}"


@dataclass
class Session:
    """One finished ``claude -p`` run."""

    proc: subprocess.CompletedProcess
    fake: FakeAnthropic

    @property
    def result(self) -> dict:
        """The client's ``--output-format json`` result object."""
        try:
            return json.loads(self.proc.stdout)
        except ValueError:
            raise AssertionError(f"claude printed no JSON result:\n{self.proc.stdout}\n{self.proc.stderr}") from None

    @property
    def messages(self) -> list[dict]:
        """The whole conversation as the last main request carried it."""
        requests = self.fake.main_requests
        assert requests, f"claude sent no request:\n{self.proc.stdout}\n{self.proc.stderr}"
        return requests[-1]["messages"]

    def tool_result(self, tool_id: str) -> dict:
        """``{"text", "is_error", "context"}`` for a scripted call: what the tool returned,
        and the other text the model read before its next turn — sibling text
        blocks and the ``role: system`` messages that follow, where the client
        puts hook ``additionalContext`` and system reminders."""
        messages = self.messages
        for index, message in enumerate(messages):
            content = message.get("content")
            if message.get("role") != "user" or not isinstance(content, list):
                continue
            for block in content:
                if isinstance(block, dict) and block.get("tool_use_id") == tool_id:
                    context = [block_text([b for b in content if b is not block])]
                    for later in messages[index + 1:]:
                        if later.get("role") == "assistant":
                            break
                        context.append(block_text(later.get("content")))
                    return {
                        "text": block_text(block.get("content")),
                        "is_error": bool(block.get("is_error")),
                        "context": "\n".join(part for part in context if part),
                    }
        raise AssertionError(f"no tool result for {tool_id} in the conversation:\n{self.proc.stdout}")

    def shown(self, tool_id: str) -> str:
        """Everything the model read about one call: its result and any reminder beside it."""
        result = self.tool_result(tool_id)
        return result["text"] + "\n" + result["context"]

    @property
    def opening(self) -> str:
        """Everything the model read before its first turn: the prompt, CLAUDE.md and the
        SessionStart context (2.1.330 sends that as a ``role: "system"`` message)."""
        parts = []
        for message in self.messages:
            if message.get("role") == "assistant":
                break
            parts.append(block_text(message.get("content")))
        return "\n".join(parts)

    @property
    def all_text(self) -> str:
        """Every user-side and system text the model was shown, in order."""
        return "\n".join(block_text(m.get("content")) for m in self.messages if m.get("role") != "assistant")


class RealClient:
    """A throwaway user account driving the pinned real client."""

    PROGRAM = "claude"  # the binary's name on the user's PATH

    def __init__(self, root: Path, binary: Path):
        self.root = root
        self.binary = binary
        self.home = root / "home"
        self.project = root / "project"
        self.bin = root / "bin"
        for directory in (self.home / "tmp", self.project, self.bin):
            directory.mkdir(parents=True, exist_ok=True)
        # The user's own binary on PATH, as dp init and dp doctor look for it.
        (self.bin / self.PROGRAM).symlink_to(binary)
        self.store = self.home / ".dp" / "dp.db"
        self.settings = self.home / ".claude" / "settings.json"
        self.env = self._environment()

    def _environment(self) -> dict:
        return user_environment(self.home, self.bin, **QUIET, ANTHROPIC_API_KEY="sk-ant-dp-tests-not-a-key",
                                ANTHROPIC_BASE_URL=NO_MODEL_URL)

    # -- the user's side --------------------------------------------------------

    def dp(self, *args, input=None, check=True, env=None) -> subprocess.CompletedProcess:
        """Run the installed ``dp`` as this user (``check``: fail the test on a non-zero exit;
        ``env``: variables added to the user's)."""
        proc = subprocess.run([str(BIN / "dp"), *map(str, args)], input=input, capture_output=True, text=True,
                              cwd=self.project, env={**self.env, **(env or {})}, timeout=120)
        if check:
            assert proc.returncode == 0, f"dp {' '.join(map(str, args))} failed:\n{proc.stdout}{proc.stderr}"
        return proc

    def init(self, *args, plain: bool = False) -> dict:
        """``dp init`` as a user types it (plus ``--json`` to read the report), with ``--no-plugin``
        unless ``plain`` or the arguments choose: a plain dp init installs the plugin where the client
        loads mods (test_mod_front_door.py holds that), and these tests are about the settings hooks."""
        chosen = plain or {"--plugin", "--no-plugin"} & set(args)
        return json.loads(self.dp("init", "--json", *args, *([] if chosen else ["--no-plugin"])).stdout)

    def program(self, name: str, script: str = 'echo "{name} ran:" "$@"') -> Path:
        """A stand-in program on PATH (a bash script; ``{name}`` is replaced by its name)."""
        path = self.bin / name
        path.write_text("#!/bin/bash\n" + script.replace("{name}", name) + "\n")
        path.chmod(0o755)
        return path

    def read_settings(self) -> dict:
        return json.loads(self.settings.read_text())

    # -- the agent's side --------------------------------------------------------

    def captured(self, calls, limit: float = 90) -> dict:
        """A last Bash call that returns once dp-capture has stored a row for each of ``calls``.

        Claude Code runs dp-capture after a success asynchronously and ends those
        hooks when ``-p`` exits (2.1.330: an async PostToolUse hook still running
        at exit never finishes), so a session whose last call succeeded can lose
        that call's row. Ending the script with this call makes the session wait
        for the rows themselves, whatever the machine's load; ``limit`` only
        bounds a capture that never comes (the call then fails, and says so).
        """
        ids = [call["id"] for call in calls]
        code = (f"import sqlite3, sys, time\nend = time.monotonic() + {limit}\nids = {ids!r}\n"
                "def stored(conn):\n"
                "    return all(conn.execute(\"SELECT 1 FROM desires WHERE event_key LIKE ?\", (f'%:{i}%',)).fetchone()"
                " for i in ids)\n"
                "while True:\n"
                f"    conn = sqlite3.connect({str(self.store)!r}, timeout=30)\n"
                "    done = stored(conn)\n    conn.close()\n"
                "    if done: break\n"
                "    if time.monotonic() > end: sys.exit('dp-capture stored no row for some of ' + repr(ids))\n"
                "    time.sleep(0.1)\n")
        return bash(f"{sys.executable} -c {shlex.quote(code)}", description="wait for dp-capture's rows")

    def run(self, turns, *args, prompt: str = "Do the task.", allow=("Bash",), timeout: float = 120,
            cwd: Path | None = None) -> Session:
        """Run ``claude -p PROMPT --output-format json [--allowedTools …] ARGS`` with the scripted model.

        ``allow`` is what ``--allowedTools`` gets (``()`` for none: the
        client's own permission rules then judge every call).
        """
        fake = FakeAnthropic(turns=list(turns))
        command = [str(self.binary), "-p", prompt, "--output-format", "json"]
        if allow:
            command += ["--allowedTools", ",".join(allow)]
        command += [str(arg) for arg in args]
        with fake:
            env = {**self.env, "ANTHROPIC_BASE_URL": fake.url}
            proc = subprocess.run(command, capture_output=True, text=True, cwd=cwd or self.project, env=env,
                                  timeout=timeout, stdin=subprocess.DEVNULL)
        return Session(proc, fake)
