"""The pinned Factory Droid, installed once from npm through ``integration_tests/npm_packages.py``.

``@factory/cli`` is a node launcher whose optional dependencies are the native builds, one platform
package each (``@factory/cli-linux-x64`` …), holding the ``droid`` binary at ``bin/droid``. The launcher's
0.225.1 pins its builds at 0.225.1, but the registry's linux builds of that release are 0.225.2 (the
launcher's own dependency cannot be installed), so the tests install the platform package itself and run
its binary directly: no node at run time, no install script.
"""

from __future__ import annotations

import sys
from pathlib import Path

from npm_packages import NpmTool, Unavailable, npm_machine, pinned

# The version every Droid real-client test runs against (docs/agents/droid.md's facts are about this one);
# DP_TESTS_DROID_VERSION tries another.
PINNED_VERSION = "0.225.2"
PACKAGE = "@factory/cli"


def version() -> str:
    return pinned("droid", PINNED_VERSION)


def platform_package() -> str:
    """This machine's build of Droid (``@factory/cli-linux-x64``); Unavailable where there is none."""
    if not sys.platform.startswith(("linux", "darwin")):
        raise Unavailable(f"no Factory Droid build for {sys.platform}")
    return f"{PACKAGE}-{'darwin' if sys.platform == 'darwin' else 'linux'}-{npm_machine('Factory Droid')}"


def tool() -> NpmTool:
    package = platform_package()
    return NpmTool(package, version(), locate=lambda prefix: prefix / "node_modules" / package / "bin" / "droid")


def binary() -> Path:
    """The pinned binary, installed on first use (a loud skip where npm cannot give it)."""
    from npm_packages import installed_or_skip

    try:
        return installed_or_skip(tool(), "REAL CLIENT TESTS (Factory Droid)")
    except Unavailable as exc:  # no build for this machine at all
        import pytest

        pytest.skip(f"REAL CLIENT TESTS (Factory Droid) SKIPPED: {exc}")
