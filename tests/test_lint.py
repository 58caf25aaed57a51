"""The lint-and-type gate: ``ruff check`` over the whole repository and ``mypy`` on dp/ pass (pyproject's
[tool.ruff] and [tool.mypy] choose the rules).

A test rather than a separate CI step, so the README's one test command is the whole gate a
contributor runs before pushing, and a failure names the file and line like any other test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    """The tool installed beside this Python (the test extra's pinned one), else the one on PATH."""
    beside = Path(sys.executable).with_name(name)
    return str(beside) if beside.exists() else (shutil.which(name) or name)


def test_ruff_finds_nothing():
    proc = subprocess.run([_tool("ruff"), "check", "--no-cache", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_finds_nothing_in_dp():
    proc = subprocess.run([_tool("mypy"), "--cache-dir", os.devnull, "--no-error-summary"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
