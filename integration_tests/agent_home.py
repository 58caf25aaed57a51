"""One user's machine for the real-client tests: the environment an agent binary and dp run in.

Each harness (Claude Code, Codex CLI …) gives its throwaway user a HOME with the XDG
directories and TMPDIR inside it and a ``bin`` directory first on PATH; none of the
tester's own variables of dp or of the agents leak in.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from dp.agents import all_agents

# The dp under test: installed beside the interpreter running the tests.
BIN = Path(sys.executable).parent

# Variables of dp and of every agent (each adapter's ``env_prefixes``): the tester's own never reach a test user.
FOREIGN = ("DP_", "XDG_", *(prefix for agent in all_agents() for prefix in agent.env_prefixes))


def user_environment(home: Path, bin_dir: Path, **extra: str) -> dict:
    """os.environ without FOREIGN variables, with HOME, XDG_*, TMPDIR and PATH for this user, plus ``extra``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(FOREIGN)}
    env.update({
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "TMPDIR": str(home / "tmp"),
        "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        "NO_COLOR": "1",
        **extra,
    })
    return env


class AgentUser:
    """One user's machine for an agent's real-client suite, and what every such user does with dp.

    A suite configures it: ``AGENT`` (the ``--agent`` name), ``PROGRAM`` (the binary's name on the
    user's PATH), ``AGENT_DIRS`` (what the agent keeps under HOME before dp, ``.gemini`` …) and
    ``environment()`` (the agent's own variables). The user gets a HOME with TMPDIR inside, a project
    that is a git repository, a ``bin`` directory first on PATH holding the pinned binary under its
    usual name (where ``dp doctor --live`` finds it) and stand-in programs, and dp's default store.
    ``launch`` runs the binary once against a scripted model; each suite's ``run`` says how.
    """

    AGENT = ""
    PROGRAM = ""
    AGENT_DIRS: tuple = ()
    project: Path
    bin: Path
    env: dict

    def __init__(self, root: Path, binary: Path):
        self.root, self.binary = root, binary
        self.home, self.project, self.bin = root / "home", root / "project", root / "bin"
        for directory in (self.home / "tmp", *(self.home / name for name in self.AGENT_DIRS), self.project, self.bin):
            directory.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(self.project)], check=True)
        (self.bin / self.PROGRAM).symlink_to(binary)
        self.store = self.home / ".dp" / "dp.db"
        self.env = user_environment(self.home, self.bin, **self.environment())

    def environment(self) -> dict:
        """The agent's own variables for this user (its sign-in, its switches)."""
        return {}

    def launch(self, fake, command, cwd: Path | None = None, env: dict | None = None,
               timeout: float = 180) -> subprocess.CompletedProcess:
        """Start the scripted model ``fake``, run ``command(url)`` → (argv, variables) once as this user
        (in the project unless ``cwd``), stop the model."""
        with fake:
            argv, variables = command(fake.url)
            return subprocess.run([str(part) for part in argv], capture_output=True, text=True,
                                  cwd=cwd or self.project, env={**self.env, **variables, **(env or {})},
                                  timeout=timeout, stdin=subprocess.DEVNULL)

    def dp(self, *args, input=None, check=True, cwd=None, timeout=120) -> subprocess.CompletedProcess:
        """Run the installed ``dp`` as this user (``check``: fail the test on a non-zero exit; ``timeout``
        only stops a hang: ``dp doctor --live`` runs the agent binary, slow on a loaded machine)."""
        proc = subprocess.run([str(BIN / "dp"), *map(str, args)], input=input, capture_output=True, text=True,
                              cwd=cwd or self.project, env=self.env, timeout=timeout)
        if check:
            assert proc.returncode == 0, f"dp {' '.join(map(str, args))} failed:\n{proc.stdout}{proc.stderr}"
        return proc

    def init(self, *args) -> dict:
        """``dp init --agent AGENT`` exactly as a user types it (plus ``--json`` to read the report)."""
        return json.loads(self.dp("init", "--agent", self.AGENT, "--json", *args).stdout)

    def program(self, name: str, script: str = 'echo "{name} ran:" "$@"') -> Path:
        """A stand-in program on PATH (a bash script; ``{name}`` is replaced by its name)."""
        path = self.bin / name
        path.write_text("#!/bin/bash\n" + script.replace("{name}", name) + "\n")
        path.chmod(0o755)
        return path


@dataclass
class AgentSession:
    """One finished run of an agent's binary: what it printed (``proc``) and what the model was sent (``fake``)."""

    proc: subprocess.CompletedProcess
    fake: Any

    # How a suite reads the conversation: the reader class of its fake model, and the key of a request
    # body that carries the whole conversation so far.
    CONVERSATION: ClassVar[Callable[[list], Any]]
    CONVERSATION_KEY: ClassVar[str] = "messages"
    CALL_ID: ClassVar[str] = "id"  # the key of a scripted call's id

    @property
    def conversation(self):
        """The whole conversation as the last request carried it."""
        requests = self.fake.main_requests
        assert requests, f"{Path(self.proc.args[0]).name} sent no request:\n{self.log}"
        return self.CONVERSATION(requests[-1][self.CONVERSATION_KEY])

    def output(self, call: dict) -> str:
        """What the model read as the result of a scripted call."""
        return self.conversation.output(call[self.CALL_ID])

    def shown(self, call: dict) -> str:
        """The call's result and the hook context the model read after it."""
        return self.conversation.shown(call[self.CALL_ID])

    @property
    def log(self) -> str:
        """What the binary printed, stdout then stderr."""
        return self.proc.stdout + self.proc.stderr


def new_user(user_class, tmp_path: Path, binary: Path, warm_cache: Path):
    """A fresh user of ``user_class`` with the pinned binary; dp's caches warmed from ``warm_cache`` when built."""
    user = user_class(tmp_path, binary)
    if warm_cache.is_dir():
        shutil.copytree(warm_cache, user.home / ".cache" / "dp")
    return user
