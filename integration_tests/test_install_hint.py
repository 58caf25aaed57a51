"""What dp tells a person to install is dp, and the team plugin's launcher finds it where that puts it.

``dp.INSTALL_HINT`` names the distribution ``desire-paths`` (``dp`` on PyPI is an unrelated
package). Here the hint's own commands run for real, ``uv tool install desire-paths`` and
``pipx install desire-paths``, in a fresh HOME, resolving that name to a wheel built from this
checkout (no package index holds it). Then the committed plugin's ``bin/dp-run`` must find that dp
with nothing of it on PATH — as Claude Code started from a desktop launcher, without the shell
profile that put ``~/.local/bin`` or ``UV_TOOL_BIN_DIR`` there, runs it.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from dp import DISTRIBUTION, INSTALL_HINT, __version__

ROOT = Path(__file__).resolve().parent.parent
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "*.egg-info", "build", "dist", "site", "__pycache__",
                                   ".pytest_cache", "node_modules")


@pytest.fixture(scope="module")
def wheel_dir(python_managers, tmp_path_factory) -> Path:
    """A directory holding the wheel of this checkout (built by uv from a copy: the build writes egg-info)."""
    work = tmp_path_factory.mktemp("wheel")
    shutil.copytree(ROOT, work / "source", ignore=NOT_SOURCE, symlinks=True)
    proc = subprocess.run([str(python_managers / "uv"), "build", "--wheel", "--out-dir", str(work / "dist"),
                           str(work / "source")], capture_output=True, text=True, timeout=900,
                          env={**os.environ, "UV_CACHE_DIR": str(python_managers.parent / "uv-cache")})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return work / "dist"


def person(tmp_path: Path) -> dict:
    home = tmp_path / "person"
    home.mkdir()
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DP_", "CLAUDE", "XDG_", "UV_", "PIPX_", "VIRTUAL_ENV"))}
    return {**env, "HOME": str(home), "PATH": "/usr/bin:/bin"}


def the_hint_commands() -> list[list[str]]:
    """INSTALL_HINT's commands, as words: 'uv tool install desire-paths (or: pipx install desire-paths)'."""
    first, _, second = INSTALL_HINT.partition(" (or: ")
    return [shlex.split(first), shlex.split(second.rstrip(")"))]


def test_the_hint_names_the_distribution_pyproject_builds():
    assert the_hint_commands() == [["uv", "tool", "install", DISTRIBUTION], ["pipx", "install", DISTRIBUTION]]
    assert f'name = "{DISTRIBUTION}"' in (ROOT / "pyproject.toml").read_text()


def team_plugin(tmp_path: Path, dp) -> Path:
    """A repository with the team plugin committed (written by the dp under test); its launcher."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    proc = dp("pave", "--plugin", "--scope", "project", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    return repo / ".claude" / "dp-plugin" / "dp" / "bin" / "dp-run"


@pytest.mark.parametrize("tool", ["uv", "pipx"])
def test_installing_what_the_hint_says_gives_a_dp_the_plugin_finds(tool, python_managers, wheel_dir, tmp_path, dp):
    env = person(tmp_path)
    home = Path(env["HOME"])
    command = dict((words[0], words) for words in the_hint_commands())[tool]
    # The hint's words, the name resolved to the local wheel; links go where this person's shell
    # profile looked (a bin directory of their own), not ~/.local/bin.
    if tool == "uv":
        extra = ["--find-links", str(wheel_dir)]
        install_env = {**env, "UV_TOOL_BIN_DIR": str(home / "shell-bin"),
                       "UV_CACHE_DIR": str(python_managers.parent / "uv-cache")}
    else:
        extra = ["--pip-args", f"--find-links {wheel_dir}"]
        install_env = {**env, "PIPX_BIN_DIR": str(home / "shell-bin")}
    proc = subprocess.run([str(python_managers / tool), *command[1:], *extra], env=install_env, capture_output=True,
                          text=True, timeout=900, cwd=tmp_path)
    if proc.returncode != 0 and "network" in (proc.stdout + proc.stderr).lower():
        pytest.skip(f"LOUD SKIP: {tool} could not reach the package index for dp's dependencies")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    installed = subprocess.run([str(home / "shell-bin" / "dp"), "--version"], env=env, capture_output=True, text=True)
    assert installed.stdout == f"dp {__version__}\n", installed.stderr

    runner = team_plugin(tmp_path, dp)
    found = subprocess.run([str(runner), "dp", "--version"], env=env, capture_output=True, text=True,
                           cwd=runner.parents[4], timeout=60)
    assert (found.returncode, found.stdout) == (0, f"dp {__version__}\n"), found.stderr
    session = subprocess.run([str(runner), "pave-check"], env=env, capture_output=True, text=True, timeout=60,
                             input=json.dumps({"hook_event_name": "SessionStart", "session_id": "s",
                                               "cwd": str(runner.parents[4]), "source": "startup"}))
    assert session.returncode == 0 and "not installed on this machine" not in session.stdout, session.stdout


def test_without_dp_the_session_is_told_to_install_the_distribution(tmp_path, dp):
    env = person(tmp_path)
    runner = team_plugin(tmp_path, dp)
    proc = subprocess.run([str(runner), "pave-check"], env=env, capture_output=True, text=True, timeout=60,
                          input=json.dumps({"hook_event_name": "SessionStart", "session_id": "s", "cwd": "/",
                                            "source": "startup"}))
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert proc.returncode == 0 and f"not installed on this machine: {INSTALL_HINT}, then start" in context
    assert "pipx install dp " not in context and "install dp)" not in context
