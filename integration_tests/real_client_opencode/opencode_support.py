"""Driving the real ``opencode run`` against the scripted fake Chat Completions API.

An ``OpenCodeUser`` is one user's machine in a temporary directory: its own
HOME (XDG directories and TMPDIR inside), dp's default store, a project that
is a git repository, and a ``bin`` directory first on PATH for stand-in
programs (and the user's own ``opencode``). ``run()`` starts the fake model
with a list of turns, runs the real binary once and returns an
``OpenCodeSession`` to assert on: what the model was shown (every request
body) and what the binary printed.

The model is an ``@ai-sdk/openai-compatible`` provider whose ``baseURL`` is
the fake, given in ``OPENCODE_CONFIG_CONTENT`` (OpenCode merges it over the
user's own config files, which a test may then hold anything in). With
``OPENCODE_DISABLE_MODELS_FETCH`` and ``OPENCODE_DISABLE_AUTOUPDATE`` the
binary sends nothing but the conversation's requests and a title request
(a side request of the fake: it offers no tools).
"""

from __future__ import annotations

from pathlib import Path

from agent_home import AgentSession, AgentUser

from dp.agents.opencode.live import provider_config, settle
from dp.live.openai_compat import Conversation, FakeChat, shell


def bash(command: str, **extra) -> dict:
    """A scripted call of OpenCode's shell tool (``bash`` with ``command`` and a ``description``)."""
    return shell(command, tool="bash", description=extra.pop("description", "Run a command"), **extra)


class OpenCodeSession(AgentSession):
    """One finished ``opencode run``."""

    CONVERSATION = Conversation
    result = AgentSession.output  # this suite's word for it

    def call(self, call: dict) -> dict:
        """The call as the model's own history keeps it (``name``, ``arguments``)."""
        return self.conversation.call(call["id"])

    @property
    def system(self) -> str:
        """The system prompt of the first conversation request."""
        first = self.fake.main_requests[0]["messages"]
        return "\n".join(m["content"] for m in first if m.get("role") == "system" and isinstance(m.get("content"), str))


class OpenCodeUser(AgentUser):
    """A throwaway user account driving the pinned real ``opencode``."""

    AGENT = PROGRAM = "opencode"

    def __init__(self, root: Path, opencode: Path):
        super().__init__(root, opencode)
        self.config_dir = self.home / ".config" / "opencode"
        settle(self.config_dir)

    def environment(self) -> dict:
        return {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_SHARE": "1"}

    def run(self, turns, *args, prompt: str = "Do the task.", timeout: float = 900, cwd: Path | None = None,
            **config) -> OpenCodeSession:
        """``opencode run PROMPT ARGS`` with the scripted model; ``config`` goes into the run's settings."""
        fake = FakeChat(turns=list(turns))
        cwd = cwd or self.project
        if (cwd / ".opencode").is_dir():
            settle(cwd / ".opencode")
        # OpenCode takes its directory from PWD when set (observed: a stale PWD wins over the real one).
        proc = self.launch(fake, lambda url: ([self.binary, "run", *args, prompt],
                                              {"OPENCODE_CONFIG_CONTENT": provider_config(url, **config), "PWD": str(cwd)}),
                           cwd, timeout=timeout)
        return OpenCodeSession(proc, fake)
