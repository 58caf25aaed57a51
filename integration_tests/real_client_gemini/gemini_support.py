"""Driving the real ``gemini -p`` against the scripted fake Gemini API.

A ``GeminiUser`` is one user's machine in a temporary directory: its own HOME
(XDG directories and TMPDIR inside), ``~/.gemini/settings.json`` holding what
a user who signed in with an API key has there, dp's default store, a project
that is a git repository, and a ``bin`` directory first on PATH for stand-in
programs. ``run()`` starts the fake model with a list of turns, runs the real
binary once and returns a ``GeminiSession`` to assert on: what the model was
shown (every request body) and what the binary printed.

Two settings the docs do not mention keep it offline (0.61.0):
``GEMINI_CLI_TRUST_WORKSPACE=true`` (else it exits 55 before any request) and
``security.auth.selectedType = "gemini-api-key"`` in the user's settings
(``GOOGLE_GEMINI_BASE_URL`` alone selects the "gateway" auth, which headless
mode refuses with exit 41). ``-m MODEL`` skips the routing call.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from agent_home import AgentUser, user_environment

from dp.agents.gemini.fake_api import MODEL, Conversation, FakeGemini

USER_SETTINGS = {"security": {"auth": {"selectedType": "gemini-api-key"}}, "general": {"disableAutoUpdate": True}}


@dataclass
class GeminiSession:
    """One finished ``gemini -p`` run."""

    proc: subprocess.CompletedProcess
    fake: FakeGemini

    @property
    def conversation(self) -> Conversation:
        assert self.fake.main_requests, f"gemini sent no request:\n{self.log}"
        return self.fake.conversation

    def results(self, name: str = "run_shell_command") -> list[str]:
        """What the model read as the result of each call of ``name``."""
        return self.conversation.results(name)

    @property
    def opening(self) -> str:
        return self.conversation.opening

    @property
    def log(self) -> str:
        return self.proc.stdout + self.proc.stderr

    @property
    def response(self) -> str:
        """The final answer in ``--output-format json``."""
        return json.loads(self.proc.stdout)["response"]


class GeminiUser(AgentUser):
    """A throwaway user account driving the pinned real ``gemini``."""

    AGENT = "gemini"

    def __init__(self, root: Path, gemini: Path):
        self.root = root
        self.gemini = gemini
        self.home = root / "home"
        self.project = root / "project"
        self.bin = root / "bin"
        for directory in (self.home / "tmp", self.home / ".gemini", self.project, self.bin):
            directory.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(self.project)], check=True)
        self.settings = self.home / ".gemini" / "settings.json"
        self.settings.write_text(json.dumps(USER_SETTINGS, indent=2) + "\n")
        (self.bin / "gemini").symlink_to(gemini)  # the user's own `gemini` on PATH, as dp doctor looks for it
        self.store = self.home / ".dp" / "dp.db"
        self.env = user_environment(self.home, self.bin, GEMINI_API_KEY="dp-tests-not-a-key",
                                    GEMINI_CLI_TRUST_WORKSPACE="true")


    def run(self, turns, *args, prompt: str = "Do the task.", approval: str = "yolo", timeout: float = 180,
            cwd: Path | None = None) -> GeminiSession:
        """``gemini -p PROMPT --output-format json --approval-mode APPROVAL -m MODEL ARGS`` with the scripted model."""
        fake = FakeGemini(turns=list(turns))
        with fake:
            env = {**self.env, "GOOGLE_GEMINI_BASE_URL": fake.url}
            command = [str(self.gemini), "-p", prompt, "--output-format", "json", "--approval-mode", approval,
                       "-m", MODEL, *map(str, args)]
            proc = subprocess.run(command, capture_output=True, text=True, cwd=cwd or self.project, env=env,
                                  timeout=timeout, stdin=subprocess.DEVNULL)
        return GeminiSession(proc, fake)
