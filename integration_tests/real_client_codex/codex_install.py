"""The pinned Codex CLI, installed once from npm through ``integration_tests/npm_packages.py``.

``@openai/codex`` is a node launcher; the native binary comes in the platform
package it depends on under an alias (``@openai/codex-linux-x64`` is
``@openai/codex@<version>-linux-x64``), at
``vendor/<target triple>/bin/codex``. The tests run that binary directly: no
node at run time, no install script.
"""

from __future__ import annotations

import sys
from pathlib import Path

from npm_packages import NpmTool, npm_machine, pinned

# The version every Codex real-client test runs against (docs/agents/codex.md's
# observations are about this one). DP_TESTS_CODEX_VERSION tries another.
PINNED_VERSION = "0.169.0"
PACKAGE = "@openai/codex"


def version() -> str:
    return pinned("codex", PINNED_VERSION)


def _platform() -> tuple[str, str]:
    """(platform package suffix, Rust target triple) of this machine."""
    machine = npm_machine("Codex CLI")
    arch = "x86_64" if machine == "x64" else "aarch64"
    if sys.platform == "darwin":
        return f"darwin-{machine}", f"{arch}-apple-darwin"
    return f"linux-{machine}", f"{arch}-unknown-linux-musl"


def binary_in(prefix: Path) -> Path:
    suffix, triple = _platform()
    return prefix / "node_modules" / f"{PACKAGE}-{suffix}" / "vendor" / triple / "bin" / "codex"


def tool() -> NpmTool:
    return NpmTool(PACKAGE, version(), locate=binary_in, version_text=f"codex-cli {version()}")
