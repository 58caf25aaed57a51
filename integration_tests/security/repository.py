"""A cloned repository as an attacker commits it, and the evidence that nothing of it ran.

Every hostile file writes a marker into a directory *outside* the repository
when it runs (``Markers``): a test passes only when that directory stays empty.
The repository looks like one a person clones: a real ``git`` history, a
``node_modules`` tree, build output, a binary file, odd names. A test adds the
files of the path it closes (a Makefile, a committed ``.venv``, ``dp/…``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
from pathlib import Path

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Mallory", "GIT_AUTHOR_EMAIL": "mallory@example.com",
    "GIT_COMMITTER_NAME": "Mallory", "GIT_COMMITTER_EMAIL": "mallory@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}


class Markers:
    """The directory hostile files write to when they run; it must stay empty."""

    def __init__(self, path: Path):
        self.path = path
        path.mkdir(parents=True, exist_ok=True)

    def touch(self, name: str) -> str:
        """A shell command that records ``name`` as having run."""
        return f"touch {shlex.quote(str(self.path / name))}"

    def found(self) -> list[str]:
        return sorted(entry.name for entry in self.path.iterdir())

    def assert_none(self, what: str = "") -> None:
        found = self.found()
        assert not found, f"repository content ran{' on ' + what if what else ''}: {found}"


def executable(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` as an executable file (parents made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def hostile_script(path: Path, markers: Markers, name: str = "") -> Path:
    """A program the repository ships (``.venv/bin/ruff``, ``node_modules/.bin/x``) that marks when run."""
    return executable(path, f"#!/bin/sh\n{markers.touch(name or path.name)}\n")


def cloned_repository(path: Path, files: dict, markers: Markers) -> Path:
    """A committed repository at ``path`` holding ``files`` (relative name → text or bytes).

    Beside them, what a real checkout carries: ``node_modules`` with a package
    and a ``.bin`` entry, build output, a binary file, a file with an odd name,
    and a committed ``.venv`` whose programs mark when run.
    """
    path.mkdir(parents=True, exist_ok=True)
    ordinary = {
        "README.md": "# widget\n\nA small project.\n",
        "src/widget/__init__.py": "VERSION = '1.0'\n",
        "node_modules/left-pad/package.json": '{"name": "left-pad", "version": "1.3.0"}\n',
        "node_modules/left-pad/index.js": "module.exports = (s) => s;\n",
        "build/lib/widget.o": bytes(range(256)) * 4,
        "assets/logo.png": b"\x89PNG\r\n\x1a\n" + bytes(64),
        "docs/a file with spaces & [brackets].txt": "odd name\n",
    }
    for name, content in {**ordinary, **files}.items():
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content)
    for program in ("python", "python3", "ruff", "mypy", "black", "pytest"):
        hostile_script(path / ".venv" / "bin" / program, markers, f"venv-{program}")
    (path / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.12.0\n")
    hostile_script(path / "node_modules" / ".bin" / "left-pad", markers, "node-modules-bin")
    hostile_script(path / "gradlew", markers, "gradlew")
    git = shutil.which("git")
    env = {**os.environ, **GIT_IDENTITY}
    for argv in (["init", "-q", "-b", "main"], ["add", "-A", "-f"], ["commit", "-q", "-m", "Initial commit"]):
        subprocess.run([git, *argv], cwd=path, env=env, check=True, capture_output=True, timeout=60)
    return path


def commit(path: Path, files: dict) -> None:
    """Write ``files`` into the repository and commit them (a later push the user pulls)."""
    for name, content in files.items():
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content) if isinstance(content, bytes) else target.write_text(content)
    env = {**os.environ, **GIT_IDENTITY}
    for argv in (["add", "-A", "-f"], ["commit", "-q", "-m", "Update"]):
        subprocess.run([shutil.which("git"), *argv], cwd=path, env=env, check=True, capture_output=True, timeout=60)


def hostile_task_files(markers: Markers) -> dict:
    """A Makefile, justfile and Taskfile that run commands if a tool so much as reads them.

    The Makefile takes over make's shell (``override SHELL``), so ``make -pRrq
    SHELL=/bin/false`` still runs its ``$(shell …)``; ``$(file >…)`` writes
    without any shell; ``!=`` runs at read time; an included makefile that does
    not exist is remade by its rule. Every recipe marks too.
    """
    mark = markers.touch
    makefile = (
        "override SHELL := /bin/sh\n"
        f"X := $(shell {mark('make-shell')})\n"
        f"$(file >{markers.path / 'make-file'},x)\n"
        f"Y != {mark('make-bang')}\n"
        "include generated.mk\n"
        f"generated.mk:\n\t{mark('make-remake')}; echo 'gen:' > generated.mk\n"
        ".PHONY: test help build lint\n"
        "## Run the tests\n"
        f"test:\n\t{mark('make-recipe-test')}\n"
        f"help:\n\t{mark('make-recipe-help')}\n"
        f"build:\n\t{mark('make-recipe-build')}\n"
        f"lint:\n\t{mark('make-recipe-lint')}\n"
    )
    justfile = (
        f"x := `{mark('just-backtick')}`\n"
        "set shell := [\"sh\", \"-c\"]\n\n"
        f"# Build it\nbuild:\n    {mark('just-recipe-build')}\n\n"
        f"release:\n    {mark('just-recipe-release')}\n"
    )
    taskfile = (
        "version: '3'\n"
        "vars:\n"
        f"  X:\n    sh: {mark('task-dynamic-var')}\n"
        "tasks:\n"
        f"  deploy:\n    desc: Deploy\n    cmds:\n      - {mark('task-cmd-deploy')}\n"
        f"  docs:\n    cmds:\n      - {mark('task-cmd-docs')}\n"
    )
    return {"Makefile": makefile, "justfile": justfile, "Taskfile.yml": taskfile}


def bash_payload(command: str, cwd: Path) -> dict:
    """Claude Code's PreToolUse JSON for one Bash call."""
    return {"session_id": "s", "transcript_path": "/dev/null", "cwd": str(cwd), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command, "description": "run"}}


def hook_env(home: Path, path: str = "") -> dict:
    """The environment of a user with dp installed with its defaults: a HOME of their own, and on PATH
    the real make, just and Task (the test extra installs the last two beside dp), unless ``path`` is given."""
    import sys

    (home / ".dp").mkdir(parents=True, exist_ok=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE", "GIT_"))}
    env.update({"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "NO_COLOR": "1", **GIT_IDENTITY})
    env["PATH"] = path or os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    return env


def pave_check(payload: dict, env: dict, *options: str, cwd: Path) -> subprocess.CompletedProcess:
    """The installed ``pave-check`` with ``payload`` on stdin, started in ``cwd`` as the agent starts it."""
    import json
    import sys

    binary = Path(sys.executable).parent / "pave-check"
    proc = subprocess.run([str(binary), *options], input=json.dumps(payload), cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc
