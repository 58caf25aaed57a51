"""Driving the real ``droid exec`` (Factory Droid) against the shared OpenAI-compatible fake.

A ``DroidUser`` is one user's machine in a temporary directory: its own HOME (XDG directories and TMPDIR
inside), a ``~/.factory/settings.json`` of the user's own (which ``dp init --agent droid`` merges its hooks
into), dp's default store, a project that is a git repository, and a ``bin`` directory first on PATH for
stand-in programs. ``run()`` starts the fake model (``dp/live/openai_compat.py``) with a list of turns and
runs the real binary once with the fake as a custom model (BYOK: Droid needs no Factory sign-in for one),
given in a runtime settings file (``--settings``), so the fake never appears in a file dp touches. Droid
0.225.2 tries Factory's servers (session sync, telemetry) at every run and gives up on its own: a run
takes about ten seconds here.
"""

from __future__ import annotations

import json
from pathlib import Path

from agent_home import AgentSession, AgentUser

from dp.live.openai_compat import MODEL, Conversation, FakeChat, tool_call

# Droid names a custom model ``custom:<display name>-<index>``.
MODEL_ID = "custom:dp-fake-0"
# The user's own settings before dp: a choice of theirs that must survive dp init and uninstall byte for byte.
USER_SETTINGS = b'{\n    "theme": "dark",\n    "commandDenylist": ["rm -rf /"],\n    "note": "\\u00e9t\\u00e9"\n}\n'
LOW_RISK = {"riskLevelReason": "It only runs a local program.", "riskLevel": "low"}


def execute(command: str, **extra) -> dict:
    """A scripted Execute call: Droid refuses one without a summary and the model's own risk level."""
    return tool_call("Execute", {"command": command, "summary": "Run the command here now", **LOW_RISK, **extra})


def runtime_settings(url: str) -> dict:
    """The custom model pointing at the fake (an OpenAI-compatible Chat Completions API)."""
    return {"customModels": [{"model": MODEL, "displayName": "dp fake", "baseUrl": url + "/v1",
                              "apiKey": "sk-dp-tests-not-a-key", "provider": "generic-chat-completion-api"}]}


class DroidSession(AgentSession):
    """One finished ``droid exec`` run."""

    CONVERSATION = Conversation

    @property
    def result(self) -> dict:
        """``droid exec -o json``'s last line: ``{"type": "result", "is_error", "result", "session_id"}``."""
        return json.loads(self.proc.stdout.strip().splitlines()[-1])


class DroidUser(AgentUser):
    """A throwaway user account driving the pinned real ``droid``."""

    AGENT = PROGRAM = "droid"
    AGENT_DIRS = (".factory",)

    def __init__(self, root: Path, droid: Path):
        super().__init__(root, droid)
        self.settings = self.home / ".factory" / "settings.json"  # the user's own, before dp
        self.settings.write_bytes(USER_SETTINGS)

    def hooks(self) -> dict:
        """The hooks of the user's settings file."""
        return json.loads(self.settings.read_text()).get("hooks", {})

    def sessions(self) -> list[Path]:
        """Droid's session files of this user."""
        return sorted((self.home / ".factory" / "sessions").rglob("*.jsonl"))

    def run(self, turns, *args, prompt: str = "Do the task.", auto: str = "low", timeout: float = 240) -> DroidSession:
        """``droid exec -m MODEL_ID -o json --auto AUTO ARGS PROMPT`` with the scripted model (``auto=""``:
        Droid's default, read-only)."""
        fake = FakeChat(turns=list(turns))
        runtime = self.root / "runtime-settings.json"

        def command(url: str):
            runtime.write_text(json.dumps(runtime_settings(url)))
            autonomy = ["--auto", auto] if auto else []
            return [self.binary, "exec", "--settings", runtime, "-m", MODEL_ID, "-o", "json", *autonomy, *args,
                    prompt], {}

        return DroidSession(self.launch(fake, command, timeout=timeout), fake)
