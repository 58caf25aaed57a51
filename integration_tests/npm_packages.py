"""Real programs the tests install from the npm registry: once per machine, shared, skipped loudly.

Every real agent binary (Claude Code, Gemini CLI, Codex, Copilot CLI) and every real package
manager (pnpm, yarn, bun) the tests drive comes through ``ensure``, so the three rules below hold
for all of them in one place:

* **Once per machine.** A package goes into ``$DP_TESTS_CACHE/npm/NAME@VERSION`` (the root
  conftest names the cache). pytest-xdist workers and parallel sessions share one install under
  a file lock; it is made in a staging directory that is renamed into place only once its binary
  answers ``--version``, so a half-finished install is never used.
* **A loud skip when the registry cannot be reached.** Before installing, the registry is asked
  for the package's version with no retries and a short timeout: a machine without network skips
  in seconds (npm's own retries take minutes), with a reason that names the package and starts
  with ``REAL CLIENT TESTS SKIPPED`` or the caller's own prefix. ``Unavailable`` carries it.
* **A failure when it can.** Where the registry answers, a failed install, a binary that does not
  answer, or an install that outlasts its time is an error, never a skip: CI must not pass with
  nothing real run on a machine that could have run it.
"""

from __future__ import annotations

import fcntl
import os
import platform
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

INSTALL_SECONDS = 900
PROBE_SECONDS = 45


class Unavailable(Exception):
    """The package cannot be installed here: no npm, or the registry cannot be reached."""


@dataclass(frozen=True)
class NpmTool:
    """One npm package at one version, and where its program lies once installed.

    ``locate`` maps the install prefix to the program (default: ``node_modules/.bin/BIN``);
    ``version_text`` is what ``PROGRAM --version`` must print (default: the version);
    ``scripts`` runs the package's install scripts (off unless the program needs them);
    ``env`` adds variables to the ``--version`` check (Copilot CLI's shared unpack directory).
    """

    package: str
    version: str
    bin: str = ""
    locate: Callable[[Path], Path] | None = None
    version_text: str = ""
    scripts: bool = False
    extra: tuple[str, ...] = field(default=())
    env: tuple[tuple[str, str], ...] = field(default=())

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"

    def program(self, prefix: Path) -> Path:
        if self.locate is not None:
            return self.locate(prefix)
        return prefix / "node_modules" / ".bin" / (self.bin or self.package.rsplit("/", 1)[-1])


def pinned(agent: str, version: str) -> str:
    """The version an agent's suite runs: ``version`` (its docs page's facts are about that one), or
    ``$DP_TESTS_<AGENT>_VERSION`` to try another."""
    return os.environ.get(f"DP_TESTS_{agent.upper()}_VERSION") or version


def npm_machine(what: str) -> str:
    """This machine's CPU in npm's platform-package names (``x64``, ``arm64``); Unavailable when ``what``
    has no build for it."""
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    if machine is None:
        raise Unavailable(f"no {what} build for {platform.machine()}")
    return machine


def is_musl() -> bool:
    """Whether this Linux's C library is musl (Alpine): its native builds are separate packages."""
    return any(Path("/lib").glob("ld-musl-*"))


def cache_root() -> Path:
    return Path(os.environ.get("DP_TESTS_CACHE") or Path.home() / ".cache" / "dp-tests") / "npm"


def prefix_of(tool: NpmTool) -> Path:
    return cache_root() / tool.spec.replace("/", "+")


def ensure(tool: NpmTool) -> Path:
    """The installed program of TOOL, installing it on first use; ``Unavailable`` to skip."""
    prefix = prefix_of(tool)
    program = tool.program(prefix)
    if answers(tool, program):
        return program
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not on PATH")
    prefix.parent.mkdir(parents=True, exist_ok=True)
    with open(prefix.parent / f".{prefix.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not answers(tool, program):
            _probe(npm, tool)
            _install(npm, tool, prefix)
    return program


def answers(tool: NpmTool, program: Path) -> bool:
    """Whether PROGRAM exists and reports the expected version.

    It is started through ``sh``, as the tests' shells start it: some packages' programs are
    scripts without a ``#!`` line (pnpm 12), which only a shell runs.
    """
    if not program.exists():
        return False
    try:
        proc = subprocess.run(["sh", "-c", '"$0" --version', str(program)], capture_output=True, text=True, timeout=120,
                              env={**quiet_environment(), **dict(tool.env)}, stdin=subprocess.DEVNULL,
                              cwd=program.parent)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and (tool.version_text or tool.version) in proc.stdout + proc.stderr


def quiet_environment() -> dict:
    """The environment npm and the programs run in: no update notices, no funding lines."""
    return {**os.environ, "NPM_CONFIG_UPDATE_NOTIFIER": "false", "NPM_CONFIG_FUND": "false",
            "NPM_CONFIG_AUDIT": "false"}


def _probe(npm: str, tool: NpmTool) -> None:
    """Raise ``Unavailable`` unless the registry answers for TOOL now (no retries, bounded).

    A registry that answers but has no such version is an error, not a reason to skip.
    """
    command = [npm, "view", tool.spec, "version", "--fetch-retries=0", "--fetch-timeout=20000"]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=PROBE_SECONDS,
                              env=quiet_environment(), stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Unavailable(f"the npm registry did not answer ({type(exc).__name__})") from None
    if proc.returncode == 0 and tool.version in proc.stdout:
        return
    if proc.returncode == 0 or "E404" in proc.stdout + proc.stderr:
        raise RuntimeError(f"the npm registry answered but has no {tool.spec} ({_tail(proc)})")
    raise Unavailable(f"the npm registry cannot be reached ({_tail(proc)})")


def _install(npm: str, tool: NpmTool, prefix: Path) -> None:
    staging = prefix.with_name(prefix.name + f".{os.getpid()}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    command = [npm, "install", "--prefix", str(staging), "--no-save", "--loglevel=error",
               *([] if tool.scripts else ["--ignore-scripts"]), tool.spec, *tool.extra]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_SECONDS,
                              env=quiet_environment(), stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        shutil.rmtree(staging, ignore_errors=True)
        raise RuntimeError(f"`{' '.join(command)}` ran past {INSTALL_SECONDS} s with the registry reachable")
    if proc.returncode != 0 or not answers(tool, tool.program(staging)):
        shutil.rmtree(staging, ignore_errors=True)
        raise RuntimeError(f"`{' '.join(command)}` failed with the registry reachable: {_tail(proc)}")
    shutil.rmtree(prefix, ignore_errors=True)
    staging.rename(prefix)


def _tail(proc: subprocess.CompletedProcess) -> str:
    lines = (proc.stderr or proc.stdout or "").strip().splitlines()
    return " | ".join(lines[-3:]) or f"exit {proc.returncode}"


def installed_or_skip(tool: NpmTool, what: str = "REAL CLIENT TESTS") -> Path:
    """TOOL's program, or a loud skip (a warning in the summary too) naming what did not run and why."""
    import warnings

    import pytest

    try:
        return ensure(tool)
    except Unavailable as exc:
        message = f"{what} SKIPPED: {tool.spec} cannot be installed from npm: {exc}"
        warnings.warn(message)
        pytest.skip(message)
