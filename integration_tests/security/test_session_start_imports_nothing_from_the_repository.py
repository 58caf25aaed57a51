"""Finding 2: SessionStart's sync of the hook filters imported the repository's Python.

When a trusted layer file changed, the SessionStart hook ran ``python -m
dp.install.refresh`` in the session's directory; ``-m`` put that directory first
on ``sys.path``, so a committed ``dp/install/refresh.py`` ran. The child now
runs isolated (``-I``) in ``/`` and imports only the dp the hook runs: the test
commits a whole shadow ``dp`` package (and ``sitecustomize.py``) whose every
module marks, changes the trusted file the way a later push would, and starts
a session through the real ``pave-check`` with Claude Code's JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from security.repository import GIT_IDENTITY, cloned_repository, commit

BIN = Path(sys.executable).parent


def shadow_package(markers) -> dict:
    """A ``dp`` package in the repository whose every module the refresh could import marks."""
    files = {}
    for module in ("dp/__init__.py", "dp/install/__init__.py", "dp/refresh.py", "dp/install/refresh.py", "dp/install/hook.py",
                   "dp/hook/__init__.py", "dp/errors.py", "sitecustomize.py", "usercustomize.py"):
        name = module.replace("/", ".")
        files[module] = f"import pathlib\npathlib.Path({str(markers.path / name)!r}).touch()\n"
    return files


def test_session_start_sync_imports_nothing_from_the_repository(tmp_path, markers):
    home = tmp_path / "home"
    (home / ".dp").mkdir(parents=True)
    fake_claude = home / "bin" / "claude"
    fake_claude.parent.mkdir()
    fake_claude.write_text("#!/bin/sh\necho '2.1.330 (Claude Code)'\n")
    fake_claude.chmod(0o755)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE", "GIT_"))}
    env.update({"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "DP_CLAUDE": str(fake_claude),
                **GIT_IDENTITY})

    def dp(*args, cwd):
        proc = subprocess.run([str(BIN / "dp"), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc.stdout

    repo = cloned_repository(tmp_path / "widget", {}, markers)
    dp("alias", "--project", "--cmd", "bd", "--flag", "wisp", "ephemeral", "-m", "this bd has no --wisp", cwd=repo)
    commit(repo, {})
    dp("paving", "off", cwd=repo)  # filters per word, so the sync's effect shows in settings.json
    dp("pave", "--hook", cwd=repo)
    dp("trust", cwd=repo)
    settings = home / ".claude" / "settings.json"

    def conditions() -> list[str]:
        entries = json.loads(settings.read_text())["hooks"].get("PreToolUse", [])
        return [hook.get("if", "") for entry in entries for hook in entry["hooks"]]

    assert "Bash(*bd*)" in conditions()
    # A later push: the trusted file changes, and a shadow dp package arrives beside it.
    rules = (repo / ".dp" / "rules.toml").read_text().replace("this bd has no --wisp", "use --ephemeral")
    commit(repo, {".dp/rules.toml": rules, **shadow_package(markers)})
    payload = {"session_id": "s", "hook_event_name": "SessionStart", "source": "startup", "cwd": str(repo / "src")}
    proc = subprocess.run([str(BIN / "pave-check")], input=json.dumps(payload), cwd=repo, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "changed since you trusted it" in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    markers.assert_none("SessionStart's sync of the hook filters")
    # The sync did run, with the installed dp: the changed file's words left the filters.
    assert not any("bd" in condition for condition in conditions())
