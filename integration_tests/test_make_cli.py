"""``dp make``: real make in temp projects — running, refusing, dry runs, generating."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_assertions import assert_one_line_error

MAKEFILE = """\
.PHONY: hello fail touch slow
hello:
\t@echo hello from make
\t@echo to stderr >&2

fail:
\t@echo about to fail
\t@exit 3

touch:
\ttouch touched.txt

slow:
\tsleep 30
"""


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "project"
    path.mkdir()
    (path / "Makefile").write_text(MAKEFILE)
    return path


@pytest.fixture
def empty(tmp_path):
    path = tmp_path / "empty"
    path.mkdir()
    return path


def test_runs_the_target_streaming_both_streams(project, dp):
    proc = dp("make", "hello", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "hello from make\n"
    assert "to stderr" in proc.stderr
    assert f"dp: running `make hello` in {project}" in proc.stderr


def test_exit_code_is_makes_own(project, dp):
    direct = subprocess.run(["make", "fail"], cwd=project, capture_output=True, text=True)
    proc = dp("make", "fail", cwd=project)
    assert proc.returncode == direct.returncode != 0
    assert "about to fail" in proc.stdout


def test_json_report(project, dp):
    proc = dp("make", "hello", "--json", "--cwd", project)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["argv"] == ["make", "hello"]
    assert report["command"] == "make hello"
    assert report["cwd"] == str(project)
    assert "hello from make" in report["output"] and "to stderr" in report["output"]
    assert report["exit_code"] == 0 and report["timed_out"] is False and report["truncated"] is False
    assert isinstance(report["duration_ms"], int)


def test_default_goal_without_a_target(project, dp):
    proc = dp("make", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "hello from make" in proc.stdout


def test_dry_run_shows_the_command_and_runs_nothing(project, dp):
    proc = dp("make", "touch", "--dry-run", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "make touch"
    plan = json.loads(dp("make", "touch", "--dry-run", "--json", cwd=project).stdout)
    assert plan == {"dry_run": True, "command": "make touch", "argv": ["make", "touch"], "cwd": str(project),
                    "timeout": None}
    assert not (project / "touched.txt").exists()


@pytest.mark.parametrize("target", ["touch;id", "-j", "--eval=x", "CC=evil", "../touch", "touch touch", "$(shell id)"])
def test_bad_target_names_are_refused_and_nothing_runs(project, dp, target):
    proc = dp("make", "--", target, cwd=project)
    assert_one_line_error(proc, "invalid make target")
    assert sorted(p.name for p in project.iterdir()) == ["Makefile"]


def test_timeout_stops_make_with_exit_124(project, dp):
    proc = dp("make", "slow", "--timeout", "1", cwd=project, timeout=30)
    assert proc.returncode == 124
    assert "timed out after 1 s" in proc.stderr


def test_timeout_out_of_range_is_refused(project, dp):
    assert_one_line_error(dp("make", "hello", "--timeout", "5000", cwd=project), "at most 1800")


def test_missing_make_is_one_line_naming_what_to_install(project, dp, tmp_path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    proc = dp("make", "touch", cwd=project, extra_env={"PATH": str(empty)})
    assert_one_line_error(proc, "install GNU make")
    assert not (project / "touched.txt").exists()


@pytest.mark.parametrize("directory", ["/", "/etc", "/usr/bin"])
def test_system_working_directories_are_refused(dp, tmp_path, directory):
    assert_one_line_error(dp("make", "--list", "--cwd", directory, cwd=tmp_path), "system directory")


def test_no_makefile_suggests_generate(dp, empty):
    proc = dp("make", "test", cwd=empty)
    assert_one_line_error(proc, "dp make --generate python|rust|go|nodejs")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["hello", "--list"], "cannot be combined"),
        (["--list", "--generate", "go"], "cannot be combined"),
        (["hello", "--force"], "--force only applies to --generate"),
    ],
)
def test_conflicting_options_are_refused(project, dp, args, fragment):
    assert_one_line_error(dp("make", *args, cwd=project), fragment)


def test_list_shows_targets_from_makes_database(dp, empty):
    (empty / "Makefile").write_text(
        "NAME := demo\nFOO:=bar\n.PHONY: build\nbuild: ## Build it\n\t@true\n"
        "$(NAME)-x:\n\t@true\ndocs.html:\n\t@true\n"
    )
    proc = dp("make", "--list", "--json", cwd=empty)
    assert proc.returncode == 0, proc.stderr
    listing = json.loads(proc.stdout)
    targets = {target["name"]: target for target in listing["targets"]}
    assert set(targets) == {"build", "demo-x", "docs.html"}
    assert targets["build"]["phony"] is True and targets["demo-x"]["phony"] is False
    assert targets["build"]["description"] == "Build it"
    assert targets["docs.html"]["runnable"] is False and targets["demo-x"]["runnable"] is True
    assert listing["makefile"] == str(empty / "Makefile")
    text = dp("make", "--list", cwd=empty)
    assert text.returncode == 0
    assert [line.split()[0] for line in text.stdout.splitlines()] == ["build", "demo-x"]
    assert "Build it" in text.stdout
    assert "1 more target(s) not listed" in text.stderr


def test_unknown_target_fails_like_make_with_a_suggestion(project, dp):
    proc = dp("make", "helo", cwd=project)
    assert proc.returncode == subprocess.run(["make", "helo"], cwd=project, capture_output=True).returncode != 0
    assert "No rule to make target 'helo'" in proc.stderr
    assert proc.stderr.splitlines()[-1] == 'hint: the Makefile has no target "helo"; did you mean "hello"? See `dp make --list`'


def test_generate_writes_a_makefile_that_make_can_run(dp, empty):
    proc = dp("make", "--generate", "go", cwd=empty)
    assert proc.returncode == 0, proc.stderr
    makefile = (empty / "Makefile").read_text()
    assert "\n\tgo test ./...\n" in makefile
    dry = dp("make", "test", "--dry-run", cwd=empty)
    assert dry.stdout.strip() == "make test"
    listed = subprocess.run(["make", "-n", "lint"], cwd=empty, capture_output=True, text=True)
    assert listed.stdout.strip() == "golangci-lint run"
    targets = json.loads(dp("make", "--list", "--json", cwd=empty).stdout)["targets"]
    assert {target["name"] for target in targets} == {"default", "build", "fix", "format", "lint", "test"}
    assert all(target["phony"] and target["description"] for target in targets)


def test_generate_never_overwrites_without_force(dp, empty):
    (empty / "Makefile").write_text("mine:\n\t@true\n")
    proc = dp("make", "--generate", "python", cwd=empty)
    assert_one_line_error(proc, "already exists; pass --force")
    assert (empty / "Makefile").read_text() == "mine:\n\t@true\n"
    forced = dp("make", "--generate", "python", "--force", "--json", cwd=empty)
    assert forced.returncode == 0, forced.stderr
    assert json.loads(forced.stdout)["replaces_existing"] is True
    assert "\n\tpytest\n" in (empty / "Makefile").read_text()
    assert sorted(p.name for p in empty.iterdir()) == ["Makefile"]
    # --force loses nothing: the replaced Makefile is kept in dp's backups, and dp says where.
    assert Path(json.loads(forced.stdout)["backup"]).read_text() == "mine:\n\t@true\n"
    again = dp("make", "--generate", "go", "--force", cwd=empty)
    kept = again.stderr.split("the previous one is kept as ")[1].split(";")[0]
    assert "\n\tpytest\n" in Path(kept).read_text()


def test_generate_dry_run_writes_nothing(dp, empty):
    proc = dp("make", "--generate", "nodejs", "--dry-run", cwd=empty)
    assert proc.returncode == 0, proc.stderr
    assert "\n\tnpm test\n" in proc.stdout
    assert list(empty.iterdir()) == []


def test_generate_unknown_language_is_refused(dp, empty):
    assert_one_line_error(dp("make", "--generate", "cobol", cwd=empty), "choose one of python, rust, go, nodejs")
    assert list(empty.iterdir()) == []


def test_make_help_has_examples(dp):
    proc = dp("make", "--help")
    assert proc.returncode == 0 and "Examples:" in proc.stdout and "dp make --generate python" in proc.stdout
