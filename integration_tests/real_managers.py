"""The REAL pnpm (9+ and 6), yarn classic and berry, and bun, installed once from the npm registry.

They are installed through ``npm_packages`` (bun's npm package ships its native binary),
shared by every test that needs a real package manager: the paving tests and
``dp run`` with each manager.
"""

from __future__ import annotations

import os
from pathlib import Path

from npm_packages import NpmTool, installed_or_skip

CACHE = Path(os.environ["DP_TESTS_CACHE"]) / "pm"  # the managers' own caches; named by the root conftest
TOOLS = {"pnpm": "pnpm@12.21.0", "pnpm-6": "pnpm@6.35.1", "yarn": "yarn@1.22.22",
         "yarn-berry": "@yarnpkg/cli-dist@4.18.1", "bun": "bun@1.4.5"}
BINARY = {"pnpm": "pnpm", "pnpm-6": "pnpm", "yarn": "yarn", "yarn-berry": "yarn", "bun": "bun"}


def manager_tool(kind: str) -> NpmTool:
    """The npm package of one manager, with its install scripts: they put pnpm's and bun's native binaries in place."""
    package, version = TOOLS[kind].rsplit("@", 1)
    return NpmTool(package, version, bin=BINARY[kind], scripts=True)


def install_manager(kind: str) -> Path:
    """The manager's bin directory, installed once per machine, or a loud skip without the registry."""
    return installed_or_skip(manager_tool(kind), "REAL PACKAGE MANAGER TESTS").parent


def manager_environment() -> dict:
    """The environment the managers run in: their own caches (store, downloads) persist between runs."""
    home = CACHE / "home"
    home.mkdir(parents=True, exist_ok=True)
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DP_", "npm_config", "CI", "YARN_"))}
    return {**environ,
            "HOME": str(home), "COREPACK_ENABLE_STRICT": "0", "YARN_ENABLE_TELEMETRY": "0",
            "YARN_ENABLE_GLOBAL_CACHE": "1"}
