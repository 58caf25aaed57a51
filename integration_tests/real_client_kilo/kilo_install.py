"""The pinned Kilo Code CLI, installed once from npm through ``integration_tests/npm_packages.py``.

``@kilocode/cli`` is a launcher (``bin/kilo``, a node script) whose real program is a native binary (Bun, with
Kilo's JavaScript inside) in a platform package it lists as optional dependencies (``@kilocode/cli-linux-x64``
…), as OpenCode's is. Install scripts stay off and the platform package's ``bin/kilo`` runs directly. A machine
that cannot reach the npm registry skips this suite loudly (``installed_or_skip``: the reason starts with
``REAL CLIENT TESTS (Kilo Code) SKIPPED``).

7.7.7, not the newest 7.8.1: npm has no ``@kilocode/cli-linux-x64@7.8.1`` (nor any 7.8.1 platform package
for Linux), so 7.8.1's launcher finds no binary there; 7.7.7 is the newest release whose Linux x64 binary
npm serves (docs/agents/kilo.md).
"""

from __future__ import annotations

import sys

from npm_packages import NpmTool, is_musl, npm_machine, pinned

# The version every Kilo Code real-client test runs against (docs/agents/kilo.md's observations are about
# this one). DP_TESTS_KILO_VERSION tries another.
PINNED_VERSION = "7.7.7"


def version() -> str:
    return pinned("kilo", PINNED_VERSION)


def tool() -> NpmTool:
    """``@kilocode/cli`` at the pinned version, its program the binary of this machine's platform package."""
    system = "darwin" if sys.platform == "darwin" else "linux"
    suffix = "-musl" if system == "linux" and is_musl() else ""
    folder = f"cli-{system}-{npm_machine('Kilo Code CLI')}{suffix}"
    return NpmTool("@kilocode/cli", version(), locate=lambda prefix: prefix / "node_modules" / "@kilocode" / folder
                   / "bin" / "kilo")
