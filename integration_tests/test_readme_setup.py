"""The README's first set-up command, run as written on a fresh stock machine, leaves a hook that outlives the clone.

The command is read from the README and run by ``sh`` in a copy of this checkout (the clone), with
an empty HOME, nothing of dp on PATH and a PATH like a stock Debian, Ubuntu or macOS machine's
(``stock_machine``: no ripgrep, fd or uv); Claude Code has been run there (``~/.claude`` exists).
It must pass as written (the demo's ``rg`` is missing: dp says so and succeeds), ``dp doctor`` must
report no error, and only dp's three programs may reach PATH: ``command -v python pip`` never finds
dp's own environment. Then the clone is deleted, as people do with a checkout they tried, and the
hook command ``dp init`` wrote into ``~/.claude/settings.json`` must still run and rewrite. Installed
into the clone's own ``.venv`` (the command this README used to give), that hook died with the clone.
Last, the README's removal step for that install, run as written, leaves none of dp's programs and
none of its hook entries.

``pip install .`` fetches dp's dependencies from the package index (cached between runs under
``DP_TESTS_CACHE``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from stock_machine import stock_path

ROOT = Path(__file__).resolve().parent.parent
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "*.egg-info", "build", "dist", "site", "__pycache__",
                                   ".pytest_cache", "node_modules")


def first_setup_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r"## Set up\n.*?```sh\n(.+?)\n```", readme, re.S).group(1)


def removal_command() -> str:
    """The README's removal step for its own install (the first line of its removal block)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r"### Removing dp\n.*?```sh\n(.+?)\n", readme, re.S).group(1)


def test_the_first_command_installs_outside_the_clone():
    command = first_setup_command()
    assert command.endswith("dp init") and ".venv" not in command


def test_the_removal_step_takes_away_what_the_first_command_put_in_place():
    removal = removal_command()
    assert removal.startswith("dp uninstall && ")
    for program in ("dp", "pave-check", "dp-capture"):
        assert f"~/.local/bin/{program} " in removal + " " and f"bin/{program} " in first_setup_command()
    assert "rm -rf ~/.local/share/desire-paths" in removal and "~/.local/share/desire-paths" in first_setup_command()


def _run(command: str, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=1200)


def test_the_readme_install_works_on_a_stock_machine_outlives_the_clone_and_comes_out(tmp_path):
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)  # Claude Code has run on this machine
    clone = tmp_path / "dp-clone"
    shutil.copytree(ROOT, clone, ignore=NOT_SOURCE, symlinks=True)
    (clone / ".git").mkdir()  # a clone, as the README's reader has
    stock = stock_path(tmp_path)
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DP_", "CLAUDE", "XDG_", "VIRTUAL_ENV", "PIP_", "PYTHON"))}
    env.update(HOME=str(home), PATH=stock, NO_COLOR="1",
               PIP_CACHE_DIR=str(Path(os.environ["DP_TESTS_CACHE"]) / "pip-cache"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    proc = _run(first_setup_command(), env, clone)
    if proc.returncode != 0 and "Could not find a version" in proc.stderr + proc.stdout:
        pytest.skip("LOUD SKIP: the package index is out of reach for dp's dependencies")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Live demo" in proc.stdout and "inside the repository" not in proc.stdout
    assert "-> left as typed: rg is not installed here" in proc.stdout  # a stock machine: no ripgrep

    # The person's shell: ~/.local/bin first. Only dp's programs come from it, never its python or pip.
    env["PATH"] = f"{home / '.local' / 'bin'}:{stock}"
    looked_up = _run('for p in dp pave-check dp-capture python python3 pip pip3; do echo "$p=$(command -v $p)"; done',
                     env, home).stdout
    found = dict(line.split("=", 1) for line in looked_up.splitlines())
    assert [found[program] for program in ("dp", "pave-check", "dp-capture")] == [
        str(home / ".local" / "bin" / program) for program in ("dp", "pave-check", "dp-capture")]
    assert not [path for program, path in found.items() if program.startswith(("python", "pip")) and str(home) in path]
    doctor = _run("dp doctor --json", env, home)
    assert json.loads(doctor.stdout)["summary"]["error"] == 0, doctor.stdout

    shutil.rmtree(clone)
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    [hook] = {entry["command"] for group in settings["hooks"]["PreToolUse"] for entry in group["hooks"]}
    assert _run("dp alias --cmd scp --flag r R", env, home).returncode == 0
    call = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s", "cwd": str(home),
            "tool_input": {"command": "scp -r build host:/srv"}}
    answer = subprocess.run(hook, shell=True, input=json.dumps(call), env=env, capture_output=True, text=True,
                            cwd=home, timeout=60)
    assert answer.returncode == 0, answer.stderr
    assert json.loads(answer.stdout)["hookSpecificOutput"]["updatedInput"]["command"] == "scp -R build host:/srv"

    removed = _run(removal_command(), env, home)
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert not (home / ".local" / "share" / "desire-paths").exists()
    assert sorted(path.name for path in (home / ".local" / "bin").iterdir()) == []
    assert not (home / ".claude" / "settings.json").exists()  # dp's own file, with only dp's entries
