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
from pathlib import Path

from agent_home import AgentSession, AgentUser

from dp.agents.gemini.fake_api import MODEL, Conversation, FakeGemini

USER_SETTINGS = {"security": {"auth": {"selectedType": "gemini-api-key"}}, "general": {"disableAutoUpdate": True}}


class GeminiSession(AgentSession):
    """One finished ``gemini -p`` run."""

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
    def response(self) -> str:
        """The final answer in ``--output-format json``."""
        return json.loads(self.proc.stdout)["response"]


class GeminiUser(AgentUser):
    """A throwaway user account driving the pinned real ``gemini``."""

    AGENT = PROGRAM = "gemini"
    AGENT_DIRS = (".gemini",)

    def __init__(self, root: Path, gemini: Path):
        super().__init__(root, gemini)
        self.settings = self.home / ".gemini" / "settings.json"
        self.settings.write_text(json.dumps(USER_SETTINGS, indent=2) + "\n")

    def environment(self) -> dict:
        # GEMINI_CLI_NO_RELAUNCH: 0.61.0 otherwise starts, then starts itself again with a larger
        # heap (what it sets for that child): two Node starts of its bundle per run, half its time.
        return {"GEMINI_API_KEY": "dp-tests-not-a-key", "GEMINI_CLI_TRUST_WORKSPACE": "true",
                "GEMINI_CLI_NO_RELAUNCH": "true"}

    def run(self, turns, *args, prompt: str = "Do the task.", approval: str = "yolo", timeout: float = 180,
            cwd: Path | None = None) -> GeminiSession:
        """``gemini -p PROMPT --output-format json --approval-mode APPROVAL -m MODEL ARGS`` with the scripted model."""
        fake = FakeGemini(turns=list(turns))
        command = [self.binary, "-p", prompt, "--output-format", "json", "--approval-mode", approval, "-m", MODEL,
                   *args]
        proc = self.launch(fake, lambda url: (command, {"GOOGLE_GEMINI_BASE_URL": url}), cwd, timeout=timeout)
        return GeminiSession(proc, fake)
