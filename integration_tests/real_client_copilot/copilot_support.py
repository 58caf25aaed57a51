"""Driving the real ``copilot -p`` against the scripted fake model.

A ``CopilotClient`` is one user's machine in a temporary directory, like the
Claude Code harness's ``RealClient`` (whose ``dp``/``init``/``program``
helpers it keeps): its own HOME with XDG directories and TMPDIR inside, dp's
default store there, a ``project/`` directory, a ``bin/`` first on PATH. The
binary runs in its own-provider mode — ``COPILOT_PROVIDER_TYPE=anthropic``,
``COPILOT_PROVIDER_BASE_URL`` at the fake, ``COPILOT_OFFLINE=true`` — so no
GitHub login and no traffic leave the machine. ``run()`` returns a
``Session`` (the Claude harness's: what the model was shown, read from the
recorded requests) plus the client's text output.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from agent_home import user_environment
from real_client.client_support import RealClient, Session

from dp.agents.claude.fake_api import FakeAnthropic
from real_client_copilot.copilot_install import run_environment

# The model name the client is told to use; the fake answers whatever it is asked.
MODEL = "claude-sonnet-4.5"


class CopilotSession(Session):
    """One finished ``copilot -p`` run: the model's view (``Session``) and the client's text output."""

    @property
    def result(self) -> dict:  # Claude Code's JSON result: Copilot's -p prints text
        raise AttributeError("copilot -p prints text: use session.proc.stdout")

    @property
    def output(self) -> str:
        return self.proc.stdout + self.proc.stderr


class CopilotClient(RealClient):
    """A throwaway user account driving the pinned real Copilot CLI."""

    PROGRAM = "copilot"

    def __init__(self, root: Path, binary: Path):
        super().__init__(root, binary)
        self.user_hooks = self.home / ".copilot" / "hooks"

    def _environment(self) -> dict:
        return user_environment(self.home, self.bin, **run_environment())

    def run(self, turns, *args, prompt: str = "Do the task.", allow_all: bool = True, timeout: float = 120,
            cwd: Path | None = None, env: dict | None = None) -> CopilotSession:
        """Run ``copilot -p PROMPT [--allow-all-tools] ARGS`` with the scripted model.

        ``allow_all=False`` leaves every call to the client's own approval,
        which in ``-p`` denies whatever needs one ("no one to approve").
        ``env`` adds variables (``GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS`` …).
        """
        fake = FakeAnthropic(turns=list(turns))
        command = [str(self.binary), "-p", prompt, "--no-color"]
        if allow_all:
            command.append("--allow-all-tools")
        command += [str(arg) for arg in args]
        with fake:
            run_env = {
                **self.env,
                "COPILOT_PROVIDER_TYPE": "anthropic",
                "COPILOT_PROVIDER_BASE_URL": fake.url,
                "COPILOT_PROVIDER_API_KEY": "dp-tests-not-a-key",
                "COPILOT_OFFLINE": "true",
                "COPILOT_MODEL": MODEL,
                **(env or {}),
            }
            proc = subprocess.run(command, capture_output=True, text=True, cwd=cwd or self.project, env=run_env,
                                  timeout=timeout, stdin=subprocess.DEVNULL)
        return CopilotSession(proc, fake)
