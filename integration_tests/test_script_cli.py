"""dp script: package.json scripts through the project's package manager (seed run_script)."""

from __future__ import annotations

import json
import shutil

import pytest
from cli_assertions import assert_one_line_error
from task_projects import calls, install_fake, make_repo, path_with


def node_project(root, scripts, *lockfiles):
    make_repo(root)
    (root / "package.json").write_text(json.dumps({"scripts": scripts}))
    for name in lockfiles:
        (root / name).write_text("")
    return root


def test_runs_the_script_through_the_lockfiles_manager(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"build": "next build"}, "pnpm-lock.yaml")
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "pnpm", "built\n")
    proc = dp("script", "build", "--prod", cwd=root, extra_env={"PATH": path_with(bin_dir)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "built\n"
    assert calls(bin_dir) == [{"argv": ["pnpm", "run", "build", "--prod"], "cwd": str(root.resolve())}]


@pytest.mark.skipif(shutil.which("npm") is None, reason="needs npm")
def test_real_npm_script_gets_its_arguments_and_exit_code(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"check": "node check.js"})
    (root / "check.js").write_text("console.log(process.argv.slice(2).join('|')); process.exit(5)\n")
    proc = dp("script", "check", "--flag", "value", cwd=root)
    assert proc.returncode == 5
    assert "--flag|value" in proc.stdout


def test_json_mode_reports_the_run(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"build": "tsc"}, "bun.lockb")
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "bun", "ok\n", exit_code=2)
    proc = dp("script", "--json", "build", cwd=root, extra_env={"PATH": path_with(bin_dir)})
    assert proc.returncode == 2
    report = json.loads(proc.stdout)
    assert report["runner"] == "bun" and report["command"] == "bun run build"
    assert report["output"] == "ok\n" and report["exit_code"] == 2


def test_unknown_script_lists_the_scripts_alphabetised(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"test": "x", "build": "y", "lint": "z"})
    proc = dp("script", "deploy", cwd=root)
    assert_one_line_error(proc, 'no script named "deploy" in package.json; available: build, lint, test')


def test_empty_name_is_refused(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"test": "x"})
    assert_one_line_error(dp("script", "", cwd=root), "script name is required")


def test_no_package_json_is_refused(dp, tmp_path):
    proc = dp("script", "build", cwd=make_repo(tmp_path / "repo"))
    assert_one_line_error(proc, "package.json not found in")


def test_other_ecosystems_are_told_to_use_dp_run(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\n')
    proc = dp("script", "build", cwd=root)
    assert_one_line_error(proc, "only Node projects support scripts (detected: cargo)")


def test_malformed_package_json_is_reported(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "package.json").write_text('{"scripts": {')
    proc = dp("script", "build", cwd=root)
    assert_one_line_error(proc, "parsing package.json:")


def test_dry_run_runs_nothing(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"build": "tsc"})
    proc = dp("script", "--dry-run", "build", "--", "--watch", cwd=root)
    assert proc.returncode == 0
    assert proc.stdout == "npm run build -- --watch\n"
