"""The user's installed Claude Code: where it is and which version, for what it can do.

Hook ``if`` conditions exist since Claude Code 2.1.85; an older client would
ignore them and start every handler on every call, so dp writes filtered
handlers only when it knows the client understands them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

from dp.agents.claude.filters import MAX_CONDITIONS

IF_FILTERS_SINCE = (2, 1, 85)
# Plugin hook modules ("mods": the plugin runs a hallucinated tool name as the real tool) load from this
# release on (observed: 2.1.240 has none; 2.1.286 loads them unless CLAUDE_CODE_ENABLE_FUNCTION_HOOKS=0;
# 2.1.330 always). The one number init, doctor and the README give (tests/test_claude_versions.py).
MODS_SINCE = (2, 1, 286)
# The oldest release the real-client tests run dp's settings hooks in
# (integration_tests/real_client/test_old_client.py): below it, a failure's first fix is to upgrade.
OLDEST_CHECKED = (2, 1, 197)
UPGRADE = "claude update"
VERSION_TIMEOUT_SECONDS = 15


def find_claude() -> str | None:
    """The ``claude`` on PATH (``$DP_CLAUDE`` names another), or None."""
    explicit = os.environ.get("DP_CLAUDE")
    if explicit:
        return shutil.which(explicit) or (explicit if os.access(explicit, os.X_OK) else None)
    return shutil.which("claude")


def present() -> bool:
    """Whether this machine has Claude Code: a ``claude`` to run, or the ``~/.claude`` it keeps once run
    (``CLAUDE_CONFIG_DIR`` names another). ``dp init`` writes its user settings only then."""
    from pathlib import Path

    config = os.environ.get("CLAUDE_CONFIG_DIR") or str(Path.home() / ".claude")
    return find_claude() is not None or os.path.isdir(config)


def version_of(binary: str) -> tuple[int, ...] | None:
    """``claude --version`` as a tuple (``2.1.330 (Claude Code)`` → (2, 1, 330)), None if it does not say."""
    try:
        proc = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=VERSION_TIMEOUT_SECONDS,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.match(r"\s*(\d+)\.(\d+)\.(\d+)", proc.stdout or "")
    return tuple(int(part) for part in match.groups()) if proc.returncode == 0 and match else None


def spelled(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))


def filter_support() -> dict:
    """``{"filtered", "version", "reason"}``: whether to write ``if`` filters, and why, in words."""
    binary = find_claude()
    if binary is None:
        return {"filtered": False, "version": None,
                "reason": "claude is not on PATH, so its version is unknown: installed the plain handler "
                          "(it runs on every tool call; run the install again once claude is installed)"}
    version = version_of(binary)
    if version is None:
        return {"filtered": False, "version": None,
                "reason": f"`{binary} --version` did not say its version: installed the plain handler"}
    if version < IF_FILTERS_SINCE:
        return {"filtered": False, "version": spelled(version),
                "reason": f"Claude Code {spelled(version)} has no hook `if` filters (they need "
                          f"{spelled(IF_FILTERS_SINCE)}+): installed the plain handler, which runs on every tool call"}
    return {"filtered": True, "version": spelled(version),
            "reason": f"Claude Code {spelled(version)} has hook `if` filters: dp keeps them in sync with the rules "
                      f"(up to {MAX_CONDITIONS} conditions)"}


def lacks(version: str | None) -> str | None:
    """What the installed release ``version`` lacks of what dp can do there, with the upgrade; None when
    nothing (or unknown). Below ``MODS_SINCE``: the plugin's mod, and nothing else dp installs."""
    if not version:
        return None
    release = tuple(int(part) for part in re.findall(r"\d+", version)[:3])
    if release >= MODS_SINCE:
        return None
    return (f"Claude Code {version} is older than {spelled(MODS_SINCE)}: it loads no plugin mods, so a made-up tool "
            f"name is told to the model, not run as the right tool (upgrade: {UPGRADE})")
