"""The pinned OpenCode, installed once from npm through ``integration_tests/npm_packages.py``.

``opencode-ai`` is a launcher whose real program is a native binary (Bun, with
OpenCode's JavaScript inside) in a platform package it lists as optional
dependencies (``opencode-linux-x64`` …). Install scripts stay off and the
platform package's ``bin/opencode`` runs directly.
"""

from __future__ import annotations

import sys

from npm_packages import NpmTool, is_musl, npm_machine, pinned

# The version every OpenCode real-client test runs against (docs/agents/opencode.md's
# observations are about this one). DP_TESTS_OPENCODE_VERSION tries another.
PINNED_VERSION = "1.18.33"
PACKAGE = "opencode-ai"


def version() -> str:
    return pinned("opencode", PINNED_VERSION)


def platform_package() -> str:
    machine = npm_machine("OpenCode")
    if sys.platform == "darwin":
        return f"opencode-darwin-{machine}"
    return f"opencode-linux-{machine}{'-musl' if is_musl() else ''}"


def tool() -> NpmTool:
    package = platform_package()
    return NpmTool(PACKAGE, version(), locate=lambda prefix: prefix / "node_modules" / package / "bin" / "opencode")
