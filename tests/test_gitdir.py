"""dp.gitdir: a repository's identity read from its git directory, checked against real git.

Each repository is made by the real ``git`` in the shape people have: loose objects, packs
after ``git gc`` (commits stored as deltas after an aggressive one), packed refs and a
detached HEAD, a shallow clone, a clone borrowing objects (alternates), a linked worktree, a
submodule, SHA-256 object names, a repository with no commit. ``first_commit`` must name the
commit ``git rev-list --first-parent --max-parents=0 HEAD`` names; ``matches`` must hold for
the repository and fail for another one at the same path. Hostile shapes (a ``.git`` file
pointing nowhere, a ref climbing out of the git directory, a truncated pack) give no identity
or a weaker one, never an exception.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dp import gitdir

ENV = {**os.environ, "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.com", "GIT_COMMITTER_NAME": "A",
       "GIT_COMMITTER_EMAIL": "a@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
       "XDG_CACHE_HOME": ""}


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def git(*args, cwd) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=ENV, check=True, capture_output=True, text=True,
                          timeout=120).stdout.strip()


def repository(path: Path, commits: int = 3, *extra) -> Path:
    path.mkdir(parents=True)
    git("init", "-q", "-b", "main", *extra, cwd=path)
    for number in range(commits):
        (path / f"file{number % 3}.txt").write_text(f"content {number}\n" * 20)
        git("add", "-A", cwd=path)
        git("commit", "-q", "-m", f"commit {number} " + "words " * 30, cwd=path)
    return path


def roots(path: Path) -> str:
    return git("rev-list", "--first-parent", "--max-parents=0", "HEAD", cwd=path)


def identity_of(path: Path) -> str:
    found = gitdir.identity(str(path))
    assert found is not None
    return found


@pytest.mark.parametrize("shape", ["loose", "packed", "aggressive", "packed refs, detached HEAD"])
def test_the_first_commit_is_the_one_git_names(tmp_path, shape):
    repo = repository(tmp_path / "repo", commits=40)
    if shape == "packed":
        git("gc", "-q", cwd=repo)
    elif shape == "aggressive":
        git("gc", "-q", "--aggressive", "--prune=now", cwd=repo)
        assert not list((repo / ".git" / "objects").glob("??/*"))  # every object in a pack
    elif shape.startswith("packed refs"):
        git("pack-refs", "--all", cwd=repo)
        git("checkout", "-q", "--detach", "HEAD~3", cwd=repo)
    assert identity_of(repo) == f"commit:{roots(repo)}"
    assert gitdir.matches(str(repo), identity_of(repo))


def test_merges_of_unrelated_histories_follow_the_first_parent(tmp_path):
    repo = repository(tmp_path / "repo", commits=2)
    git("checkout", "-q", "--orphan", "other", cwd=repo)
    git("commit", "-q", "--allow-empty", "-m", "another root", cwd=repo)
    git("checkout", "-q", "main", cwd=repo)
    git("merge", "-q", "--allow-unrelated-histories", "other", "-m", "merge", cwd=repo)
    assert identity_of(repo) == f"commit:{roots(repo)}"
    assert len(git("rev-list", "--max-parents=0", "HEAD", cwd=repo).split()) == 2


def test_clones_worktrees_submodules_and_sha256(tmp_path):
    origin = repository(tmp_path / "origin", commits=30)
    git("gc", "-q", cwd=origin)
    first = roots(origin)
    shallow = tmp_path / "shallow"
    git("clone", "-q", "--depth", "5", f"file://{origin}", str(shallow), cwd=tmp_path)
    assert identity_of(shallow) == f"commit:{roots(shallow)}" != f"commit:{first}"  # where the clone's history stops
    shared = tmp_path / "shared"
    git("clone", "-q", "--shared", str(origin), str(shared), cwd=tmp_path)
    assert (shared / ".git" / "objects" / "info" / "alternates").exists()
    assert identity_of(shared) == f"commit:{first}"
    worktree = tmp_path / "worktree"
    git("worktree", "add", "-q", "-b", "topic", str(worktree), cwd=origin)
    assert (worktree / ".git").is_file()
    assert identity_of(worktree) == f"commit:{first}" and gitdir.matches(str(worktree), f"commit:{first}")
    parent = repository(tmp_path / "parent", commits=1)
    git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(origin), "sub", cwd=parent)
    assert (parent / "sub" / ".git").is_file()
    assert identity_of(parent / "sub") == f"commit:{first}"
    sha256 = repository(tmp_path / "sha256", 3, "--object-format=sha256")
    assert identity_of(sha256) == f"commit:{roots(sha256)}" and len(roots(sha256)) == 64


def test_another_repository_at_the_path_does_not_match(tmp_path):
    repo = repository(tmp_path / "repo")
    trusted = identity_of(repo)
    shutil.rmtree(repo)
    repo.mkdir()
    git("init", "-q", cwd=repo)
    (repo / "Makefile").write_text("test:\n\ttouch /tmp/x\n")
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "another project", cwd=repo)
    assert not gitdir.matches(str(repo), trusted)
    shutil.rmtree(repo)
    assert not gitdir.matches(str(repo), trusted)  # nothing there at all


def test_the_identity_survives_gc_and_the_pack_lookup_is_cached_by_the_pack_directory(tmp_path):
    repo = repository(tmp_path / "repo", commits=5)
    trusted = identity_of(repo)
    git("gc", "-q", "--prune=now", cwd=repo)
    assert gitdir.matches(str(repo), trusted)
    assert list((tmp_path / "cache" / "dp").glob("git-packs-*"))  # the lookup's answer, kept
    assert gitdir.matches(str(repo), trusted)
    git("checkout", "-q", "--orphan", "rewritten", cwd=repo)
    git("commit", "-q", "-m", "all new", cwd=repo)
    git("branch", "-D", "main", cwd=repo)
    git("reflog", "expire", "--expire=now", "--all", cwd=repo)
    git("gc", "-q", "--prune=now", cwd=repo)  # the old history is gone from the object store
    assert not gitdir.matches(str(repo), trusted)


def test_a_repository_with_no_commit_is_known_by_its_head(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    trusted = identity_of(repo)
    assert trusted.startswith("head:") and not gitdir.has_commits(str(repo))
    git("commit", "-q", "--allow-empty", "-m", "first", cwd=repo)
    assert gitdir.matches(str(repo), trusted) and gitdir.has_commits(str(repo))
    assert identity_of(repo) == f"commit:{roots(repo)}"
    shutil.rmtree(repo / ".git")
    git("init", "-q", cwd=repo)
    assert not gitdir.matches(str(repo), trusted)


def test_hostile_git_directories_give_no_identity_or_a_weaker_one(tmp_path):
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    (nowhere / ".git").write_text("gitdir: /does/not/exist\n")
    assert gitdir.identity(str(nowhere)) is None
    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / ".git").write_bytes(b"\x00\xff" * 100)
    assert gitdir.identity(str(garbage)) is None
    climbing = repository(tmp_path / "climbing", commits=1)
    (climbing / ".git" / "HEAD").write_text("ref: refs/../../../../etc/passwd\n")
    assert gitdir.identity(str(climbing)).startswith("head:")  # no commit read through it
    truncated = repository(tmp_path / "truncated", commits=5)
    git("gc", "-q", "--prune=now", cwd=truncated)
    [pack] = (truncated / ".git" / "objects" / "pack").glob("*.pack")
    pack.chmod(0o644)
    pack.write_bytes(pack.read_bytes()[:40])
    assert gitdir.identity(str(truncated)).startswith("head:")
    assert not gitdir.matches(str(truncated), "commit:" + "0" * 40)
    assert not gitdir.matches(str(truncated), "something else")
