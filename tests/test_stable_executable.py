"""dp init warns when the hook program would not last: a temporary directory, a repository's venv."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from dp.agents.executable import stability_warning


def program_in(directory: Path) -> Path:
    (directory / "bin").mkdir(parents=True, exist_ok=True)
    program = directory / "bin" / "pave-check"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    return program


def test_a_program_in_a_temporary_directory_is_flagged(tmp_path):
    warning = stability_warning(program_in(tmp_path / "venv"))
    assert "is in a temporary directory" in warning and "uv tool install" in warning and "pipx install" in warning


def test_a_program_in_a_clones_venv_is_flagged(tmp_path):
    clone = tmp_path / "clone"
    (clone / ".git").mkdir(parents=True)
    program = program_in(clone / ".venv")
    assert stability_warning(program) is not None and "repository" not in stability_warning(program)  # no venv
    (clone / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    assert f"inside the repository {clone}" in stability_warning(program_in(clone / ".venv"))


def test_an_installed_interpreter_is_stable():
    assert stability_warning(Path(os.path.realpath(sys.executable))) is None
