"""Issue 38 through the CLI: what a person meets in dp's second hour (the CLI's part).

Each test runs the installed ``dp`` as a subprocess on a project that looks like a real one.
"""

from __future__ import annotations

import importlib.metadata

from dp import DISTRIBUTION, UNINSTALL_HINT


def test_uninstall_help_names_the_distribution_that_is_dp(dp):
    """`dp` on PyPI is another package: the help says how to remove desire-paths, the name pip knows."""
    proc = dp("uninstall", "--help")
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())
    assert f"pip uninstall {DISTRIBUTION}" in text
    assert "uninstall dp" not in text
    assert UNINSTALL_HINT in text
    installed = importlib.metadata.distribution(DISTRIBUTION)  # the package this environment installed dp as
    assert "dp" in {entry.name for entry in installed.entry_points if entry.group == "console_scripts"}
