"""Temporary projects for the dp tasks / run / script tests, and fake tools.

The fakes stand in for package managers and task runners that are not
installed: each records its argv and working directory (one JSON line per
call) to ``<bin>/calls.jsonl``, prints what it was told to, and exits with the
given code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path


def real_checkout(path: Path, ignored: tuple[str, ...] = ()) -> Path:
    """What a checkout looks like: sources, build output, node_modules, a binary, odd names
    (``.gitignore`` lists build/, node_modules/ and ``ignored``). Not a git repository yet."""
    (path / "src").mkdir(parents=True)
    (path / "src" / "main.py").write_text("print('hi')\n")
    (path / "node_modules" / "left-pad").mkdir(parents=True)
    (path / "node_modules" / "left-pad" / "index.js").write_text("module.exports = 1\n")
    (path / "build").mkdir()
    (path / "build" / "app.bin").write_bytes(bytes(range(256)) * 4)
    (path / "docs with spaces").mkdir()
    (path / "docs with spaces" / "naïve notes.md").write_text("# notes\n")
    (path / ".gitignore").write_text("".join(f"{line}\n" for line in ("build/", "node_modules/", *ignored)))
    return path


def make_repo(path: Path) -> Path:
    """A directory that dp sees as a repository root (it holds .git)."""
    path.mkdir(parents=True, exist_ok=True)
    (path / ".git").mkdir()
    return path


def install_fake(bin_dir: Path, name: str, stdout: str = "", exit_code: int = 0) -> Path:
    bin_dir.mkdir(parents=True, exist_ok=True)
    log = bin_dir / "calls.jsonl"
    script = bin_dir / name
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        f"with open({str(log)!r}, 'a') as log:\n"
        f"    log.write(json.dumps({{'argv': [{name!r}, *sys.argv[1:]], 'cwd': os.getcwd()}}) + '\\n')\n"
        f"sys.stdout.write({stdout!r})\n"
        f"sys.exit({exit_code})\n"
    )
    script.chmod(0o755)
    return script


def calls(bin_dir: Path) -> list[dict]:
    log = bin_dir / "calls.jsonl"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def path_with(bin_dir: Path) -> str:
    """PATH with the fakes first (the real make/npm/cargo stay reachable)."""
    return f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"


def gone(pid: int) -> bool:
    """No such process (ps fails), or only a zombie left for init to reap."""
    proc = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True)
    return proc.returncode != 0 or proc.stdout.strip().startswith("Z")


def wait_until_gone(pids, seconds: float = 5.0) -> None:
    """Give ended processes up to ``seconds`` to disappear (the caller asserts they did)."""
    deadline = time.monotonic() + seconds
    while not all(map(gone, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
