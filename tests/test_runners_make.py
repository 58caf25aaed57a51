"""Makefile targets: read from the files by default, from make's own database (real GNU make) when a person asked."""

from __future__ import annotations

import shutil

import pytest

from dp.errors import DpError
from dp.runners import make
from dp.runners.base import tools_asked

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


@pytest.fixture
def asked():
    """As `dp tasks` / `dp make --list`: make may list its database."""
    with tools_asked():
        yield


def test_targets_come_from_makes_database(makefile_dir, asked):
    tasks = by_name(make.list_targets(makefile_dir))
    assert set(tasks) == {"test", "lint", "app-x", "all", "docs"}
    assert "FOO" not in tasks and "NAME" not in tasks and "BAR" not in tasks
    assert "release" not in tasks  # a target-specific variable, not a rule
    assert tasks["app-x"].argv == ("make", "app-x")


def test_phony_targets_are_marked(makefile_dir, asked):
    tasks = by_name(make.list_targets(makefile_dir))
    assert tasks["test"].kind == "phony target"
    assert tasks["app-x"].kind == "phony target"
    assert tasks["docs"].kind == "phony target"
    assert tasks["all"].kind == "target"


def test_double_hash_comments_describe_targets(makefile_dir, asked):
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


def test_listing_runs_no_recipe(tmp_path, asked):
    (tmp_path / "Makefile").write_text("all:\n\ttouch ran\n")
    assert [task.name for task in make.list_targets(tmp_path)] == ["all"]
    assert not (tmp_path / "ran").exists()


def test_listing_does_not_remake_included_makefiles(tmp_path, asked):
    """make -q would still run this rule to create gen.mk; listing must not."""
    (tmp_path / "Makefile").write_text("include gen.mk\nall:\n\t@true\ngen.mk:\n\ttouch ran; echo 'x:' > gen.mk\n")
    assert "all" in [task.name for task in make.list_targets(tmp_path)]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["Makefile"]


def test_runner_reason_names_the_makefile(makefile_dir, asked):
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


def test_broken_makefile_is_a_clear_error(tmp_path, asked):
    (tmp_path / "Makefile").write_text("test:\n    echo spaces, not a tab\n")
    with pytest.raises(DpError, match="make cannot read .*missing separator"):
        make.list_targets(tmp_path)


def test_by_default_targets_are_read_from_the_file_and_computed_names_are_unknown(makefile_dir):
    (runner,) = make.detect(makefile_dir, makefile_dir)
    assert "read from the file (make not run)" in runner.reason
    tasks = by_name(runner.tasks)
    assert set(tasks) == {"test", "lint", "all", "docs"}  # $(NAME)-x needs make to expand
    assert "Makefile:13 defines a target whose name make computes ($(NAME)-x)" in runner.unknown
    assert tasks["test"].kind == "phony target" and tasks["test"].description == "Run the tests"
    assert tasks["docs"].kind == "phony target" and tasks["docs"].description == "Build the docs"
    assert tasks["lint"].description == "Lint the code" and tasks["all"].kind == "target"


def test_the_database_is_asked_only_within_tools_asked(makefile_dir):
    with tools_asked():
        assert "app-x" in by_name(make.list_targets(makefile_dir))
    assert "app-x" not in by_name(make.list_targets(makefile_dir))


def test_a_makefile_that_is_no_makefile_is_a_clear_error_when_read(tmp_path):
    (tmp_path / "Makefile").write_text("test:\n    echo spaces, not a tab\n")
    with pytest.raises(DpError, match="line 2 is neither a rule, a variable nor a directive .*a recipe line starts with a tab"):
        make.list_targets(tmp_path)
