"""Starter Makefile templates and their lossless, no-clobber writing (dp.project.makefiles)."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from dp.errors import DpError
from dp.project.makefiles import LANGUAGES, TEMPLATES, makefile_destination, render_makefile, write_makefile

SEED_TARGETS = {
    "python": {"default", "fix", "format", "lint", "test"},
    "rust": {"default", "build", "fix", "format", "lint", "test"},
    "go": {"default", "build", "fix", "format", "lint", "test"},
    "nodejs": {"default", "fix", "format", "lint", "test"},
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_template_has_the_seed_targets_all_phony_and_tab_indented(language):
    text = render_makefile(language)
    rules = re.findall(r"^([A-Za-z0-9_-]+):", text, flags=re.M)
    assert set(rules) == SEED_TARGETS[language]
    assert rules[0] == "default"
    phony = re.search(r"^\.PHONY: (.*)$", text, flags=re.M).group(1).split()
    assert set(phony) == SEED_TARGETS[language]
    recipe_lines = [line for line in text.splitlines() if line[:1].isspace()]
    assert recipe_lines and all(line.startswith("\t") and not line.startswith("\t ") for line in recipe_lines)
    assert not re.search(r"[$|;&`<>\\'\"*]", text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_real_make_reads_each_template_and_runs_the_listed_recipes(tmp_path, language):
    (tmp_path / "Makefile").write_text(render_makefile(language))
    for target, recipe in TEMPLATES[language].items():
        if target == "default":
            continue
        dry = subprocess.run(["make", "-n", target], cwd=tmp_path, capture_output=True, text=True)
        assert dry.returncode == 0, dry.stderr
        assert dry.stdout.strip() == recipe


def test_default_goal_runs_its_prerequisites(tmp_path):
    (tmp_path / "Makefile").write_text(render_makefile("python"))
    dry = subprocess.run(["make", "-n"], cwd=tmp_path, capture_output=True, text=True)
    expected = [TEMPLATES["python"][name] for name in TEMPLATES["python"]["default"].split()]
    assert dry.stdout.splitlines() == expected


def test_unknown_language_names_the_choices():
    with pytest.raises(DpError) as caught:
        render_makefile("java")
    assert all(language in caught.value.message for language in LANGUAGES)


def test_writes_a_new_makefile_with_umask_permissions(tmp_path):
    destination = makefile_destination(tmp_path, force=False)
    write_makefile(destination, "all:\n\ttrue\n", force=False)
    assert destination == tmp_path / "Makefile"
    assert destination.read_text() == "all:\n\ttrue\n"
    umask = os.umask(0)
    os.umask(umask)
    assert destination.stat().st_mode & 0o777 == 0o666 & ~umask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Makefile"]


@pytest.mark.parametrize("name", ["Makefile", "makefile", "GNUmakefile"])
def test_existing_makefile_is_never_replaced_without_force(tmp_path, name):
    (tmp_path / name).write_text("mine:\n\ttrue\n")
    with pytest.raises(DpError, match="pass --force"):
        makefile_destination(tmp_path, force=False)
    assert (tmp_path / name).read_text() == "mine:\n\ttrue\n"


def test_makefile_appearing_before_the_write_is_not_clobbered(tmp_path):
    destination = makefile_destination(tmp_path, force=False)
    destination.write_text("raced:\n\ttrue\n")
    with pytest.raises(DpError, match="already exists"):
        write_makefile(destination, render_makefile("go"), force=False)
    assert destination.read_text() == "raced:\n\ttrue\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Makefile"]


def test_force_replaces_the_file_make_reads_keeping_its_mode(tmp_path):
    (tmp_path / "GNUmakefile").write_text("old:\n\ttrue\n")
    (tmp_path / "GNUmakefile").chmod(0o640)
    (tmp_path / "Makefile").write_text("shadowed:\n\ttrue\n")
    destination = makefile_destination(tmp_path, force=True)
    assert destination == tmp_path / "GNUmakefile"
    write_makefile(destination, render_makefile("rust"), force=True)
    assert destination.read_text() == render_makefile("rust")
    assert destination.stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "Makefile").read_text() == "shadowed:\n\ttrue\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["GNUmakefile", "Makefile"]


def test_force_writes_a_symlinked_makefile_through_to_its_target(tmp_path):
    (tmp_path / "elsewhere.mk").write_text("keep:\n\ttrue\n")
    (tmp_path / "Makefile").symlink_to(tmp_path / "elsewhere.mk")
    write_makefile(makefile_destination(tmp_path, force=True), render_makefile("nodejs"), force=True)
    assert (tmp_path / "Makefile").is_symlink()
    assert (tmp_path / "elsewhere.mk").read_text() == render_makefile("nodejs")
