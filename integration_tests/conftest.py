"""Fixtures for driving the installed ``dp`` and ``pave-check`` as subprocesses.

Every test gets its own HOME and DP_DB under tmp_path, so nothing touches the
real user's store or Claude Code settings.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN_DIR = Path(sys.executable).parent
DP_BIN = BIN_DIR / "dp"
PAVE_CHECK_BIN = BIN_DIR / "pave-check"


def _require(path: Path) -> str:
    if not path.exists():
        pytest.fail(f"{path} is missing: install dp into this environment (pip install '.[test]')")
    return str(path)


@pytest.fixture
def home(tmp_path) -> Path:
    """The user's HOME on a machine where Claude Code has run (``~/.claude`` exists, nothing in it):
    ``dp init`` with no agent named writes Claude Code's settings only there."""
    path = tmp_path / "home"
    (path / ".claude").mkdir(parents=True)
    return path


@pytest.fixture
def db_path(tmp_path) -> Path:
    # dp creates only its default directory (~/.dp); a --db / DP_DB directory must exist.
    (tmp_path / "store").mkdir()
    return tmp_path / "store" / "dp.db"


@pytest.fixture
def env(home, db_path) -> dict:
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DP_", "CLAUDE"))
    }
    environment.update({"HOME": str(home), "DP_DB": str(db_path), "NO_COLOR": "1", "COLUMNS": "200"})
    return environment


@pytest.fixture
def dp(env, home):
    """Run ``dp ARGS…``; returns the CompletedProcess (text mode). It runs in the test's HOME unless a test
    names a directory: never in this checkout, whose pyproject.toml is a project dp would pave."""
    executable = _require(DP_BIN)

    def run(*args, input=None, cwd=None, extra_env=None, timeout=60):
        return subprocess.run(
            [executable, *map(str, args)],
            input=input,
            capture_output=True,
            text=True,
            cwd=cwd if cwd is not None else home,
            env={**env, **(extra_env or {})},
            timeout=timeout,
        )

    return run


@pytest.fixture
def pave_check(env):
    """Pipe a payload (dict → JSON, or a raw str/bytes) into ``pave-check ARGS…``."""
    executable = _require(PAVE_CHECK_BIN)

    def run(payload, *args, extra_env=None, timeout=30):
        if isinstance(payload, dict):
            payload = json.dumps(payload)
        data = payload.encode() if isinstance(payload, str) else payload
        proc = subprocess.run(
            [executable, *map(str, args)],
            input=data,
            capture_output=True,
            env={**env, **(extra_env or {})},
            timeout=timeout,
        )
        return subprocess.CompletedProcess(
            proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
        )

    return run


@pytest.fixture(scope="session")
def rust_env() -> dict:
    """CARGO_HOME / RUSTUP_HOME for the real cargo, whatever HOME the tests run under.

    rustup's ``cargo`` is a proxy that finds its toolchains under ``$RUSTUP_HOME``
    (default ``~/.rustup``): under the session's temporary HOME it would find none.
    The root conftest names the real ones in the environment; this hands them to
    tests that build a child's environment themselves.
    """
    import shutil

    if shutil.which("cargo") is None:
        pytest.skip("needs cargo (install Rust with rustup)")
    return {key: os.environ[key] for key in ("CARGO_HOME", "RUSTUP_HOME") if key in os.environ}


@pytest.fixture(scope="session")
def warm_cache(tmp_path_factory):
    """dp's derived-data cache (bashlex tables), built once: a fresh HOME would rebuild it on its
    first hook call, which on a loaded machine can outlast the hook's 5 s timeout."""
    root = tmp_path_factory.mktemp("dp-cache")
    env = {**os.environ, "HOME": str(root), "XDG_CACHE_HOME": str(root / "cache"), "DP_DB": str(root / "dp.db")}
    bin_dir = Path(sys.executable).parent
    subprocess.run([str(bin_dir / "dp"), "alias", "--cmd", "grep", "--replace", "rg"], env=env, check=True,
                   capture_output=True, timeout=300)
    payload = json.dumps({"tool_name": "Bash", "tool_input": {"command": "grep x"}})
    subprocess.run([str(bin_dir / "pave-check")], input=payload, text=True, env=env, capture_output=True, timeout=300)
    return root / "cache" / "dp"


PYTHON_TOOLS = ("uv", "poetry", "pipx")


@pytest.fixture(scope="session")
def python_managers():
    """uv, poetry and pipx, installed once per machine (xdist workers share them under a lock); their bin directory."""
    import fcntl

    tools = Path(os.environ["DP_TESTS_CACHE"]) / "pytools"  # named by the root conftest
    tools.parent.mkdir(parents=True, exist_ok=True)
    with open(tools.parent / ".pytools.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        bin_dir = tools / "bin"
        if not all((bin_dir / tool).exists() for tool in PYTHON_TOOLS):
            if not (bin_dir / "pip").exists():
                subprocess.run([sys.executable, "-m", "venv", str(tools)], check=True)
            proc = subprocess.run([str(bin_dir / "pip"), "install", "-q", *PYTHON_TOOLS], capture_output=True, text=True)
            if proc.returncode != 0:
                pytest.skip(f"LOUD SKIP: cannot install {', '.join(PYTHON_TOOLS)} from PyPI: {proc.stderr[-300:]}")
        return bin_dir
