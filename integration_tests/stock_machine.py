"""A PATH like a stock Debian, Ubuntu or macOS machine's: the basics, and no ripgrep, fd or uv.

dp's first run must work there (issue 49): the README's first command, ``dp init``'s demonstration
and ``dp doctor``. The test machine has rg, fd and uv (CI installs them for other tests), so a test
of the stock machine cannot use its PATH: ``stock_path`` builds a directory of symlinks to the
programs a stock system has, found on this PATH, and nothing else.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

# What a stock system has that dp's first run may use: a shell and the core utilities, Python with
# its venv and pip (python3-venv on Debian), git. Never rg, fd/fdfind, uv, pipx, claude or node.
BASICS = ("sh", "bash", "env", "cat", "ls", "mkdir", "ln", "rm", "cp", "mv", "chmod", "readlink", "dirname",
          "basename", "uname", "id", "head", "tail", "tr", "sed", "grep", "find", "sort", "git", "python3")
ABSENT = ("rg", "fd", "fdfind", "uv", "pipx")


def stock_path(root: Path) -> str:
    """A one-directory PATH under ``root`` holding ``BASICS``; python3 is the interpreter running the
    tests (its real file: a pyenv shim needs pyenv, a venv's python its venv)."""
    directory = root / "stock-bin"
    directory.mkdir(parents=True, exist_ok=True)
    for program in BASICS:
        found = os.path.realpath(sys.executable) if program == "python3" else shutil.which(program)
        if found and not (directory / program).exists():
            (directory / program).symlink_to(found)
    assert not any((directory / program).exists() for program in ABSENT)
    return str(directory)
