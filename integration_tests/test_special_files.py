"""FIFOs, sockets, devices, directories and bad links wherever dp reads a user-named file.

Opening a FIFO for reading blocks until a writer appears, so any reader that
opens before checking would hang: the store (hook and CLI), settings files
(doctor, pave), commit message files, recipe files, collections and recipe
scripts, project task files. Each must answer quickly — the hook by failing
open, the CLI with one ``dp: error:`` line — and write nothing. The subprocess
timeouts are what catch a hang.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from special_kinds import make_directory, make_fifo, make_socket

QUICK = 15  # seconds: far above a real answer, far below "hung"


def _device(path: Path) -> None:
    path.symlink_to("/dev/zero")  # endless: reading it whole would never finish either


def _link_to_fifo(path: Path) -> None:
    os.mkfifo(path.with_name(path.name + ".real"))
    path.symlink_to(path.with_name(path.name + ".real"))


def _dangling(path: Path) -> None:
    path.symlink_to(path.with_name("missing-target"))


def _loop(path: Path) -> None:
    path.symlink_to(path)


KINDS = {
    "fifo": make_fifo,
    "socket": make_socket,
    "directory": make_directory,
    "device": _device,
    "link-to-fifo": _link_to_fifo,
    "dangling-link": _dangling,
    "link-loop": _loop,
}


def _one_error_line(result) -> str:
    assert result.returncode != 0, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dp: error: "), result.stderr
    assert "internal error" not in lines[0]
    return lines[0]


BASH_GREP = {"tool_name": "Bash", "tool_input": {"command": "grep -n x f"}, "hook_event_name": "PreToolUse"}


@pytest.mark.parametrize("kind", KINDS)
def test_the_hook_fails_open_quickly_when_the_store_is_a_special_file(pave_check, tmp_path, kind):
    store = tmp_path / "special.db"
    KINDS[kind](store)
    for extra in ({"DP_DB": str(store)}, None):
        args = () if extra else ("--db", store)
        result = pave_check(BASH_GREP, *args, extra_env=extra, timeout=QUICK)
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@pytest.mark.parametrize("command", [["aliases"], ["alias", "--cmd", "grep", "--replace", "rg"], ["aliases", "export"]])
@pytest.mark.parametrize("kind", KINDS)
def test_the_cli_refuses_a_special_file_as_the_store(dp, tmp_path, kind, command):
    store = tmp_path / "special.db"
    KINDS[kind](store)
    error = _one_error_line(dp("--db", store, *command, timeout=QUICK))
    assert "special.db" in error


@pytest.mark.parametrize("scope", ["user", "project", "local"])
@pytest.mark.parametrize("kind", KINDS)
def test_doctor_and_pave_report_a_special_settings_file_without_hanging(dp, home, tmp_path, kind, scope):
    project = tmp_path / "project"
    project.mkdir()
    base = home if scope == "user" else project
    path = base / ".claude" / ("settings.local.json" if scope == "local" else "settings.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    KINDS[kind](path)
    doctor = dp("doctor", "--json", cwd=project, timeout=60)
    assert doctor.returncode == 1
    report = json.loads(doctor.stdout)
    assert any(path.name in json.dumps(finding) and finding["status"] == "error" for finding in report["checks"]), report
    for args in (["pave", "--hook", "--scope", scope], ["pave", "--unhook", "--scope", scope]):
        _one_error_line(dp(*args, cwd=project, timeout=QUICK))


@pytest.mark.parametrize("kind", KINDS)
def test_git_commit_refuses_a_special_message_file(dp, tmp_path, kind):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    KINDS[kind](repo / "MSG")
    error = _one_error_line(dp("git", "commit", "-F", "MSG", "--cwd", repo, timeout=QUICK))
    assert "MSG" in error


@pytest.mark.parametrize(
    "command",
    [
        ["aliases", "import", "{path}"],
        ["alias", "--recipe", "gt wait", "--file", "{path}"],
        ["recipe", "run", "{path}"],
        ["recipe", "validate", "{path}"],
    ],
)
@pytest.mark.parametrize("kind", ["fifo", "socket", "device", "link-to-fifo", "dangling-link", "link-loop"])
def test_every_user_named_input_file_is_refused_when_special(dp, tmp_path, kind, command):
    path = tmp_path / "input.yaml"
    KINDS[kind](path)
    result = dp(*[word.replace("{path}", str(path)) for word in command], cwd=tmp_path, timeout=QUICK)
    assert result.returncode != 0
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert "input.yaml" in result.stderr


@pytest.mark.parametrize("name", ["Makefile", "package.json", "justfile", "pyproject.toml"])
def test_a_fifo_as_a_project_task_file_does_not_hang_task_discovery(dp, tmp_path, name):
    project = tmp_path / "project"
    project.mkdir()
    os.mkfifo(project / name)
    result = dp("tasks", "--cwd", project, timeout=QUICK)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
