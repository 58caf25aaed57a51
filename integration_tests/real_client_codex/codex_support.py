"""Driving the real ``codex exec`` against the scripted fake Responses API.

A ``CodexUser`` is one user's machine in a temporary directory: its own HOME
(XDG directories and TMPDIR inside), ``CODEX_HOME`` at ``~/.codex`` where
Codex and ``dp init --agent codex`` both look, dp's default store, a project
that is a git repository (Codex's project root), and a ``bin`` directory first
on PATH (also for Codex's login shells, through ``~/.profile``) for stand-in
programs. ``run()`` starts the fake model with a list of
turns, runs the real binary once and returns a ``CodexSession`` to assert on:
what the model was shown (every request body) and what the binary printed.

The fake provider is passed with ``-c`` on the command line, never written to
``config.toml``: that file is the user's and dp's, and the tests check what dp
does to it.
"""

from __future__ import annotations

from pathlib import Path

from agent_home import AgentSession, AgentUser

from dp.agents.codex.fake_api import MODEL, Conversation, FakeResponses

# Codex's own switch for hooks nobody reviewed yet; dp's doctor explains it.
BYPASS_TRUST = "--dangerously-bypass-hook-trust"


class CodexSession(AgentSession):
    """One finished ``codex exec`` run."""

    CONVERSATION, CONVERSATION_KEY, CALL_ID = Conversation, "input", "call_id"

    @property
    def opening(self) -> str:
        """Everything the model read before its first turn (AGENTS.md, SessionStart context, the prompt)."""
        return self.conversation.opening



class CodexUser(AgentUser):
    """A throwaway user account driving the pinned real ``codex``."""

    AGENT = PROGRAM = "codex"
    AGENT_DIRS = (".codex",)

    def __init__(self, root: Path, codex: Path):
        super().__init__(root, codex)
        # Codex runs commands with `bash -lc`: a login shell resets PATH from /etc/profile,
        # and the user's own ~/.profile puts their programs back in front, as a real one does.
        (self.home / ".profile").write_text(f'export PATH="{self.bin}:$PATH"\n')

    @property
    def codex_home(self) -> Path:
        return self.home / ".codex"

    def environment(self) -> dict:
        return {"CODEX_HOME": str(self.codex_home), "DP_TESTS_FAKE_KEY": "sk-dp-tests-not-a-key"}

    # -- the user's side --------------------------------------------------------


    @property
    def hooks_file(self) -> Path:
        return self.codex_home / "hooks.json"

    @property
    def config_toml(self) -> Path:
        return self.codex_home / "config.toml"

    # -- the agent's side --------------------------------------------------------

    def run(self, turns, *args, prompt: str = "Do the task.", trust: bool = True, timeout: float = 120,
            cwd: Path | None = None) -> CodexSession:
        """``codex exec [--dangerously-bypass-hook-trust] ARGS PROMPT`` with the scripted model.

        ``trust=False`` leaves hook trust to what ``config.toml`` records, as
        an interactive user who reviewed dp's hooks in ``/hooks`` has it.
        """
        fake = FakeResponses(turns=list(turns))

        def command(url: str):
            provider = (f'model_providers.fake={{name="fake", base_url="{url}/v1", '
                        f'env_key="DP_TESTS_FAKE_KEY", wire_api="responses"}}')
            return [self.binary, "exec", "-m", MODEL, "-c", 'model_provider="fake"', "-c", provider,
                    *([BYPASS_TRUST] if trust else []), *args, prompt], {}

        return CodexSession(self.launch(fake, command, cwd, timeout=timeout), fake)
