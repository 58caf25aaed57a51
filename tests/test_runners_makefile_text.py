"""The static Makefile reader: what the text says, and what only make's evaluation could tell."""

from __future__ import annotations

from pathlib import Path

import pytest

from dp.errors import DpError
from dp.runners import makefile_text


def reading(root: Path, text: str, **files):
    (root / "Makefile").write_text(text)
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    return makefile_text.read(root / "Makefile", root, root)


def names(found) -> set:
    return set(found.targets)


def test_rules_variables_and_recipes_are_told_apart(tmp_path):
    found = reading(tmp_path, (
        "CC ?= gcc\nFILES != ls *.c\nX ::= 1\nY :::= 2\nexport Z = 3\noverride W += 4\n"
        "build: main.o util.o ; $(CC) -o app $^\n"
        "test:\n\techo test: not a rule\n\tcheck: also a recipe line\n"
        "release: VERSION = 1.0\n"
        "lib.a:: a.o\nlib.a:: b.o\n"
        "out1 out2 &: in\n\tgen\n"
        "objs := a.o b.o\n$(objs): %.o: %.c\n"
        "%.o: %.c\n\tcc -c $<\n"
        "src/x.o: src/x.c\n"
        ".PHONY: test build\n.DEFAULT_GOAL := build\n"
    ))
    assert names(found) == {"build", "test", "lib.a", "out1", "out2"}
    assert found.phony == {"test", "build"}
    assert found.summary() == "Makefile:17 defines a target whose name make computes ($(objs))"


def test_continuations_comments_and_define_blocks(tmp_path):
    found = reading(tmp_path, (
        "SOURCES = a.c \\\n  b.c \\\n  c.c\n"
        "define RECIPE\nfake: target\n\tnot a rule\ndefine INNER\nalso: no\nendef\nstill: no\nendef\n"
        "override define OTHER\nnope:\nendef\n"
        "all: \\\n  one \\\n  two  # a comment: with colon\n"
        "hash = \\# not a comment: x\n"
        "# commented: out\n"
    ))
    assert names(found) == {"all"}
    assert not found.unknown


def test_conditionals_are_read_conservatively(tmp_path):
    found = reading(tmp_path, (
        "ifeq ($(OS),Windows_NT)\nwin:\n\techo win\nelse ifdef CI\nci:\n\techo ci\nelse\n"
        "this line is not make syntax but make never parses it\nendif\n"
        "ifndef X\nboth:\nendif\nboth:\n\techo\n"
        "always:\n\techo\n"
        "test:\nifeq (1,1)\n\techo inside a recipe\nendif\n"
    ))
    assert {name for name, target in found.targets.items() if target.conditional} == {"win", "ci"}
    assert not found.targets["both"].conditional and not found.targets["always"].conditional
    assert "test" in found.targets


def test_includes_are_followed_inside_the_repository_only(tmp_path):
    outside = tmp_path / "outside.mk"
    outside.write_text("stolen:\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "escape.mk").symlink_to(outside)
    found = reading(repo, (
        "include mk/common.mk mk/*.glob.mk\n-include local.mk\nsinclude also-missing.mk\n"
        "include ../outside.mk escape.mk\ninclude $(GENERATED)\n"
        "include missing.mk\nall:\n"
    ), **{"mk/common.mk": "common:\ninclude mk/deeper.mk\n", "mk/deeper.mk": "deeper:\n", "mk/a.glob.mk": "globbed:\n"})
    assert names(found) == {"all", "common", "deeper", "globbed"}
    assert found.unknown == [
        "Makefile:4 includes ../outside.mk, outside the repository: not read",
        "Makefile:4 includes escape.mk, outside the repository: not read",
        "Makefile:5 includes $(GENERATED): a name make computes",
        "Makefile:6 includes missing.mk, which does not exist: make would try to build it",
    ]


def test_a_missing_optional_include_matters_only_when_a_rule_could_build_it(tmp_path):
    assert not reading(tmp_path, "-include deps.mk\nall:\n").unknown
    found = reading(tmp_path, "-include deps.mk\nall:\ndeps.mk:\n\tgen > deps.mk\n")
    assert found.unknown == ["Makefile:1 includes deps.mk, which a rule would build first"]


def test_include_cycles_and_depth_are_bounded(tmp_path):
    (tmp_path / "a.mk").write_text("a:\ninclude b.mk\n")
    (tmp_path / "b.mk").write_text("b:\ninclude a.mk\n")
    assert names(reading(tmp_path, "include a.mk\n")) == {"a", "b"}
    for level in range(makefile_text.MAX_DEPTH + 2):
        (tmp_path / f"d{level}.mk").write_text(f"level{level}:\ninclude d{level + 1}.mk\n")
    found = reading(tmp_path, "include d0.mk\n")
    assert len(found.targets) == makefile_text.MAX_DEPTH
    assert any("past the bounds" in reason for reason in found.unknown)


def test_what_make_evaluates_is_unknown_never_run(tmp_path):
    marker = tmp_path / "marker"
    found = reading(tmp_path, (
        f"override SHELL := /bin/sh\nX := $(shell touch {marker})\n$(file >{marker},x)\n"
        "$(eval $(call RULE,gen))\n$(foreach t,a b,$(eval $t: ; @echo $t))\nload ext.so\n"
        ".RECIPEPREFIX = >\nok:\n"
    ))
    assert names(found) == {"ok"}
    assert not marker.exists()
    assert len(found.unknown) == 5 and "and 0 more" not in found.summary()
    assert found.unknown[0].startswith("Makefile:3 is an expansion make evaluates ($(file")
    assert "Makefile:6 loads a make extension" in found.unknown


def test_a_line_that_is_no_makefile_syntax_is_a_clear_error(tmp_path):
    with pytest.raises(DpError, match=r"cannot read .*Makefile: line 2 is neither a rule"):
        reading(tmp_path, "test:\n    echo spaces\n")


def test_descriptions_come_from_double_hash_comments_in_included_files_too(tmp_path):
    found = reading(tmp_path, "include more.mk\n## Build it\nbuild:\n", **{"more.mk": "lint: ## Lint it\n"})
    assert found.targets["build"].description == "Build it"
    assert found.targets["lint"].description == "Lint it"


def test_a_makefile_that_leads_out_of_the_repository_is_not_read(tmp_path):
    (tmp_path / "elsewhere.mk").write_text("secret-host:\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "Makefile").symlink_to(tmp_path / "elsewhere.mk")
    found = makefile_text.read(repo / "Makefile", repo, repo)
    assert not found.targets and found.unknown == ["Makefile leads outside the repository: not read"]
