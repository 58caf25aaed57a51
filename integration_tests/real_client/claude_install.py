"""The pinned Claude Code, installed once from npm into ~/.cache/dp-tests.

The npm package is a thin wrapper whose install script hard-links the
platform package's native binary into place; we install without scripts and
run the platform binary directly, which needs neither node at run time nor
the install script to have run. Several pytest-xdist workers may ask at the
same time: one installs under a file lock, into a temporary directory that is
renamed into place only once the binary answers ``--version``.
"""

from __future__ import annotations

import fcntl
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

# The version every real-client test runs against (the README's observations
# are about this one). DP_TESTS_CLAUDE_CODE_VERSION tries another.
PINNED_VERSION = "2.1.330"
PACKAGE = "@anthropic-ai/claude-code"


class Unavailable(Exception):
    """The client cannot be installed on this machine (no npm, no network)."""


def cache_root() -> Path:
    return Path(os.environ.get("DP_TESTS_CACHE") or Path.home() / ".cache" / "dp-tests")


def version() -> str:
    return os.environ.get("DP_TESTS_CLAUDE_CODE_VERSION") or PINNED_VERSION


def platform_package() -> str:
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    if machine is None:
        raise Unavailable(f"no Claude Code build for {platform.machine()}")
    if sys.platform == "darwin":
        return f"{PACKAGE}-darwin-{machine}"
    musl = any(Path("/lib").glob("ld-musl-*"))
    return f"{PACKAGE}-linux-{machine}{'-musl' if musl else ''}"


def binary_in(prefix: Path) -> Path:
    return prefix / "node_modules" / platform_package() / "claude"


def ensure_installed() -> Path:
    """The path of the pinned native ``claude``; installs it on first use."""
    root = cache_root()
    prefix = root / f"claude-code-{version()}"
    binary = binary_in(prefix)
    if _answers(binary):
        return binary
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".claude-code.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _answers(binary):
            _install(prefix)
    return binary


def _answers(binary: Path) -> bool:
    if not binary.exists():
        return False
    try:
        proc = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and proc.stdout.startswith(version())


def _install(prefix: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not on PATH")
    staging = prefix.with_name(prefix.name + f".{os.getpid()}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    command = [npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund", "--ignore-scripts",
               "--no-save", "--loglevel=error", f"{PACKAGE}@{version()}"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0 or not _answers(binary_in(staging)):
        shutil.rmtree(staging, ignore_errors=True)
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        if not _registry_reachable(npm):
            raise Unavailable(f"the npm registry cannot be reached ({' | '.join(tail)})")
        raise RuntimeError(f"`{' '.join(command)}` failed: {' | '.join(tail)}")
    shutil.rmtree(prefix, ignore_errors=True)
    staging.rename(prefix)


def _registry_reachable(npm: str) -> bool:
    try:
        return subprocess.run([npm, "ping"], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False
