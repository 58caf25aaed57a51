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
