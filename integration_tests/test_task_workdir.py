"""dp run, dp script and their MCP tools act only where dp make and dp git may (dp.project.workdir).

A task is looked for from a directory inside the project, and it runs only in
a directory that is not ``/`` or a system directory and that the user owns and
can write: one refusal line, a non-zero exit, nothing executed — in text mode,
with --json and with --dry-run, and through the MCP server.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest
from cli_assertions import assert_one_line_error
from mcp.shared.exceptions import MCPError
from mcp_support import INVALID_PARAMS, call, refusal, structured, write_package
from task_projects import calls, install_fake, make_repo, path_with

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
needs_npm = pytest.mark.skipif(shutil.which("npm") is None, reason="needs npm")
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a directory to another user")

SYSTEM = "it is a system directory"


@pytest.fixture
def fake_npm(tmp_path):
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "npm", stdout="fake npm ran")
    return bin_dir


@needs_make
@needs_npm
def test_a_real_project_in_a_temporary_directory_runs(dp, tmp_path):
    root = make_repo(tmp_path / "app")
    write_package(root, {"hello": "node -e \"require('fs').writeFileSync('npm-ran', 'yes')\""})
    (root / "Makefile").write_text("made:\n\ttouch make-ran\n")
    assert dp("script", "hello", cwd=root).returncode == 0
    assert dp("run", "made", cwd=root).returncode == 0
    assert (root / "npm-ran").read_text() == "yes" and (root / "make-ran").exists()


@pytest.mark.parametrize("command", [["run", "test"], ["script", "test"]])
@pytest.mark.parametrize("extra", [[], ["--dry-run"], ["--json"]])
def test_root_directory_is_refused_and_nothing_runs(dp, fake_npm, command, extra):
    env = {"PATH": path_with(fake_npm)}
    for arguments in ([*command, *extra], [*command, "--cwd", "/", *extra]):
        proc = dp(*arguments, cwd="/", extra_env=env)
        if "--json" in extra:  # under --json the one error is a JSON object on stdout (dp.cli.main._error)
            assert proc.returncode == 1 and proc.stderr == ""
            assert json.loads(proc.stdout)["error"].startswith(f"refusing to work in /: {SYSTEM}")
        else:
            assert_one_line_error(proc, f"dp: error: refusing to work in /: {SYSTEM}")
            assert proc.stdout == ""
    assert calls(fake_npm) == []


@pytest.mark.parametrize("system", ["/etc", "/usr/share", "/var", "/usr/bin"])
@pytest.mark.parametrize("command", ["run", "script"])
def test_system_directories_are_refused_before_any_project_file_is_read(dp, fake_npm, system, command):
    if not os.path.isdir(system):
        pytest.skip(f"{system} does not exist here")
    proc = dp(command, "test", cwd=system, extra_env={"PATH": path_with(fake_npm)})
    assert_one_line_error(proc, f"refusing to work in {system}: {SYSTEM}; pass --cwd with your project directory")
    assert calls(fake_npm) == []


def test_cwd_slash_from_a_project_is_refused_as_starting_in_slash_is(dp, tmp_path, fake_npm):
    root = make_repo(tmp_path / "app")
    (root / "Makefile").write_text("t:\n\ttouch ran\n")
    proc = dp("run", "--cwd", "/", "t", cwd=root, extra_env={"PATH": path_with(fake_npm)})
    assert_one_line_error(proc, "refusing to work in /: ")
    assert calls(fake_npm) == [] and not (root / "ran").exists()


@needs_make
def test_a_read_only_project_directory_is_refused_like_dp_make(dp, tmp_path, fake_npm):
    root = make_repo(tmp_path / "app")
    write_package(root, {"test": "true"})
    (root / "Makefile").write_text("t:\n\ttouch ran\n")
    root.chmod(0o555)
    try:
        for arguments in (["run", "t"], ["script", "test"], ["make", "t"]):
            proc = dp(*arguments, cwd=root, extra_env={"PATH": path_with(fake_npm)})
            assert_one_line_error(proc, f"refusing to work in {root.resolve()}: it is not writable by its owner")
    finally:
        root.chmod(0o755)
    assert calls(fake_npm) == [] and not (root / "ran").exists()


@as_root
@needs_make
@pytest.mark.parametrize("extra", [[], ["--dry-run"]])
def test_a_project_found_above_in_someone_elses_directory_is_refused(dp, tmp_path, fake_npm, extra):
    """The start directory is the user's, but the Makefile found above it is not: the run directory counts."""
    theirs = tmp_path / "theirs"
    (theirs / "mine").mkdir(parents=True)
    (theirs / "Makefile").write_text("t:\n\ttouch ran\n")
    os.chown(theirs, 65534, 65534)
    proc = dp("run", "t", *extra, cwd=theirs / "mine", extra_env={"PATH": path_with(fake_npm)})
    assert_one_line_error(proc, f"refusing to work in {theirs.resolve()}: it is owned by uid 65534")
    assert calls(fake_npm) == [] and not (theirs / "ran").exists()


# --- the MCP tools go through the same checks ------------------------------------------------


def test_mcp_project_recipe_and_run_script_refuse_a_server_started_in_root(env, fake_npm):
    server_env = {**env, "PATH": path_with(fake_npm)}
    error = call("/", server_env, "project_recipe", {"op": "test"})
    assert isinstance(error, MCPError) and error.code == INVALID_PARAMS
    assert f"refusing to work in /: {SYSTEM}" in error.message
    assert refusal(call("/", server_env, "run_script", {"name": "test"})).startswith(
        f"run_script: refusing to work in /: {SYSTEM}"
    )
    assert calls(fake_npm) == []


@as_root
@needs_make
def test_mcp_project_recipe_refuses_a_project_above_in_someone_elses_directory(env, tmp_path, fake_npm):
    theirs = tmp_path / "theirs"
    (theirs / "mine").mkdir(parents=True)
    (theirs / "Makefile").write_text("t:\n\ttouch ran\n")
    os.chown(theirs, 65534, 65534)
    result = call(theirs / "mine", {**env, "PATH": path_with(fake_npm)}, "project_recipe", {"op": "t"})
    assert refusal(result).startswith(f"refusing to work in {theirs.resolve()}: it is owned by uid 65534")
    assert calls(fake_npm) == []


def test_mcp_project_recipe_still_runs_a_project_in_a_temporary_directory(env, tmp_path, fake_npm):
    root = make_repo(tmp_path / "app")
    write_package(root, {"test": "true"})
    result = structured(call(root, {**env, "PATH": path_with(fake_npm)}, "project_recipe", {"op": "test"}))
    assert result["exit_code"] == 0 and result["command"] == "npm run test"
    assert result["runner"] == "npm"
    assert [(ran["argv"], ran["cwd"]) for ran in calls(fake_npm)] == [(["npm", "run", "test"], str(root.resolve()))]
