"""Cargo detection: built-in subcommands plus .cargo/config.toml aliases."""

from __future__ import annotations

import pytest

from dp.errors import DpError
from dp.runners import rust
from dp.runners.base import BUILTIN, DEFINED


def crate(directory):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "Cargo.toml").write_text('[package]\nname = "demo"\nversion = "0.1.0"\n')
    return directory


def config(directory, text, name="config.toml"):
    (directory / ".cargo").mkdir(exist_ok=True)
    (directory / ".cargo" / name).write_text(text)


def test_builtins_are_offered_as_cargo_subcommands(tmp_path):
    (runner,) = rust.detect(crate(tmp_path), tmp_path)
    assert runner.name == "cargo" and runner.ecosystem == "rust"
    test = runner.task("test")
    assert test.argv == ("cargo", "test") and test.origin == BUILTIN
    assert test.command(["--release"]) == ["cargo", "test", "--release"]
    assert {"build", "check", "clippy", "fmt", "run"} <= {task.name for task in runner.tasks}
    assert runner.task("publish") is None  # not a project task


def test_aliases_from_config_toml_as_string_and_list(tmp_path):
    crate(tmp_path)
    config(tmp_path, '[alias]\nxtask = "run --package xtask --"\nci = ["test", "--all-features"]\n')
    (runner,) = rust.detect(tmp_path, tmp_path)
    xtask, ci = runner.task("xtask"), runner.task("ci")
    assert xtask.argv == ("cargo", "xtask") and xtask.origin == DEFINED and xtask.kind == "alias"
    assert xtask.description == "cargo run --package xtask --"
    assert ci.description == "cargo test --all-features"
    assert ".cargo/config.toml" in runner.reason
    assert [task.origin for task in runner.tasks[:2]] == [DEFINED, DEFINED]  # defined first


def test_legacy_config_file_is_read(tmp_path):
    crate(tmp_path)
    config(tmp_path, '[alias]\nlint = "clippy -- -D warnings"\n', name="config")
    (runner,) = rust.detect(tmp_path, tmp_path)
    assert runner.task("lint").description == "cargo clippy -- -D warnings"


def test_workspace_config_applies_to_member_and_nearest_wins(tmp_path):
    config(tmp_path, '[alias]\nci = "test"\nxt = "run -p xtask"\n')
    member = crate(tmp_path / "crates" / "core")
    config(member, '[alias]\nci = "nextest run"\n')
    (runner,) = rust.detect(member, tmp_path)
    assert runner.task("ci").description == "cargo nextest run"
    assert runner.task("xt").description == "cargo run -p xtask"
    assert runner.root == member


def test_config_above_the_project_root_is_ignored(tmp_path):
    config(tmp_path, '[alias]\noutside = "build"\n')
    project = crate(tmp_path / "project")
    (runner,) = rust.detect(project, project)
    assert runner.task("outside") is None


def test_alias_named_like_a_cargo_command_is_ignored_as_cargo_does(tmp_path):
    # `cargo test` runs the built-in and warns "user-defined alias `test` is
    # ignored"; describing it as the alias would misstate what runs.
    crate(tmp_path)
    config(tmp_path, '[alias]\ntest = "nextest run"\ninstall = "build"\n')
    (runner,) = rust.detect(tmp_path, tmp_path)
    assert runner.task("test").origin == BUILTIN
    assert runner.task("test").kind == "subcommand"
    assert runner.task("install") is None
    assert "config.toml" not in runner.reason


def test_alias_may_shadow_an_external_subcommand(tmp_path):
    crate(tmp_path)
    config(tmp_path, '[alias]\nfmt = "fmt --all"\n')
    (runner,) = rust.detect(tmp_path, tmp_path)
    assert runner.task("fmt").origin == DEFINED
    assert runner.task("fmt").description == "cargo fmt --all"


def test_leading_double_dash_is_an_argument_for_cargo(tmp_path):
    # `cargo test -- --nocapture` hands --nocapture to the test binary; without
    # the -- cargo itself rejects it.
    (runner,) = rust.detect(crate(tmp_path), tmp_path)
    command = runner.task("test").command(["--", "--nocapture"])
    assert command == ["cargo", "test", "--", "--nocapture"]


def test_no_cargo_toml_no_runner(tmp_path):
    config(tmp_path, '[alias]\nx = "build"\n')
    assert rust.detect(tmp_path, tmp_path) == []


def test_malformed_config_is_a_clear_error(tmp_path):
    crate(tmp_path)
    config(tmp_path, "[alias\n")
    with pytest.raises(DpError, match="parsing config.toml"):
        rust.detect(tmp_path, tmp_path)
