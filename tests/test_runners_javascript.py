"""package.json detection: which package manager, and the argv of each script."""

from __future__ import annotations

import json

import pytest

from dp.errors import DpError
from dp.runners import javascript


def write_package(directory, **fields):
    data = {"name": "demo", "scripts": {"test": "vitest", "build": "tsc -p ."}, **fields}
    (directory / "package.json").write_text(json.dumps(data))


def runner(directory):
    (found,) = javascript.detect(directory, directory)
    return found


def test_scripts_are_tasks_with_their_bodies_as_descriptions(tmp_path):
    write_package(tmp_path)
    found = runner(tmp_path)
    assert [(task.name, task.description) for task in found.tasks] == [
        ("build", "tsc -p ."),
        ("test", "vitest"),
    ]
    assert found.root == tmp_path and found.ecosystem == "javascript"


def test_no_package_json_means_no_runner(tmp_path):
    assert javascript.detect(tmp_path, tmp_path) == []


def test_no_lockfile_and_no_field_means_npm(tmp_path):
    write_package(tmp_path)
    found = runner(tmp_path)
    assert found.name == "npm"
    assert "npm" in found.reason and "lockfile" in found.reason


@pytest.mark.parametrize(
    "lockfile, manager",
    [
        ("bun.lock", "bun"),
        ("bun.lockb", "bun"),
        ("pnpm-lock.yaml", "pnpm"),
        ("yarn.lock", "yarn"),
        ("package-lock.json", "npm"),
        ("npm-shrinkwrap.json", "npm"),
    ],
)
def test_lockfile_decides_the_manager(tmp_path, lockfile, manager):
    write_package(tmp_path)
    (tmp_path / lockfile).write_text("")
    found = runner(tmp_path)
    assert found.name == manager
    assert lockfile in found.reason
    assert found.task("test").argv == (manager, "run", "test")


@pytest.mark.parametrize(
    "lockfiles, manager",
    [
        (["pnpm-lock.yaml", "package-lock.json"], "pnpm"),
        (["yarn.lock", "bun.lockb"], "bun"),
        (["package-lock.json", "yarn.lock"], "yarn"),
    ],
)
def test_conflicting_lockfiles_pick_by_order_and_say_so(tmp_path, lockfiles, manager):
    write_package(tmp_path)
    for name in lockfiles:
        (tmp_path / name).write_text("")
    found = runner(tmp_path)
    assert found.name == manager
    assert "conflicting lockfiles" in found.reason
    assert all(name in found.reason for name in lockfiles)
    assert "packageManager" in found.reason  # how to settle it


def test_same_manager_lockfiles_are_no_conflict(tmp_path):
    write_package(tmp_path)
    (tmp_path / "bun.lock").write_text("")
    (tmp_path / "bun.lockb").write_text("")
    assert "conflicting" not in runner(tmp_path).reason


def test_package_manager_field_wins_over_lockfiles(tmp_path):
    write_package(tmp_path, packageManager="pnpm@9.1.0+sha512.abcdef")
    (tmp_path / "package-lock.json").write_text("{}")
    found = runner(tmp_path)
    assert found.name == "pnpm"
    assert "packageManager" in found.reason and "pnpm@9.1.0" in found.reason
    assert "sha512" not in found.reason
    assert "package-lock.json" in found.reason  # what was ignored


@pytest.mark.parametrize(
    "dev_engines",
    [
        {"packageManager": {"name": "bun", "version": "^1.1.0"}},
        {"packageManager": [{"name": "bun"}, {"name": "npm"}]},
    ],
)
def test_dev_engines_package_manager_is_honoured(tmp_path, dev_engines):
    write_package(tmp_path, devEngines=dev_engines)
    (tmp_path / "yarn.lock").write_text("")
    found = runner(tmp_path)
    assert found.name == "bun"
    assert "devEngines.packageManager" in found.reason


def test_package_manager_field_beats_dev_engines(tmp_path):
    write_package(tmp_path, packageManager="yarn@1.22.19", devEngines={"packageManager": {"name": "pnpm"}})
    assert runner(tmp_path).name == "yarn"


