"""dp tasks: runners, reasons and tasks of real temporary projects."""

from __future__ import annotations

import json

from cli_assertions import assert_one_line_error
from task_projects import calls, install_fake, make_repo, path_with


def test_lists_every_runner_with_reason_and_tasks(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "package.json").write_text(json.dumps({"scripts": {"test": "vitest run", "dev": "vite"}}))
    (root / "pnpm-lock.yaml").write_text("")
    (root / "Makefile").write_text(".PHONY: lint\nlint: ## Lint everything\n\t@true\n")
    proc = dp("tasks", cwd=root)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"Project {root.resolve()}" in out
    assert "pnpm: pnpm-lock.yaml found: pnpm" in out
    assert "make: Makefile found" in out
    lines = [line.split() for line in out.splitlines()]
    assert ["test", "script", "vitest", "run"] in lines
    assert ["lint", "phony", "target", "Lint", "everything"] in lines
    assert "dp run NAME" in out


def test_json_has_runners_tasks_and_the_available_tasks_map(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\n')
    (root / ".cargo").mkdir()
    (root / ".cargo" / "config.toml").write_text('[alias]\nci = "test --all"\n')
    sub = root / "src"
    sub.mkdir()
    proc = dp("tasks", "--json", cwd=sub)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["root"] == str(root.resolve()) and data["directory"] == str(root.resolve())
    (cargo,) = data["runners"]
    assert cargo["name"] == "cargo" and cargo["ecosystem"] == "rust"
    assert ".cargo/config.toml" in cargo["reason"]
    ci = next(task for task in cargo["tasks"] if task["name"] == "ci")
    assert ci == {
        "name": "ci",
        "description": "cargo test --all",
        "kind": "alias",
        "builtin": False,
        "command": "cargo ci",
    }
    assert "test" in data["available_tasks"]["cargo"] and "ci" in data["available_tasks"]["cargo"]


def test_cwd_option_selects_a_sub_project(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "Makefile").write_text("all:\n\t@true\n")
    web = root / "web"
    web.mkdir()
    (web / "package.json").write_text(json.dumps({"scripts": {"dev": "vite"}}))
    data = json.loads(dp("tasks", "--json", "--cwd", "web", cwd=root).stdout)
    assert data["available_tasks"] == {"npm": ["dev"]}
    assert "(tasks of web/)" in dp("tasks", "--cwd", "web", cwd=root).stdout


def test_makefile_with_variable_target_names(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "Makefile").write_text("NAME := tool\nFOO:=bar\n$(NAME)-x:\n\t@true\n")
    data = json.loads(dp("tasks", "--json", cwd=root).stdout)
    assert data["available_tasks"] == {"make": ["tool-x"]}


def test_just_and_task_json_listings_are_used_when_installed(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "justfile").write_text("# anything: the listing comes from just\n")
    (root / "Taskfile.yml").write_text("version: '3'\n")
    bin_dir = tmp_path / "bin"
    dump = {
        "recipes": {
            "test": {"doc": "Run the tests", "private": False},
            "_hidden": {"doc": None, "private": False},
            "helper": {"doc": None, "private": True},
        }
    }
    install_fake(bin_dir, "just", json.dumps(dump))
    listing = {"tasks": [{"name": "build", "desc": "Build it", "summary": ""}, {"name": "gen", "desc": ""}]}
    install_fake(bin_dir, "task", json.dumps(listing))
    proc = dp("tasks", "--json", cwd=root, extra_env={"PATH": path_with(bin_dir)})
    assert proc.returncode == 0, proc.stderr
    runners = {runner["name"]: runner for runner in json.loads(proc.stdout)["runners"]}
    assert [(t["name"], t["description"]) for t in runners["just"]["tasks"]] == [("test", "Run the tests")]
    assert [(t["name"], t["description"]) for t in runners["task"]["tasks"]] == [
        ("build", "Build it"),
        ("gen", None),
    ]
    argvs = [call["argv"] for call in calls(bin_dir)]
    assert ["just", "--justfile", "justfile", "--dump", "--dump-format", "json"] in argvs
    assert ["task", "--taskfile", "Taskfile.yml", "--list-all", "--json"] in argvs


def test_a_failing_listing_tool_is_one_clear_error(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "justfile").write_text("bad syntax here\n")
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "just", "error: Unknown start of token\n", exit_code=1)
    proc = dp("tasks", cwd=root, extra_env={"PATH": path_with(bin_dir)})
    assert_one_line_error(proc, "just cannot read")


def test_no_project_is_a_one_line_error(dp, tmp_path):
    root = make_repo(tmp_path / "empty")
    proc = dp("tasks", cwd=root)
    assert proc.returncode == 1
    assert_one_line_error(proc, "no project found")


def test_cwd_outside_the_project_lists_the_project_there(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "Makefile").write_text("all:\n\t@true\n")
    (tmp_path / "justfile").write_text("hello:\n    echo hi\n")
    proc = dp("tasks", "--cwd", "..", "--json", cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["directory"] == str(tmp_path.resolve())


def test_a_broken_makefile_is_a_warning_while_the_other_runners_work(dp, tmp_path):
    root = make_repo(tmp_path / "repo")
    (root / "package.json").write_text(json.dumps({"scripts": {"test": "vitest"}}))
    (root / "Makefile").write_text("all:\n    echo spaces, not a tab\n")
    proc = dp("tasks", cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert "test  script  vitest" in proc.stdout
    assert "dp: warning: make tasks not read: make cannot read" in proc.stderr
    dry = dp("run", "--dry-run", "test", cwd=root)
    assert dry.returncode == 0 and dry.stdout == "npm run test\n"
    assert "warning: make tasks not read" in dry.stderr
