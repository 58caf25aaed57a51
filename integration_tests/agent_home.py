"""One user's machine for the real-client tests: the environment an agent binary and dp run in.

Each harness (Claude Code, Codex CLI …) gives its throwaway user a HOME with the XDG
directories and TMPDIR inside it and a ``bin`` directory first on PATH; none of the
tester's own variables of dp or of the agents leak in.
"""

from __future__ import annotations

import os
from pathlib import Path

# Variables of dp and of every agent: the tester's own never reach a test user.
FOREIGN = ("DP_", "XDG_", "CLAUDE", "ANTHROPIC", "CODEX", "OPENAI", "GEMINI", "GOOGLE_", "COPILOT",
           "GITHUB_COPILOT", "GITHUB_TOKEN", "GH_TOKEN", "GH_HOST")  # Copilot CLI's login and repo-hook switch


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