@pytest.mark.parametrize(
    "fields, lock_text, extra_file, flavour",
    [
        ({"packageManager": "yarn@1.22.19"}, None, None, "classic"),
        ({"packageManager": "yarn@4.2.2"}, None, None, "berry"),
        ({}, "# yarn lockfile v1\n\nleft-pad@^1:\n  version \"1.3.0\"\n", None, "classic"),
        ({}, "# This file is generated\n\n__metadata:\n  version: 8\n", None, "berry"),
        ({}, "", ".yarnrc.yml", "berry"),
    ],
)
def test_yarn_classic_and_berry_are_told_apart(tmp_path, fields, lock_text, extra_file, flavour):
    write_package(tmp_path, **fields)
    if lock_text is not None:
        (tmp_path / "yarn.lock").write_text(lock_text)
    if extra_file:
        (tmp_path / "yarn.lock").write_text("")
        (tmp_path / extra_file).write_text("nodeLinker: node-modules\n")
    found = runner(tmp_path)
    assert found.name == "yarn"
    assert f"({flavour})" in found.reason
    # Always `yarn run NAME`: `yarn NAME` would let a yarn built-in shadow the script.
    assert found.task("test").command(["--ci"]) == ["yarn", "run", "test", "--ci"]


def test_npm_needs_a_separator_before_extra_arguments(tmp_path):
    write_package(tmp_path)
    task = runner(tmp_path).task("test")
    assert task.command([]) == ["npm", "run", "test"]
    assert task.command(["--watch", "-t", "x"]) == ["npm", "run", "test", "--", "--watch", "-t", "x"]


@pytest.mark.parametrize("lockfile, manager", [("pnpm-lock.yaml", "pnpm"), ("bun.lock", "bun")])
def test_other_managers_take_arguments_directly(tmp_path, lockfile, manager):
    write_package(tmp_path)
    (tmp_path / lockfile).write_text("")
    assert runner(tmp_path).task("test").command(["--watch"]) == [manager, "run", "test", "--watch"]


def test_unknown_package_manager_is_a_clear_error(tmp_path):
    write_package(tmp_path, packageManager="future-package-manager")
    with pytest.raises(DpError, match='names "future-package-manager", which dp does not know'):
        javascript.detect(tmp_path, tmp_path)


def test_malformed_package_json_is_reported_with_details(tmp_path):
    (tmp_path / "package.json").write_text('{"scripts": {"test": "x",}}')
    with pytest.raises(DpError, match=r"^parsing package.json: .*line 1"):
        javascript.detect(tmp_path, tmp_path)


def test_non_object_package_json_is_an_error(tmp_path):
    (tmp_path / "package.json").write_text("[1, 2]")
    with pytest.raises(DpError, match="expected a JSON object"):
        javascript.detect(tmp_path, tmp_path)


def test_scripts_that_are_not_strings_are_ignored(tmp_path):
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"ok": "echo", "bad": 3}}))
    assert [task.name for task in runner(tmp_path).tasks] == ["ok"]


def test_workspace_member_uses_the_lockfile_at_the_workspace_root(tmp_path):
    # pnpm/yarn/bun workspaces keep one lockfile at the root: a member without
    # its own must not fall back to npm.
    write_package(tmp_path)
    (tmp_path / "pnpm-lock.yaml").write_text("")
    member = tmp_path / "packages" / "web"
    member.mkdir(parents=True)
    write_package(member)
    (found,) = javascript.detect(member, tmp_path)
    assert found.name == "pnpm"
    assert "../../pnpm-lock.yaml" in found.reason
    assert found.root == member


def test_workspace_root_packagemanager_field_applies_to_members(tmp_path):
    write_package(tmp_path, packageManager="yarn@4.1.0")
    member = tmp_path / "apps" / "site"
    member.mkdir(parents=True)
    (member / "package.json").write_text(json.dumps({"scripts": {"dev": "vite"}}))
    (found,) = javascript.detect(member, tmp_path)
    assert found.name == "yarn" and "berry" in found.reason
    assert "../../package.json" in found.reason


def test_members_own_lockfile_wins_over_the_roots(tmp_path):
    write_package(tmp_path)
    (tmp_path / "pnpm-lock.yaml").write_text("")
    member = tmp_path / "tools"
    member.mkdir()
    write_package(member)
    (member / "bun.lock").write_text("")
    (found,) = javascript.detect(member, tmp_path)
    assert found.name == "bun"


def test_lockfiles_above_the_project_root_are_not_consulted(tmp_path):
    (tmp_path / "pnpm-lock.yaml").write_text("")
    project = tmp_path / "project"
    project.mkdir()
    write_package(project)
    (found,) = javascript.detect(project, project)
    assert found.name == "npm"
