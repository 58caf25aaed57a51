"""The paving decision for a directory and the marker fingerprint that keys its cache.

Both walk from the command's directory up to the repository root with
dp.paths.walk_up; these pin what each walk sees on real temporary projects.
"""

from __future__ import annotations

import json
import os

from dp.paving import detect
from dp.paving.markers import fingerprint


def repo(path):
    path.mkdir(parents=True, exist_ok=True)
    (path / ".git").mkdir()
    return path


def test_a_workspace_member_takes_the_manager_from_the_workspace_root(tmp_path):
    root = repo(tmp_path / "mono")
    (root / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    member = root / "packages" / "web"
    member.mkdir(parents=True)
    (member / "package.json").write_text(json.dumps({"scripts": {"dev": "vite"}}))
    (member / "src").mkdir()
    decision = detect.decide(str(member / "src"))["javascript"]
    assert (decision["manager"], decision["package_dir"]) == ("pnpm", str(member))
    assert decision["reason"] == "../../pnpm-lock.yaml found: pnpm"
    assert decision["scripts"] == ["dev"]
    assert decision["bin_dirs"] == sorted({str(member / "node_modules" / ".bin"), str(root / "node_modules" / ".bin")})


def test_nothing_above_the_repository_root_decides(tmp_path):
    (tmp_path / "yarn.lock").write_text("")
    root = repo(tmp_path / "app")
    (root / "package.json").write_text("{}")
    decision = detect.decide(str(root))["javascript"]
    assert decision["manager"] == "npm" and decision["ambiguity"] == ""


def test_the_workspace_roots_virtualenv_is_the_environment_of_a_member(tmp_path):
    root = repo(tmp_path / "ws")
    (root / "uv.lock").write_text("")
    (root / ".venv" / "bin").mkdir(parents=True)
    (root / ".venv" / "bin" / "python").write_text("")
    member = root / "libs" / "core"
    member.mkdir(parents=True)
    (member / "pyproject.toml").write_text("[project]\nname = 'core'\n")
    decision = detect.decide(str(member))["python"]
    assert (decision["manager"], decision["environment"]) == ("uv", str(root / ".venv"))
    assert decision["reason"] == "[project.scripts] with ../../uv.lock: uv run"


def test_outside_a_repository_only_the_projects_own_virtualenv_counts(tmp_path):
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").write_text("")
    project = tmp_path / "proj"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.uv]\n")
    decision = detect.decide(str(project))["python"]
    assert (decision["manager"], decision["environment"]) == ("uv", "")


def test_fingerprint_covers_the_markers_up_to_the_repository_root_and_no_further(tmp_path):
    (tmp_path / "package.json").write_text("{}")  # above the repository: never part of the key
    root = repo(tmp_path / "repo")
    (root / "Makefile").write_text("all:\n")
    sub = root / "pkg"
    sub.mkdir()
    (sub / "package.json").write_text("{}")
    paths = [path for path, _ in fingerprint(str(sub))]
    assert paths == [str(sub / "package.json"), str(root / "Makefile"), str(root / ".git")]
    before = dict(fingerprint(str(sub)))
    os.utime(sub / "package.json", ns=(1, 1))
    assert dict(fingerprint(str(sub)))[str(sub / "package.json")] != before[str(sub / "package.json")]


def test_fingerprint_outside_any_repository_keeps_walking_up(tmp_path):
    (tmp_path / "Cargo.toml").write_text("")
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    assert str(tmp_path / "Cargo.toml") in [path for path, _ in fingerprint(str(deep))]
