"""dp run with package.json scripts: real npm/node, fakes for pnpm, yarn and bun."""

from __future__ import annotations

import json
import shutil

import pytest
from cli_assertions import assert_one_line_error
from task_projects import calls, install_fake, make_repo, path_with

needs_npm = pytest.mark.skipif(shutil.which("npm") is None, reason="needs npm")
PRINT_ARGS = "node print-args.js"


def node_project(root, scripts, *lockfiles, **fields):
    make_repo(root)
    (root / "package.json").write_text(json.dumps({"name": "demo", "scripts": scripts, **fields}))
    for name in lockfiles:
        (root / name).write_text("")
    (root / "print-args.js").write_text("console.log(JSON.stringify(process.argv.slice(2)))\n")
    return root


@needs_npm
def test_npm_script_runs_with_arguments_after_the_separator(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"test": PRINT_ARGS})
    proc = dp("run", "test", "--watch", "-t", "only this", cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert '["--watch","-t","only this"]' in proc.stdout
    assert "dp: running `npm run test -- --watch -t 'only this'`" in proc.stderr
    assert "exit code 0 after" in proc.stderr


@needs_npm
def test_exit_code_and_both_streams_come_from_the_task(dp, tmp_path):
    script = "node -e \"console.log('to out'); console.error('to err'); process.exit(3)\""
    root = node_project(tmp_path / "repo", {"fail": script})
    proc = dp("run", "fail", cwd=root)
    assert proc.returncode == 3
    assert "to out" in proc.stdout and "to err" in proc.stderr
    assert "exit code 3" in proc.stderr


@needs_npm
def test_json_report_has_the_documented_fields(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"test": PRINT_ARGS, "lint": "true"})
    proc = dp("run", "--json", "test", "a b", cwd=root)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert {"runner", "command", "cwd", "output", "exit_code", "timed_out", "duration_ms", "available_tasks"} <= set(report)
    assert report["runner"] == "npm"
    assert report["command"] == "npm run test -- 'a b'"
    assert report["cwd"] == str(root.resolve())
    assert '["a b"]' in report["output"]
    assert report["exit_code"] == 0 and report["timed_out"] is False and report["truncated"] is False
    assert isinstance(report["duration_ms"], int)
    assert report["available_tasks"] == {"npm": ["lint", "test"]}


@pytest.mark.parametrize(
    "lockfile, fields, expected",
    [
        ("pnpm-lock.yaml", {}, ["pnpm", "run", "test", "--watch"]),
        ("bun.lockb", {}, ["bun", "run", "test", "--watch"]),
        ("bun.lock", {}, ["bun", "run", "test", "--watch"]),
        ("yarn.lock", {}, ["yarn", "run", "test", "--watch"]),
        ("package-lock.json", {"packageManager": "yarn@4.1.1"}, ["yarn", "run", "test", "--watch"]),
        ("package-lock.json", {"devEngines": {"packageManager": {"name": "pnpm"}}}, ["pnpm", "run", "test", "--watch"]),
    ],
)
def test_the_projects_package_manager_runs_the_script(dp, tmp_path, lockfile, fields, expected):
    root = node_project(tmp_path / "repo", {"test": "vitest"}, lockfile, **fields)
    bin_dir = tmp_path / "bin"
    for manager in ("pnpm", "yarn", "bun"):
        install_fake(bin_dir, manager, f"{manager} ran\n")
    proc = dp("run", "test", "--watch", cwd=root / ".", extra_env={"PATH": path_with(bin_dir)})
    assert proc.returncode == 0, proc.stderr
    assert calls(bin_dir) == [{"argv": expected, "cwd": str(root.resolve())}]
    assert f"{expected[0]} ran" in proc.stdout


def test_leading_double_dash_is_not_passed_twice(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"test": "vitest"}, "pnpm-lock.yaml")
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "pnpm")
    dp("run", "test", "--", "--watch", cwd=root, extra_env={"PATH": path_with(bin_dir)})
    assert calls(bin_dir)[0]["argv"] == ["pnpm", "run", "test", "--watch"]


def test_runs_from_a_subdirectory_in_the_package_root(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"build": "tsc"}, "pnpm-lock.yaml")
    (root / "src" / "deep").mkdir(parents=True)
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "pnpm")
    proc = dp("run", "build", cwd=root / "src" / "deep", extra_env={"PATH": path_with(bin_dir)})
    assert proc.returncode == 0, proc.stderr
    assert calls(bin_dir) == [{"argv": ["pnpm", "run", "build"], "cwd": str(root.resolve())}]


def test_dry_run_shows_the_command_and_runs_nothing(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"test": "vitest"}, "pnpm-lock.yaml", "package-lock.json")
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "pnpm")
    env = {"PATH": path_with(bin_dir)}
    proc = dp("run", "--dry-run", "test", "--coverage", cwd=root, extra_env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "pnpm run test --coverage\n"
    assert "conflicting lockfiles" in proc.stderr
    report = json.loads(dp("run", "--dry-run", "--json", "test", cwd=root, extra_env=env).stdout)
    assert report["dry_run"] is True and report["argv"] == ["pnpm", "run", "test"]
    assert calls(bin_dir) == []


@pytest.mark.parametrize(
    "command, lockfile, message",
    [
        ("run", "pnpm-lock.yaml", '"pnpm" not found on PATH; install pnpm'),
        ("script", "yarn.lock", '"yarn" not found on PATH; install Yarn'),
    ],
)
def test_missing_package_manager_names_what_to_install(dp, tmp_path, command, lockfile, message):
    root = node_project(tmp_path / "repo", {"test": "vitest"}, lockfile)
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    proc = dp(command, "test", cwd=root, extra_env={"PATH": str(empty)})
    assert_one_line_error(proc, message)


def test_several_runners_defining_the_task_are_mentioned(dp, tmp_path):
    root = node_project(tmp_path / "repo", {"lint": "eslint ."}, "pnpm-lock.yaml")
    (root / "Makefile").write_text("lint:\n\t@echo make lint\n")
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "pnpm")
    env = {"PATH": path_with(bin_dir)}
    proc = dp("run", "lint", cwd=root, extra_env=env)
    assert calls(bin_dir)[0]["argv"] == ["pnpm", "run", "lint"]
    assert "--runner make" in proc.stderr
    chosen = dp("run", "--runner", "make", "lint", cwd=root, extra_env=env)
    assert chosen.returncode == 0 and "make lint" in chosen.stdout
    assert len(calls(bin_dir)) == 1


def test_workspace_member_runs_with_the_workspace_roots_manager(dp, tmp_path):
    # The pnpm lockfile lives at the workspace root only: `npm run` in the
    # member would be exactly the wrong-tool guess dp exists to prevent.
    root = node_project(tmp_path / "repo", {"test": "vitest"}, "pnpm-lock.yaml")
    member = root / "packages" / "web"
    member.mkdir(parents=True)
    (member / "package.json").write_text(json.dumps({"scripts": {"dev": "vite"}}))
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "pnpm")
    proc = dp("run", "dev", "--port", "1", cwd=member, extra_env={"PATH": path_with(bin_dir)})
    assert proc.returncode == 0, proc.stderr
    assert calls(bin_dir) == [{"argv": ["pnpm", "run", "dev", "--port", "1"], "cwd": str(member.resolve())}]
