"""One user's machine for the real-client tests: the environment an agent binary and dp run in.

Each harness (Claude Code, Codex CLI …) gives its throwaway user a HOME with the XDG
directories and TMPDIR inside it and a ``bin`` directory first on PATH; none of the
tester's own variables of dp or of the agents leak in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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
    """What every agent's throwaway user does with dp: run it, install it, put programs on PATH.

    A harness sets ``AGENT`` (the ``--agent`` name), ``project``, ``bin`` and ``env``.
    """

    AGENT = ""
    project: Path
    bin: Path
    env: dict

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
