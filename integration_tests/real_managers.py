"""The REAL pnpm (9+ and 6), yarn classic and berry, and bun, installed once from the npm registry.

They go into $DP_TESTS_CACHE/pm (~/.cache/dp-tests/pm; bun's npm package ships its native binary),
shared by every test that needs a real package manager: the paving tests and
``dp run`` with each manager.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CACHE = Path(os.environ["DP_TESTS_CACHE"]) / "pm"  # named by the root conftest
TOOLS = {"pnpm": "pnpm@12.21.0", "pnpm-6": "pnpm@6.35.1", "yarn": "yarn@1.22.22",
         "yarn-berry": "@yarnpkg/cli-dist@4.18.1", "bun": "bun@1.4.5"}
BINARY = {"pnpm": "pnpm", "pnpm-6": "pnpm", "yarn": "yarn", "yarn-berry": "yarn", "bun": "bun"}


def install_manager(kind: str) -> Path:
    """The manager's bin directory, installed once per machine (xdist workers share it under a lock)."""
    import fcntl

    spec = TOOLS[kind]
    prefix = CACHE / spec.replace("/", "_").replace("@", "_")
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _install_locked(kind, spec, prefix)


def _install_locked(kind: str, spec: str, prefix: Path) -> Path:
    binary = prefix / "node_modules" / ".bin" / BINARY[kind]
    if not binary.exists():
        if shutil.which("npm") is None:
            pytest.skip("npm is not installed: the real-manager tests cannot install pnpm/yarn/bun")
        proc = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(prefix), spec],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            pytest.skip(f"LOUD SKIP: cannot install {spec} from the npm registry: {proc.stderr[-300:]}")
    return binary.parent


def manager_environment() -> dict:
    """The environment the managers run in: their own caches (store, downloads) persist between runs."""
    home = CACHE / "home"
    home.mkdir(parents=True, exist_ok=True)
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DP_", "npm_config", "CI", "YARN_"))}
    return {**environ,
            "HOME": str(home), "COREPACK_ENABLE_STRICT": "0", "YARN_ENABLE_TELEMETRY": "0",
            "YARN_ENABLE_GLOBAL_CACHE": "1"}
