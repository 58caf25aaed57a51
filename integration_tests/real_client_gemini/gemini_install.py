"""The pinned Gemini CLI, installed once from npm through ``integration_tests/npm_packages.py``.

``@google/gemini-cli`` is plain JavaScript (one bundle, no native binary); its
``gemini`` program runs on the machine's node (20 or later). Install scripts
stay off: the optional ``node-pty`` / keytar builds are for interactive use.
"""

from __future__ import annotations

from npm_packages import NpmTool, pinned

# The version every Gemini real-client test runs against (docs/agents/gemini.md's
# observations are about this one). DP_TESTS_GEMINI_VERSION tries another.
PINNED_VERSION = "0.61.0"
PACKAGE = "@google/gemini-cli"


def version() -> str:
    return pinned("gemini", PINNED_VERSION)


def tool() -> NpmTool:
    # The install check's ``gemini --version`` without the second Node start (see gemini_support).
    return NpmTool(PACKAGE, version(), bin="gemini", env=(("GEMINI_CLI_NO_RELAUNCH", "true"),))
