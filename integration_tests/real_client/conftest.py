"""Fixtures of the real-client tests: the pinned Claude Code and a throwaway user."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from real_client.claude_install import PINNED_VERSION, Unavailable, ensure_installed
from real_client.client_support import RealClient


@pytest.fixture(scope="session")
def claude_binary():
    """The pinned native ``claude``, installed once per machine into ~/.cache/dp-tests."""
    try:
        return ensure_installed()
    except Unavailable as exc:
        message = f"REAL CLIENT TESTS SKIPPED: Claude Code {PINNED_VERSION} cannot be installed from npm: {exc}"
        warnings.warn(message)
        pytest.skip(message)


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


@pytest.fixture
def client(tmp_path, claude_binary, warm_cache) -> RealClient:
    """A fresh user account with the real client; nothing is installed until the test runs ``dp init``."""
    client = RealClient(tmp_path, claude_binary)
    if warm_cache.is_dir():
        shutil.copytree(warm_cache, client.home / ".cache" / "dp")
    return client
