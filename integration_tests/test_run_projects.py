"""dp run for pdm / poetry / uv / poe (fakes), make and cargo (real), just and task (fakes)."""

from __future__ import annotations

import json
import shutil

import pytest
from cli_assertions import assert_one_line_error
from task_projects import calls, install_fake, make_repo, path_with


def python_project(root, text, *files):
    make_repo(root)
    (root / "pyproject.toml").write_text(text)
    for name in files:
        (root / name).write_text("")
    return root


@pytest.mark.parametrize(
    "text, files, op, expected",
    [
        ("[tool.pdm.scripts]\ntest = 'pytest -q'\n", (), "test", ["pdm", "run", "test", "-x"]),
        ("[tool.poetry]\nname = 'x'\n[tool.poetry.scripts]\nserve = 'x:main'\n", (), "serve", ["poetry", "run", "serve", "-x"]),
        ("[project]\nname = 'x'\n[project.scripts]\ncli = 'x:main'\n[build-system]\nrequires = ['hatchling']\n",
         ("uv.lock", "x.py"), "cli", ["uv", "run", "cli", "-x"]),
        ("[tool.uv]\n[tool.poe.tasks]\ndocs = 'mkdocs build'\n", (), "docs", ["uv", "run", "poe", "docs", "-x"]),
    ],
)
def test_python_tasks_run_through_the_projects_manager(dp, tmp_path, text, files, op, expected):
    root = python_project(tmp_path / "repo", text, *files)
    bin_dir = tmp_path / "bin"
    for tool in ("pdm", "poetry", "uv", "poe"):
        install_fake(bin_dir, tool)
    proc = dp("run", op, "-x", cwd=root, extra_env={"PATH": path_with(bin_dir)})
    assert proc.returncode == 0, proc.stderr
    assert calls(bin_dir) == [{"argv": expected, "cwd": str(root.resolve())}]


@pytest.mark.parametrize(
    "text, files",
    [
        ("[project]\nname = 'x'\n[project.scripts]\ncli = 'x:main'\n", ("uv.lock",)),
        ("[tool.poetry]\nname = 'x'\n", ()),
        ("[tool.pdm.scripts]\ntest = 'pytest'\n", ()),
    ],
)
def test_unknown_op_is_refused_and_never_reaches_the_manager(dp, tmp_path, text, files):
    root = python_project(tmp_path / "repo", text, *files)
    before = sorted(path.name for path in root.iterdir())
    bin_dir = tmp_path / "bin"
    for tool in ("pdm", "poetry", "uv"):
        install_fake(bin_dir, tool)
    proc = dp("run", "touch", "pwned", cwd=root, extra_env={"PATH": path_with(bin_dir)})
    assert_one_line_error(proc, 'no task "touch" in this project')
    assert calls(bin_dir) == []
    assert sorted(path.name for path in root.iterdir()) == before


def test_unknown_op_suggests_the_closest_task(dp, tmp_path):
    root = python_project(tmp_path / "repo", "[tool.pdm.scripts]\ntest = 'pytest'\nlint = 'ruff'\n")
    proc = dp("run", "tset", cwd=root)
    assert_one_line_error(proc, 'no task "tset" in this project; did you mean "test"? available: pdm: lint, test')


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
class TestMake:
    MAKEFILE = (
        "NAME := tool\nFOO:=bar\n.PHONY: $(NAME)-x fail\n"
        "$(NAME)-x: ## Build x\n\t@echo building $@ > built.txt\n\t@echo done\n"
        "fail:\n\t@echo failing >&2; exit 4\n"
    )

    def project(self, tmp_path):
        root = make_repo(tmp_path / "repo")
        (root / "Makefile").write_text(self.MAKEFILE)
        return root

    def test_variable_named_target_runs(self, dp, tmp_path):
        root = self.project(tmp_path)
        proc = dp("run", "tool-x", cwd=root)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == "done\n"
        assert (root / "built.txt").read_text() == "building tool-x\n"

    def test_make_exit_code_is_passed_through(self, dp, tmp_path):
        proc = dp("run", "fail", cwd=self.project(tmp_path))
        assert proc.returncode == 2  # make's own exit code for a failed recipe
        assert "failing" in proc.stderr

    def test_variables_are_not_tasks(self, dp, tmp_path):
        proc = dp("run", "FOO", cwd=self.project(tmp_path))
        assert_one_line_error(proc, 'no task "FOO"')

    def test_make_targets_take_no_arguments(self, dp, tmp_path):
        root = self.project(tmp_path)
        proc = dp("run", "tool-x", "FOO=1", cwd=root)
        assert_one_line_error(proc, "takes no arguments")
        assert not (root / "built.txt").exists()


def test_cargo_alias_runs_through_real_cargo(dp, tmp_path, rust_env):
    root = make_repo(tmp_path / "repo")
    (root / "Cargo.toml").write_text('[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n')
    (root / ".cargo").mkdir()
    (root / ".cargo" / "config.toml").write_text('[alias]\nv = "version"\n')
    proc = dp("run", "--json", "v", cwd=root, extra_env=rust_env)
    assert proc.returncode == 0, proc.stdout
    report = json.loads(proc.stdout)
    assert report["runner"] == "cargo" and report["command"] == "cargo v"
    assert report["output"].startswith("cargo ")
    dry = dp("run", "--dry-run", "test", "--release", cwd=root, extra_env=rust_env)
    assert dry.stdout == "cargo test --release\n"


def test_just_and_task_run_through_their_tools(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "justfile").write_text("")
    (root / "Taskfile.yml").write_text("")
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "just", json.dumps({"recipes": {"fmt": {"doc": None}}}))
    install_fake(bin_dir, "task", json.dumps({"tasks": [{"name": "gen", "desc": "Generate"}]}))
    env = {"PATH": path_with(bin_dir)}
    assert dp("run", "fmt", "--check", cwd=root, extra_env=env).returncode == 0
    assert dp("run", "gen", "a", cwd=root, extra_env=env).returncode == 0
    runs = [call["argv"] for call in calls(bin_dir) if "--dump" not in call["argv"] and "--list-all" not in call["argv"]]
    assert runs == [["just", "fmt", "--check"], ["task", "gen", "--", "a"]]


def test_double_dash_after_op_reaches_cargo(dp, tmp_path):
    # For cargo, `--` is meaningful: `cargo test -- --nocapture` passes the flag to
    # the test binary, `cargo test --nocapture` is an error. dp must not eat it.
    root = make_repo(tmp_path / "repo")
    (root / "Cargo.toml").write_text('[package]\nname = "demo"\nversion = "0.1.0"\n')
    proc = dp("run", "--dry-run", "test", "--", "--nocapture", cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "cargo test -- --nocapture\n"
