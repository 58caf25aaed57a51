"""The whole test session runs in a HOME of its own.

Before anything is collected, HOME (and the XDG directories) point at a new
empty temporary directory, removed at the end: no test, fixture or module-level
constant can read or write the real ``~/.dp``, ``~/.claude`` or ``~/.cache/dp``,
and the suite passes on a machine whose HOME is empty, as CI's is. The
variables of the user's own dp, Claude Code and Copilot CLI (``DP_DB``, ``CLAUDE_CONFIG_DIR``, ``COPILOT_HOME``
…) are removed too, and so is every agent's mark on the commands it runs (``CLAUDECODE=1`` …,
``Agent.child_markers``): a suite started from an agent's shell runs dp as a person's terminal does.

What has to outlive the session stays reachable through explicit variables:

* ``DP_TESTS_CACHE`` — the tools the tests install from npm and PyPI (Claude
  Code, pnpm, yarn, bun, uv, poetry), by default ``~/.cache/dp-tests`` of the
  HOME the session started with;
* ``RUSTUP_HOME`` and ``CARGO_HOME`` — rustup's toolchains, which its ``cargo``
  proxy looks for under HOME: ``~/.rustup`` of that HOME, or the ``.rustup``
  beside the ``.cargo/bin`` that holds the ``cargo`` on PATH.

With pytest-xdist every worker makes its own HOME; the variables above are
inherited from the controller.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

KEPT_PREFIXES = ("DP_TESTS_",)
REMOVED_PREFIXES = ("DP_", "CLAUDE", "COPILOT_")
_session_home: Path | None = None


def pytest_configure(config):
    global _session_home
    started_in = Path(os.path.expanduser("~"))
    os.environ.setdefault("DP_TESTS_CACHE", str(started_in / ".cache" / "dp-tests"))
    os.environ.update(rust_homes(started_in))
    from dp.agents import all_agents

    marks = {variable for agent in all_agents() for variable, _ in agent.child_markers}
    for key in list(os.environ):
        if (key.startswith(REMOVED_PREFIXES) and not key.startswith(KEPT_PREFIXES)) or key in marks:
            del os.environ[key]
    _session_home = Path(tempfile.mkdtemp(prefix="dp-tests-home-"))
    os.environ.update({
        "HOME": str(_session_home),
        "XDG_CACHE_HOME": str(_session_home / ".cache"),
        "XDG_CONFIG_HOME": str(_session_home / ".config"),
        "XDG_DATA_HOME": str(_session_home / ".local" / "share"),
        "XDG_STATE_HOME": str(_session_home / ".local" / "state"),
    })


def pytest_unconfigure(config):
    if _session_home is not None:
        shutil.rmtree(_session_home, ignore_errors=True)


def rust_homes(home: Path) -> dict:
    """RUSTUP_HOME / CARGO_HOME for rustup's cargo, unless the environment already names them."""
    if "RUSTUP_HOME" in os.environ and "CARGO_HOME" in os.environ:
        return {}
    cargo = shutil.which("cargo")
    candidates = [(home / ".rustup", home / ".cargo")]
    if cargo is not None:
        installation = Path(cargo).parent.parent  # …/.cargo/bin/cargo
        candidates.append((installation.parent / ".rustup", installation))
    for rustup_home, cargo_home in candidates:
        if rustup_home.is_dir() and cargo_home.is_dir():
            found = {"RUSTUP_HOME": str(rustup_home), "CARGO_HOME": str(cargo_home)}
            return {key: value for key, value in found.items() if key not in os.environ}
    return {}
