"""The lint gate: ``ruff check`` over the whole repository passes (pyproject's [tool.ruff] chooses the rules).

A test rather than a separate CI step, so the README's one test command is the whole gate a
contributor runs before pushing, and a failure names the file and line like any other test.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ruff() -> str:
    beside = Path(sys.executable).with_name("ruff")
    return str(beside) if beside.exists() else (shutil.which("ruff") or "ruff")


def test_ruff_finds_nothing():
    proc = subprocess.run([_ruff(), "check", "--no-cache", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
