"""Task, script and target names starting with '-' never reach a runner.

``npm run -f`` is ``npm run --force``; ``make -f x`` reads another Makefile.
Whatever the spelling, dp refuses with one line and nothing runs: the
scripts below would leave a marker file behind.
"""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def project(tmp_path):
    marker = tmp_path / "EXECUTED"
    scripts = {name: f"touch {marker}" for name in ("-f", "--force", "-", "--", "-rf")}
    (tmp_path / "package.json").write_text(json.dumps({"name": "p", "scripts": {**scripts, "ok": "true"}}))
    (tmp_path / "Makefile").write_text(f"ok:\n\ttrue\n-f:\n\ttouch {marker}\n")
    return tmp_path


COMMANDS = [
    ["run", "--", "-f"],
    ["run", "-f"],
    ["run", "--", "--force"],
    ["run", "--runner", "npm", "--", "-rf"],
    ["run", "--", "-"],
    ["run", "--", "-f x"],
    ["run", "--dry-run", "--", "-f"],
    ["script", "--", "-f"],
    ["script", "--", "--force"],
    ["script", "--", "-"],
    ["make", "--", "-f"],
    ["make", "--", "--eval=x"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_names_starting_with_a_dash_are_refused_and_nothing_runs(dp, project, command):
    result = dp(*command, cwd=project, timeout=60)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dp: error: "), result.stderr
    assert "internal error" not in result.stderr
    assert not (project / "EXECUTED").exists()
    assert "npm run" not in result.stdout


@pytest.mark.parametrize("command", [["run", "--", "-f"], ["script", "--", "--force"], ["run", "--dry-run", "--", "-"]])
def test_a_name_after_dashdash_is_explained_not_just_missing(dp, project, command):
    """After ``--`` words are the task's arguments (npm's rule), so ``dp run -- -f`` names no task: say why."""
    result = dp(*command, cwd=project, timeout=60)
    assert result.returncode == 2
    assert "no task name before '--'" in result.stderr and "nothing was executed" in result.stderr
    assert not (project / "EXECUTED").exists()
