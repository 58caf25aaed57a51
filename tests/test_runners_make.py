"""Makefile targets from make's own database (real GNU make)."""

from __future__ import annotations

import shutil

import pytest

from dp.errors import DpError
from dp.runners import make

MAKEFILE = """\
NAME := app
FOO:=bar
export BAR = baz
.PHONY: test lint $(NAME)-x

test: ## Run the tests
\t@echo testing

## Lint the code
lint:
\t@echo lint

$(NAME)-x: ## Build the x variant
\t@echo x

all: test lint ## Everything
build/out.o: src.c
\tcc -c src.c
%.o: %.c
\tcc -c $<
release: VERSION = 1.0
include extra.mk
"""

EXTRA_MK = """\
.PHONY: docs
docs: ## Build the docs
\t@echo docs
"""

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")


@pytest.fixture
def makefile_dir(tmp_path):
    (tmp_path / "Makefile").write_text(MAKEFILE)
    (tmp_path / "extra.mk").write_text(EXTRA_MK)
    return tmp_path


def by_name(tasks):
    return {task.name: task for task in tasks}


def test_targets_come_from_makes_database(makefile_dir):
    tasks = by_name(make.list_targets(makefile_dir))
    assert set(tasks) == {"test", "lint", "app-x", "all", "docs"}
    assert "FOO" not in tasks and "NAME" not in tasks and "BAR" not in tasks
    assert "release" not in tasks  # a target-specific variable, not a rule
    assert tasks["app-x"].argv == ("make", "app-x")


def test_phony_targets_are_marked(makefile_dir):
    tasks = by_name(make.list_targets(makefile_dir))
    assert tasks["test"].kind == "phony target"
    assert tasks["app-x"].kind == "phony target"
    assert tasks["docs"].kind == "phony target"
    assert tasks["all"].kind == "target"


def test_double_hash_comments_describe_targets(makefile_dir):
    tasks = by_name(make.list_targets(makefile_dir))
    assert tasks["test"].description == "Run the tests"
    assert tasks["lint"].description == "Lint the code"
    assert tasks["app-x"].description == "Build the x variant"
    assert tasks["all"].description == "Everything"
    assert tasks["docs"].description == "Build the docs"


def test_targets_take_no_arguments(makefile_dir):
    task = by_name(make.list_targets(makefile_dir))["test"]
    assert task.command() == ["make", "test"]
    with pytest.raises(DpError, match="takes no arguments"):
        task.command(["FOO=1"])


def test_listing_runs_no_recipe(tmp_path):
    (tmp_path / "Makefile").write_text("all:\n\ttouch ran\n")
    assert [task.name for task in make.list_targets(tmp_path)] == ["all"]
    assert not (tmp_path / "ran").exists()


def test_listing_does_not_remake_included_makefiles(tmp_path):
    """make -q would still run this rule to create gen.mk; listing must not."""
    (tmp_path / "Makefile").write_text("include gen.mk\nall:\n\t@true\ngen.mk:\n\ttouch ran; echo 'x:' > gen.mk\n")
    assert "all" in [task.name for task in make.list_targets(tmp_path)]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["Makefile"]


def test_runner_reason_names_the_makefile(makefile_dir):
    (runner,) = make.detect(makefile_dir, makefile_dir)
    assert runner.name == "make" and "Makefile" in runner.reason and "make -pRrq" in runner.reason


@pytest.mark.parametrize("name", ["GNUmakefile", "makefile", "Makefile"])
def test_every_makefile_spelling_is_found(tmp_path, name):
    (tmp_path / name).write_text("hello:\n\t@echo hi\n")
    assert [task.name for task in make.list_targets(tmp_path)] == ["hello"]


def test_no_makefile_no_targets(tmp_path):
    assert make.list_targets(tmp_path) == []
    assert make.detect(tmp_path, tmp_path) == []


def test_makefile_without_targets_lists_none(tmp_path):
    (tmp_path / "Makefile").write_text("X = 1\n")
    assert make.list_targets(tmp_path) == []


def test_broken_makefile_is_a_clear_error(tmp_path):
    (tmp_path / "Makefile").write_text("test:\n    echo spaces, not a tab\n")
    with pytest.raises(DpError, match="make cannot read .*missing separator"):
        make.list_targets(tmp_path)


def test_without_make_literal_targets_are_read_from_the_file(makefile_dir, monkeypatch, tmp_path_factory):
    monkeypatch.setenv("PATH", str(tmp_path_factory.mktemp("empty-bin")))
    (runner,) = make.detect(makefile_dir, makefile_dir)
    assert "not installed" in runner.reason
    tasks = by_name(runner.tasks)
    assert set(tasks) == {"test", "lint", "all"}  # $(NAME)-x needs make to expand
    assert tasks["test"].kind == "phony target" and tasks["test"].description == "Run the tests"
