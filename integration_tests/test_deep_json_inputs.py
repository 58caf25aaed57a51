"""Data nested deeper than Python's readers can go, in every file dp reads: one clear line, or skipped.

Each of these was "internal error: RecursionError" before: a settings file
(``dp pave``, ``dp doctor``, ``dp uninstall``), a package.json, pyproject.toml,
Cargo config or Taskfile (``dp tasks``, ``dp run``), a transcript line
(``dp ingest``) and a ``--set`` value.
"""

from __future__ import annotations

import json

import pytest
from cli_assertions import assert_one_line_error

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "project"
    (path / ".git").mkdir(parents=True)
    return path


def deep_settings(project):
    (project / ".claude").mkdir()
    settings = project / ".claude" / "settings.json"
    settings.write_text('{"x": ' + DEEP + "}")
    return settings


def test_pave_refuses_a_settings_file_nested_too_deeply_in_one_line(dp, project):
    settings = deep_settings(project)
    dp("alias", "read_file", "Read")
    assert_one_line_error(dp("pave", "--hook", "--scope", "project", cwd=project),
                          f"{settings} is nested too deeply to read (arrays or objects inside each other); "
                          "fix it or move it aside (nothing was changed)")
    assert settings.read_text() == '{"x": ' + DEEP + "}"


def test_uninstall_passes_over_a_settings_file_it_cannot_read(dp, project):
    settings = deep_settings(project)
    proc = dp("uninstall", cwd=project)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert settings.read_text() == '{"x": ' + DEEP + "}"


def test_doctor_reports_a_settings_file_nested_too_deeply(dp, project):
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(DEEP)
    report = json.loads(dp("doctor", "--json", cwd=project).stdout)
    [finding] = [c for c in report["checks"] if c["check"] == "settings"]
    assert finding["status"] == "error" and "nested too deeply to read" in finding["message"]


TOML_DEEP = "[" * 5_000 + "]" * 5_000

PROJECT_FILES = {
    "package.json": '{"scripts": ' + DEEP + "}",
    "pyproject.toml": '[project]\nname = "x"\n[tool.poe.tasks]\nx = ' + TOML_DEEP + "\n",
    ".cargo/config.toml": "[alias]\nx = " + TOML_DEEP + "\n",
    "Taskfile.yml": "version: 3\ntasks:\n  x: " + TOML_DEEP + "\n",
}


@pytest.mark.parametrize("name", PROJECT_FILES)
@pytest.mark.parametrize("args", [["tasks"], ["run", "test"]])
def test_a_project_file_nested_too_deeply_is_one_line(dp, project, args, name):
    path = project / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(PROJECT_FILES[name])
    if name.startswith(".cargo"):
        (project / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\n')
    proc = dp(*args, cwd=project)
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr[-500:]
    assert f"parsing {path.name}: nested too deeply to read ({path})" in proc.stderr


def test_a_transcript_line_nested_too_deeply_is_skipped(dp, tmp_path):
    transcripts = tmp_path / "transcripts" / "project"
    transcripts.mkdir(parents=True)
    (transcripts / "session.jsonl").write_text('{"type": "assistant", "message": ' + DEEP + "}\n")
    proc = dp("ingest", "--claude-transcripts", tmp_path / "transcripts", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["claude_transcripts"]["skipped_lines"] == 1


def test_a_set_value_nested_too_deeply_is_text(dp, tmp_path):
    (tmp_path / "echo.yaml").write_text('name: echo\nsteps: [{id: a, command: "printf %s {{value}} | wc -c"}]\n')
    deep = "[" * 3000 + "]" * 3000
    proc = dp("recipe", "run", "echo.yaml", "--set", f"value={deep}", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["steps"][0]["output"] == "6000"
