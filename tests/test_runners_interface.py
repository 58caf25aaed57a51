"""The typed interface every runner goes through (dp.runners.base) and the registry's use of it."""

from __future__ import annotations

import inspect

import pytest

from dp.errors import DpError
from dp.runners.base import BUILTIN, Runner, Task
from dp.runners.registry import ECOSYSTEMS, detect


@pytest.mark.parametrize("ecosystem", ECOSYSTEMS, ids=lambda module: module.__name__.rpartition(".")[2])
def test_every_registered_ecosystem_detects_nothing_in_an_empty_directory(tmp_path, ecosystem):
    assert list(inspect.signature(ecosystem.detect).parameters) == ["directory", "project_root"]
    assert ecosystem.detect(tmp_path, tmp_path) == []


@pytest.mark.parametrize(
    "task, args, expected",
    [
        (Task("t", ["tool", "t"]), [], ["tool", "t"]),
        (Task("t", ["tool", "t"]), ["-x", "--", "y"], ["tool", "t", "-x", "--", "y"]),
        (Task("t", ["npm", "run", "t"], arg_separator="--"), ["--watch"], ["npm", "run", "t", "--", "--watch"]),
        (Task("t", ["npm", "run", "t"], arg_separator="--"), ["--", "--watch"], ["npm", "run", "t", "--", "--watch"]),
        (Task("t", ["pnpm", "run", "t"], dashdash_marks_args=True), ["--", "-w"], ["pnpm", "run", "t", "-w"]),
        (Task("t", ["cargo", "t"]), ["--", "--nocapture"], ["cargo", "t", "--", "--nocapture"]),
    ],
)
def test_a_task_builds_the_argv_with_arguments_where_its_tool_reads_them(task, args, expected):
    assert task.command(args) == expected


def test_a_task_that_takes_no_arguments_refuses_them_but_not_a_bare_run():
    task = Task("all", ["make", "all"], kind="phony target", accepts_args=False)
    assert task.command([]) == ["make", "all"]
    with pytest.raises(DpError, match='phony target "all" takes no arguments'):
        task.command(["-j8"])


def test_a_runner_lists_the_projects_tasks_before_the_tools_builtins(tmp_path):
    tasks = [
        Task("build", ["cargo", "build"], origin=BUILTIN),
        Task("zap", ["cargo", "zap"]),
        Task("alpha", ["cargo", "alpha"]),
    ]
    runner = Runner("cargo", ecosystem="rust", reason="why", root=tmp_path, tasks=tasks)
    assert [task.name for task in runner.tasks] == ["alpha", "zap", "build"]
    assert runner.task("zap") is tasks[1] and runner.task("nope") is None
    assert runner.to_json()["tasks"][2] == {
        "name": "build", "description": None, "kind": "task", "builtin": True, "command": "cargo build",
    }


def test_registry_order_decides_between_runners_of_one_directory(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "package.json").write_text('{"scripts": {"test": "true"}}')
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\n')
    (tmp_path / "Makefile").write_text("test:\n\ttrue\n")
    project = detect(tmp_path)
    assert [runner.ecosystem for runner in project.runners] == ["javascript", "rust", "make"]
