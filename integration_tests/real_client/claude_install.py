"""The pinned Claude Code (and any other release a test names), installed through ``npm_packages``.

The npm package is a thin wrapper whose install script hard-links the
platform package's native binary into place; we install without scripts and
run the platform binary directly, which needs neither node at run time nor
the install script to have run.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

from npm_packages import NpmTool, Unavailable, ensure, installed_or_skip

# The version every real-client test runs against (the README's observations
# are about this one). DP_TESTS_CLAUDE_CODE_VERSION tries another.
PINNED_VERSION = "2.1.330"
PACKAGE = "@anthropic-ai/claude-code"

__all__ = ["PINNED_VERSION", "PACKAGE", "Unavailable", "claude_code", "ensure_installed", "installed_or_skip"]


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


def claude_code(release: str | None = None) -> NpmTool:
    """Claude Code at RELEASE (default: the pinned one), run as its platform package's native binary."""
    package = platform_package()
    return NpmTool(PACKAGE, release or version(), locate=lambda prefix: prefix / "node_modules" / package / "claude")


def ensure_installed(release: str | None = None) -> Path:
    """The path of the native ``claude`` at RELEASE (default: pinned); installs it on first use."""
    return ensure(claude_code(release))
