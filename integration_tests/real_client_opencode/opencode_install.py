"""The pinned OpenCode, installed once from npm through ``integration_tests/npm_packages.py``.

``opencode-ai`` is a launcher whose real program is a native binary (Bun, with
OpenCode's JavaScript inside) in a platform package it lists as optional
dependencies (``opencode-linux-x64`` …). Install scripts stay off and the
platform package's ``bin/opencode`` runs directly.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

from npm_packages import NpmTool, Unavailable

# The version every OpenCode real-client test runs against (docs/agents/opencode.md's
# observations are about this one). DP_TESTS_OPENCODE_VERSION tries another.
PINNED_VERSION = "1.18.33"
PACKAGE = "opencode-ai"


def version() -> str:
    return os.environ.get("DP_TESTS_OPENCODE_VERSION") or PINNED_VERSION


def platform_package() -> str:
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    if machine is None:
        raise Unavailable(f"no OpenCode build for {platform.machine()}")
    if sys.platform == "darwin":
        return f"opencode-darwin-{machine}"
    musl = any(Path("/lib").glob("ld-musl-*"))
    return f"opencode-linux-{machine}{'-musl' if musl else ''}"


def tool() -> NpmTool:
    package = platform_package()
    return NpmTool(PACKAGE, version(), locate=lambda prefix: prefix / "node_modules" / package / "bin" / "opencode")
