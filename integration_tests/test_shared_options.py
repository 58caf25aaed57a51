"""The shared options --db, --cwd, --json, --quiet, and npm's option convention for dp run/script."""

from __future__ import annotations

import json

import pytest
from task_projects import calls, install_fake, make_repo, path_with


def npm_project(root, bin_dir):
    make_repo(root)
    (root / "package.json").write_text(json.dumps({"scripts": {"deploy": "x", "test": "y"}}))
    (root / "package-lock.json").write_text("{}")
    install_fake(bin_dir, "npm")
    return root


@pytest.mark.parametrize("before", [True, False])
def test_db_before_or_after_the_command_name_picks_the_same_store(dp, tmp_path, before):
    other = tmp_path / "other.db"
    where = ["--db", other, "alias", "read_file", "Read"] if before else ["alias", "read_file", "Read", "--db", other]
    assert dp(*where).returncode == 0
    listed = dp("aliases", "--json", "--db", other)
    assert [rule["from_name"] for rule in json.loads(listed.stdout)] == ["read_file"]
    assert json.loads(dp("aliases", "--json").stdout) == []  # the default store ($DP_DB) is untouched


def test_a_value_after_the_command_name_wins(dp, tmp_path):
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    assert dp("--db", first, "alias", "--db", second, "read_file", "Read").returncode == 0
    assert not first.exists() and second.exists()


def test_json_before_the_command_name_is_the_same_json(dp):
    dp("alias", "read_file", "Read")
    assert json.loads(dp("--json", "aliases").stdout) == json.loads(dp("aliases", "--json").stdout)


def test_quiet_drops_status_lines_but_not_errors(dp):
    proc = dp("alias", "read_file", "Read", "--quiet")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    proc = dp("-q", "alias", "--cmd", "grep")
    assert proc.returncode != 0 and proc.stderr.startswith("dp: error: ")


@pytest.mark.parametrize("command", ["tasks", "recipe list", "doctor"])
def test_cwd_is_spelled_the_same_everywhere(dp, tmp_path, command):
    project = npm_project(tmp_path / "proj", tmp_path / "bin")
    (project / "recipes").mkdir()
    (project / "recipes" / "hello.yaml").write_text("name: hello\nsteps:\n  - id: a\n    command: echo hi\n")
    for spelling in ("--cwd", "-C"):
        proc = dp(*command.split(), spelling, project, "--json", cwd=tmp_path)
        assert proc.stdout.startswith(("{", "[")), proc.stderr
        json.loads(proc.stdout)


def test_run_options_after_the_task_name_are_dps_own(dp, tmp_path):
    bin_dir = tmp_path / "bin"
    root = npm_project(tmp_path / "repo", bin_dir)
    proc = dp("run", "deploy", "--dry-run", cwd=root, extra_env={"PATH": path_with(bin_dir)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "npm run deploy"
    assert calls(bin_dir) == []  # nothing ran


def test_run_after_dashdash_everything_goes_to_the_task_untouched(dp, tmp_path):
    bin_dir = tmp_path / "bin"
    root = npm_project(tmp_path / "repo", bin_dir)
    proc = dp("run", "deploy", "--target", "prod", "--", "--dry-run", "--json", cwd=root,
              extra_env={"PATH": path_with(bin_dir)})
    assert proc.returncode == 0, proc.stderr
    assert calls(bin_dir)[0]["argv"] == ["npm", "run", "deploy", "--", "--target", "prod", "--", "--dry-run", "--json"]


def test_script_follows_the_same_rule(dp, tmp_path):
    bin_dir = tmp_path / "bin"
    root = npm_project(tmp_path / "repo", bin_dir)
    env = {"PATH": path_with(bin_dir)}
    assert dp("script", "test", "--watch", "--dry-run", cwd=root, extra_env=env).stdout.strip() == (
        "npm run test -- --watch"
    )
    assert dp("script", "test", "--", "--dry-run", cwd=root, extra_env=env).returncode == 0
    assert calls(bin_dir)[0]["argv"] == ["npm", "run", "test", "--", "--dry-run"]


def test_make_options_after_the_target_are_dps_own(dp, tmp_path):
    (tmp_path / "Makefile").write_text("deploy:\n\ttouch deployed\n")
    proc = dp("make", "deploy", "--dry-run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "make deploy"
    assert not (tmp_path / "deployed").exists()


def test_output_format_is_a_hidden_deprecated_spelling_of_json(dp, tmp_path):
    recipe = tmp_path / "hello.yaml"
    recipe.write_text("name: hello\nsteps:\n  - id: a\n    command: echo hi\n")
    old = dp("recipe", "validate", recipe, "--output-format", "json")
    new = dp("recipe", "validate", recipe, "--json")
    assert json.loads(old.stdout) == json.loads(new.stdout)
    assert "--output-format is deprecated; use --json" in old.stderr and new.stderr == ""
    assert "--output-format" not in dp("recipe", "validate", "--help").stdout
