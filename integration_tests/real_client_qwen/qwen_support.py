"""Driving the real ``qwen -p`` (Qwen Code) against the shared OpenAI-compatible fake.

A ``QwenUser`` is one user's machine in a temporary directory: its own HOME (XDG
directories and TMPDIR inside), a ``~/.qwen/settings.json`` that signs in with an
OpenAI-compatible provider (the user's own file, which ``dp init --agent qwen``
merges its hooks into), dp's default store, a project that is a git repository,
and a ``bin`` directory first on PATH for stand-in programs. ``run()`` starts the
fake model (``dp/agents/openai_compat_fake.py``) with a list of turns, runs the
real binary once and returns a ``QwenSession``: every request body the model was
sent and what the binary printed. The provider is given through the environment
(``OPENAI_BASE_URL`` …), so the fake never appears in a file dp touches.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from agent_home import AgentUser, user_environment
from npm_packages import NpmTool

from dp.agents.openai_compat_fake import MODEL, Conversation, FakeChat

# The version every Qwen Code real-client test runs against (docs/agents/qwen.md's facts are about it).
PINNED_VERSION = "0.24.4"
TOOL = NpmTool("@qwen-code/qwen-code", PINNED_VERSION, bin="qwen")
# The user's own settings before dp: the sign-in Qwen needs to run headless, and a key of their own.
USER_SETTINGS = (b'{\n\t"security": {"auth": {"selectedType": "openai"}},\n\t"model": {"name": "fake-model"},\n'
                 b'\t"ui": {"theme": "GitHub", "customThemes": {"\\u00e9t\\u00e9": {}}}\n}\n')


@dataclass
class QwenSession:
    """One finished ``qwen -p`` run."""

    proc: subprocess.CompletedProcess
    fake: FakeChat

    @property
    def conversation(self) -> Conversation:
        """The whole conversation as the last request carried it."""
        requests = self.fake.main_requests
        assert requests, f"qwen sent no request:\n{self.proc.stdout}\n{self.proc.stderr}"
        return Conversation(requests[-1]["messages"])

    def output(self, call: dict) -> str:
        """What the model read as the result of a scripted call."""
        return self.conversation.output(call["id"])

    @property
    def opening(self) -> str:
        """Everything the model read before its first turn (system prompt, SessionStart context, the prompt)."""
        return Conversation(self.fake.main_requests[0]["messages"]).opening

    @property
    def log(self) -> str:
        return self.proc.stdout + self.proc.stderr


class QwenUser(AgentUser):
    """A throwaway user account driving the pinned real ``qwen``."""

    AGENT = "qwen"

    def __init__(self, root: Path, qwen: Path):
        self.root = root
        self.qwen = qwen
        self.home = root / "home"
        self.project = root / "project"
        self.bin = root / "bin"
        for directory in (self.home / "tmp", self.home / ".qwen", self.project, self.bin):
            directory.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(self.project)], check=True)
        (self.bin / "qwen").symlink_to(qwen)  # the user's own `qwen` on PATH, as dp doctor --live looks for it
        self.settings.write_bytes(USER_SETTINGS)
        self.store = self.home / ".dp" / "dp.db"
        self.env = {key: value for key, value in user_environment(self.home, self.bin).items()
                    if not key.startswith(("QWEN", "DASHSCOPE"))}
        self.env["QWEN_CODE_SUPPRESS_YOLO_WARNING"] = "1"

    @property
    def settings(self) -> Path:
        return self.home / ".qwen" / "settings.json"

    def hooks(self) -> dict:
        """The hooks of the user's settings file."""
        return json.loads(self.settings.read_text()).get("hooks", {})

    def run(self, turns, *args, prompt: str = "Do the task.", approval: str = "yolo",
            timeout: float = 180) -> QwenSession:
        """``qwen -p PROMPT --approval-mode APPROVAL ARGS`` with the scripted model."""
        fake = FakeChat(turns=list(turns))
        with fake:
            env = {**self.env, "OPENAI_BASE_URL": fake.url + "/v1", "OPENAI_API_KEY": "sk-dp-tests-not-a-key",
                   "OPENAI_MODEL": MODEL}
            command = [str(self.qwen), "-p", prompt, "--approval-mode", approval, *map(str, args)]
            proc = subprocess.run(command, capture_output=True, text=True, cwd=self.project, env=env,
                                  timeout=timeout, stdin=subprocess.DEVNULL)
        return QwenSession(proc, fake)
