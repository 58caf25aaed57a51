"""Package-manager decisions against antfu's package-manager-detector vectors.

Each fixture of that project (lockfile, packageManager field, devEngines
field) is restated here as files dp reads, with the manager the detector
reports. Where dp decides differently on purpose, the README lists it (an
unknown manager is an error that names the field, not a silent "none").
"""

from __future__ import annotations

import json

import pytest

from dp.errors import DpError
from dp.runners import javascript


def project(tmp_path, files):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    if "package.json" not in files:
        (tmp_path / "package.json").write_text(json.dumps({"scripts": {"test": "echo t"}}))
    (found,) = javascript.detect(tmp_path, tmp_path)
    return found


def manifest(**fields):
    return json.dumps({"scripts": {"test": "echo t", "build": "echo b"}, **fields})


LOCKFILE_CASES = [
    ("bun.lock", "", "bun"),
    ("bun.lockb", "", "bun"),
    ("deno.lock", "{}", "deno"),
    ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n", "pnpm"),
    ("pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n", "pnpm"),
    ("yarn.lock", "# yarn lockfile v1\n", "yarn"),
    ("package-lock.json", "{}", "npm"),
    ("npm-shrinkwrap.json", "{}", "npm"),
]


@pytest.mark.parametrize("name,text,manager", LOCKFILE_CASES, ids=[case[0] for case in LOCKFILE_CASES])
def test_lockfile_decides(tmp_path, name, text, manager):
    found = project(tmp_path, {name: text})
    assert found.name == manager
    assert f"{name} found: {manager}" in found.reason


def test_workspace_file_without_lockfile_means_pnpm_and_says_why(tmp_path):
    found = project(tmp_path, {"pnpm-workspace.yaml": "packages: []\n"})
    assert (found.name, found.reason) == ("pnpm", "pnpm-workspace.yaml found: pnpm")
    assert found.task("test").argv == ("pnpm", "run", "test")


def test_workspace_member_inherits_the_workspace_file(tmp_path):
    (tmp_path / "pnpm-workspace.yaml").write_text("packages: ['pkgs/*']\n")
    (tmp_path / "package.json").write_text(manifest())
    member = tmp_path / "pkgs" / "a"
    member.mkdir(parents=True)
    (member / "package.json").write_text(manifest())
    (found,) = javascript.detect(member, tmp_path)
    assert found.name == "pnpm"
    assert "../../pnpm-workspace.yaml found: pnpm" in found.reason


FIELD_CASES = [
    # (packageManager value, manager, version in the reason, note in the reason)
    ("npm@7.0.0", "npm", "7.0.0", ""),
    ("yarn@1.22.0", "yarn", "1.22.0", "classic"),
    ("yarn@3", "yarn", "3", "berry"),
    ("pnpm@8", "pnpm", "8", ""),
    ("pnpm@6", "pnpm", "6", "before 7"),
    ("^pnpm@8.0.0", "pnpm", "8.0.0", ""),
    ("pnpm@8.6.0+sha512.0123456789abcdef", "pnpm", "8.6.0", ""),
    ("pnpm@9.1.0+sha256.abc", "pnpm", "9.1.0", ""),
    ("bun@1.1.0", "bun", "1.1.0", ""),
    ("deno@2", "deno", "2", ""),
]


@pytest.mark.parametrize("value,manager,version,note", FIELD_CASES, ids=[case[0] for case in FIELD_CASES])
def test_package_manager_field(tmp_path, value, manager, version, note):
    found = project(tmp_path, {"package.json": manifest(packageManager=value)})
    assert found.name == manager
    assert f"packageManager in package.json says {manager}@{version}" in found.reason
    assert note in found.reason


DEV_ENGINES_CASES = [
    ({"name": "npm", "version": "7"}, "npm"),
    ({"name": "pnpm", "version": "8"}, "pnpm"),
    ({"name": "pnpm", "version": "^8.0.0"}, "pnpm"),
    ({"name": "yarn", "version": "1"}, "yarn"),
    ({"name": "yarn", "version": "4.1.0"}, "yarn"),
    ({"name": "bun", "version": "0"}, "bun"),
    ({"name": "deno", "version": "2"}, "deno"),
]


@pytest.mark.parametrize("entry,manager", DEV_ENGINES_CASES, ids=[str(case[0]) for case in DEV_ENGINES_CASES])
def test_dev_engines_field(tmp_path, entry, manager):
    found = project(tmp_path, {"package.json": manifest(devEngines={"packageManager": entry})})
    assert found.name == manager
    assert "devEngines.packageManager in package.json says" in found.reason


def test_dev_engines_range_is_read_as_its_version(tmp_path):
    found = project(
        tmp_path, {"package.json": manifest(devEngines={"packageManager": {"name": "pnpm", "version": "^8.0.0"}})}
    )
    assert "says pnpm@8.0.0" in found.reason


@pytest.mark.parametrize("value", ["future-package-manager", "future-package-manager@1.0.0"])
def test_unknown_manager_is_an_error_naming_the_field(tmp_path, value):
    with pytest.raises(DpError, match='packageManager names "future-package-manager"'):
        project(tmp_path, {"package.json": manifest(packageManager=value)})


@pytest.mark.parametrize(
    "value,expected",
    [
        ("pnpm@6.35.1", ["pnpm", "run", "test", "--", "--watch"]),
        ("pnpm@7.0.0", ["pnpm", "run", "test", "--watch"]),
        ("pnpm@9.1.0+sha512.abc", ["pnpm", "run", "test", "--watch"]),
        ("npm@10.0.0", ["npm", "run", "test", "--", "--watch"]),
        ("yarn@1.22.0", ["yarn", "run", "test", "--watch"]),
        ("bun@1.1.0", ["bun", "run", "test", "--watch"]),
        ("deno@2.1.0", ["deno", "task", "test", "--watch"]),
    ],
)
def test_script_arguments_follow_each_managers_rule(tmp_path, value, expected):
    found = project(tmp_path, {"package.json": manifest(packageManager=value)})
    assert found.task("test").command(["--watch"]) == expected
    assert found.task("test").command(["--", "--watch"]) == expected


def test_pnpm_6_lockfile_alone_is_plain_pnpm(tmp_path):
    """The lockfile's version is not the tool's: only a declared version changes the call."""
    found = project(tmp_path, {"pnpm-lock.yaml": "lockfileVersion: 5.4\n"})
    assert found.task("test").command(["--watch"]) == ["pnpm", "run", "test", "--watch"]


def test_field_beats_lockfile_and_the_reason_says_what_was_ignored(tmp_path):
    found = project(tmp_path, {"package.json": manifest(packageManager="pnpm@9.0.0"), "yarn.lock": ""})
    assert found.name == "pnpm"
    assert "ignoring yarn.lock (to settle it, delete yarn.lock or change packageManager)" in found.reason


def test_deno_lock_beats_pnpm_lock_by_order_and_says_how_to_settle(tmp_path):
    found = project(tmp_path, {"deno.lock": "{}", "pnpm-lock.yaml": ""})
    assert found.name == "deno"
    assert "conflicting lockfiles" in found.reason and "set packageManager" in found.reason
