"""Driving the real ``qwen -p`` (Qwen Code) against the shared OpenAI-compatible fake.

A ``QwenUser`` is one user's machine in a temporary directory: its own HOME (XDG
directories and TMPDIR inside), a ``~/.qwen/settings.json`` that signs in with an
OpenAI-compatible provider (the user's own file, which ``dp init --agent qwen``
merges its hooks into), dp's default store, a project that is a git repository,
and a ``bin`` directory first on PATH for stand-in programs. ``run()`` starts the
fake model (``dp/live/openai_compat.py``) with a list of turns, runs the
real binary once and returns a ``QwenSession``: every request body the model was
sent and what the binary printed. The provider is given through the environment
(``OPENAI_BASE_URL`` …), so the fake never appears in a file dp touches.
"""

from __future__ import annotations

import json
from pathlib import Path

from agent_home import AgentSession, AgentUser
from npm_packages import NpmTool

from dp.live.openai_compat import MODEL, Conversation, FakeChat

# The version every Qwen Code real-client test runs against (docs/agents/qwen.md's facts are about it).
PINNED_VERSION = "0.24.4"
TOOL = NpmTool("@qwen-code/qwen-code", PINNED_VERSION, bin="qwen", env=(("QWEN_CODE_NO_RELAUNCH", "true"),))
# The user's own settings before dp: the sign-in Qwen needs to run headless, and a key of their own.
USER_SETTINGS = (b'{\n\t"security": {"auth": {"selectedType": "openai"}},\n\t"model": {"name": "fake-model"},\n'
                 b'\t"ui": {"theme": "GitHub", "customThemes": {"\\u00e9t\\u00e9": {}}}\n}\n')


class QwenSession(AgentSession):
    """One finished ``qwen -p`` run."""

    CONVERSATION = Conversation

    @property
    def opening(self) -> str:
        """Everything the model read before its first turn (system prompt, SessionStart context, the prompt)."""
        return Conversation(self.fake.main_requests[0]["messages"]).opening


class QwenUser(AgentUser):
    """A throwaway user account driving the pinned real ``qwen``."""

    AGENT = PROGRAM = "qwen"
    AGENT_DIRS = (".qwen",)

    def __init__(self, root: Path, qwen: Path):
        super().__init__(root, qwen)
        self.settings.write_bytes(USER_SETTINGS)

    def environment(self) -> dict:
        # QWEN_CODE_NO_RELAUNCH: 0.24.4 otherwise starts, then starts itself again with a larger heap
        # (what it sets for that child): two Node starts per run, half its time. Usage statistics off:
        # they go to Alibaba's RUM host at every run (nothing leaves the test machine; ~10% of a run).
        return {"QWEN_CODE_SUPPRESS_YOLO_WARNING": "1", "QWEN_CODE_NO_RELAUNCH": "true",
                "QWEN_USAGE_STATISTICS_ENABLED": "false"}

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
        command = [self.binary, "-p", prompt, "--approval-mode", approval, *args]
        proc = self.launch(fake, lambda url: (command, {"OPENAI_BASE_URL": url + "/v1", "OPENAI_API_KEY":
                                                        "sk-dp-tests-not-a-key", "OPENAI_MODEL": MODEL}),
                           timeout=timeout)
        return QwenSession(proc, fake)
