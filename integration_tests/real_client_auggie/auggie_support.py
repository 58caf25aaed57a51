"""Driving the real ``auggie --print`` (Auggie, Augment Code's CLI) against a local stand-in for Augment's API.

An ``AuggieUser`` is one user's machine in a temporary directory: its own HOME (XDG directories and TMPDIR
inside), an ``~/.augment/settings.json`` of the user's own (which ``dp init --agent auggie`` merges its hooks
into), dp's default store, a project that is a git repository, and a ``bin`` directory first on PATH for
stand-in programs. ``run()`` starts the fake (``dp/agents/auggie/fake_api.py``) with a list of turns, signs
Auggie in to it through ``AUGMENT_SESSION_AUTH`` (no Augment account: the fake is the tenant), runs the real
binary once and returns an ``AuggieSession``: every request the model was sent and what the binary printed.

Auggie's shell tool starts each command in a login shell, whose profile sets PATH anew (observed in 0.36.0:
``/usr/local/sbin:/usr/local/bin:…``), so the run puts the user's ``bin`` first again with Auggie's own
``--startup-script``, as a user's shell profile would.
"""

from __future__ import annotations

import json
from pathlib import Path

from agent_home import AgentSession, AgentUser
from npm_packages import NpmTool

from dp.agents.auggie.fake_api import Conversation, FakeAugment, session_auth

# The version every Auggie real-client test runs against (docs/agents/auggie.md's facts are about it).
PINNED_VERSION = "0.36.0"
TOOL = NpmTool("@augmentcode/auggie", PINNED_VERSION, bin="auggie")
# The user's own settings before dp: a model choice and a key dp knows nothing of, in the user's layout.
USER_SETTINGS = b'{\n  "model": "fake-model",\n  "indexingAllowDirs": ["/tmp/\\u00e9t\\u00e9"]\n}\n'


class AuggieSession(AgentSession):
    """One finished ``auggie --print`` run."""

    CONVERSATION = Conversation

    @property
    def conversation(self) -> Conversation:
        """The whole conversation as the last ``/chat-stream`` request carried it."""
        requests = self.fake.main_requests
        assert requests, f"auggie sent no request:\n{self.log}"
        return Conversation(requests[-1])

    @property
    def opening(self) -> str:
        """Everything the model read before its first turn."""
        return Conversation(self.fake.main_requests[0]).opening


class AuggieUser(AgentUser):
    """A throwaway user account driving the pinned real ``auggie``."""

    AGENT = PROGRAM = "auggie"
    AGENT_DIRS = (".augment",)

    def __init__(self, root: Path, auggie: Path):
        super().__init__(root, auggie)
        self.settings.write_bytes(USER_SETTINGS)

    @property
    def settings(self) -> Path:
        return self.home / ".augment" / "settings.json"

    def hooks(self) -> dict:
        """The hooks of the user's settings file."""
        return json.loads(self.settings.read_text()).get("hooks", {})

    def run(self, turns, *args, prompt: str = "Do the task.", hooks: bool = True, signed_in: bool = True,
            timeout: float = 180) -> AuggieSession:
        """``auggie --print PROMPT ARGS`` with the scripted model; ``hooks``: whether Augment's service (the fake)
        enables hooks for the account; ``signed_in``: whether Auggie is given a sign-in at all."""
        fake = FakeAugment(turns=list(turns), hooks=hooks)
        command = [self.binary, "--print", prompt, "--startup-script", f'export PATH="{self.bin}:$PATH"', *args]
        proc = self.launch(fake, lambda url: (command, {"AUGMENT_SESSION_AUTH": session_auth(url)} if signed_in
                                              else {}), timeout=timeout)
        return AuggieSession(proc, fake)
