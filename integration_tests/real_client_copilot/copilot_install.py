"""The pinned GitHub Copilot CLI, installed through ``npm_packages``.

``@github/copilot`` is a node loader whose optional dependency for the
platform (``@github/copilot-linux-x64`` …) holds one native executable; we
run that executable directly. Its first run unpacks about 235 MB (the app,
ripgrep, tree-sitter grammars) into ``$XDG_CACHE_HOME/copilot/pkg/`` — per
HOME, so once per test if nothing is done about it. 1.0.102's loader looks in
``$COPILOT_PKG_CACHE_HOME/pkg`` first (read from its ``sea-loader.js``,
checked by running it): every run the tests make points that variable at one
directory beside the npm install, which the first run fills (the loader
unpacks into a temporary directory and renames it into place, so parallel
first runs are safe) and every later run, in any HOME, reuses.
"""

from __future__ import annotations

import sys
from pathlib import Path

from npm_packages import NpmTool, cache_root, installed_or_skip, is_musl, npm_machine, pinned

# The version every Copilot real-client test runs against (docs/agents/copilot.md's
# observations are about this one). DP_TESTS_COPILOT_VERSION tries another.
PINNED_VERSION = "1.0.102"
PACKAGE = "@github/copilot"

__all__ = ["PINNED_VERSION", "PACKAGE", "copilot_cli", "installed_or_skip", "package_cache", "run_environment"]


def version() -> str:
    return pinned("copilot", PINNED_VERSION)


def platform_package() -> str:
    """The npm package holding the native executable for this machine (as the loader chooses it)."""
    machine = npm_machine("Copilot CLI")
    if sys.platform == "darwin":
        return f"{PACKAGE}-darwin-{machine}"
    return f"{PACKAGE}-linux{'musl' if is_musl() else ''}-{machine}"


def package_cache() -> Path:
    """Where every test's Copilot unpacks its app once (``COPILOT_PKG_CACHE_HOME``)."""
    return cache_root() / f"copilot-pkg-cache-{version()}"


def run_environment() -> dict:
    """The variables every run of the binary gets: the shared unpacked app, no self-update."""
    return {"COPILOT_PKG_CACHE_HOME": str(package_cache()), "COPILOT_AUTO_UPDATE": "false"}


def copilot_cli() -> NpmTool:
    package = platform_package()
    return NpmTool(
        PACKAGE,
        version(),
        locate=lambda prefix: prefix / "node_modules" / package / "copilot",
        version_text=f"GitHub Copilot CLI {version()}",
        env=tuple(run_environment().items()),
    )
