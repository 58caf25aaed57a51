"""Make target validation and the planned ``make TARGET`` command (dp.project.make)."""

from __future__ import annotations

import pytest

from dp.errors import DpError
from dp.project.make import check_target, make_command, require_makefile, unknown_target_hint


@pytest.mark.parametrize("name", ["test", "lint-fix", "build_all", "A1", "_private", "x-"])
def test_accepts_plain_target_names(name):
    assert check_target(name) == name


@pytest.mark.parametrize(
    "name",
    ["", "-j", "--eval=x", "FOO=bar", "a;rm -rf x", "a b", "a/b", "$(X)", "a.o", "té", "test\n", "`id`"],
)
def test_refuses_anything_else(name):
    with pytest.raises(DpError, match="invalid make target"):
        check_target(name)


def test_plans_make_target_and_nothing_else(tmp_path):
    (tmp_path / "Makefile").write_text("test:\n\ttrue\n")
    command = make_command(tmp_path, "test")
    assert command.argv == ("make", "test")
    assert command.cwd == tmp_path
    assert command.stdin is None


def test_plans_plain_make_for_the_default_goal(tmp_path):
    (tmp_path / "GNUmakefile").write_text("all:\n\ttrue\n")
    assert make_command(tmp_path).argv == ("make",)
    assert require_makefile(tmp_path) == tmp_path / "GNUmakefile"


def test_without_a_makefile_suggests_generating_one(tmp_path):
    with pytest.raises(DpError, match=r"no Makefile in .*dp make --generate python\|rust\|go\|nodejs"):
        make_command(tmp_path, "test")


def test_bad_target_is_refused_before_looking_for_a_makefile(tmp_path):
    with pytest.raises(DpError, match="invalid make target"):
        make_command(tmp_path, "x;y")


def test_unknown_target_hint_suggests_close_runnable_targets(tmp_path):
    (tmp_path / "Makefile").write_text(".PHONY: test lint\ntest:\n\ttrue\nlint:\n\ttrue\ntest.o:\n\ttrue\n")
    output = "make: *** No rule to make target 'tset'.  Stop.\n"
    assert unknown_target_hint(tmp_path, "tset", output) == (
        'hint: the Makefile has no target "tset"; did you mean "test"? See `dp make --list`'
    )
    far = unknown_target_hint(tmp_path, "zzz", output.replace("tset", "zzz"))
    assert far == 'hint: the Makefile has no target "zzz"; see `dp make --list`'


def test_no_hint_when_make_failed_for_another_reason(tmp_path):
    (tmp_path / "Makefile").write_text("test:\n\tfalse\n")
    assert unknown_target_hint(tmp_path, "test", "make: *** [Makefile:2: test] Error 1\n") is None
    assert unknown_target_hint(tmp_path, None, "anything") is None
