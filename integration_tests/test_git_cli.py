"""``dp git add`` / ``dp git commit`` against real git repositories in temp dirs."""

from __future__ import annotations

import json
import subprocess

import pytest
from cli_assertions import assert_one_line_error

IDENTITY = {
    "GIT_AUTHOR_NAME": "Dee Pee",
    "GIT_AUTHOR_EMAIL": "dp@example.com",
    "GIT_COMMITTER_NAME": "Dee Pee",
    "GIT_COMMITTER_EMAIL": "dp@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


@pytest.fixture
def git_env(env):
    env.update(IDENTITY)
    return env


@pytest.fixture
def git(git_env):
    def run(*args, cwd):
        proc = subprocess.run(["git", *args], cwd=cwd, env=git_env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    return run


@pytest.fixture
def repo(tmp_path, git):
    path = tmp_path / "repo"
    (path / "src").mkdir(parents=True)
    git("init", "-q", cwd=path)
    (path / "src" / "app.py").write_text("print('app')\n")
    (path / "README.md").write_text("# repo\n")
    (path / "notes.txt").write_text("not for staging\n")
    git("add", "README.md", cwd=path)
    git("commit", "-q", "-m", "initial", cwd=path)
    (path / "README.md").write_text("# repo, changed\n")
    (tmp_path / "outside.txt").write_text("outside the repo\n")
    return path


@pytest.fixture
def gdp(dp):
    def run(*args, cwd, **kwargs):
        return dp("git", *args, cwd=cwd, extra_env={**IDENTITY, **kwargs.pop("extra_env", {})}, **kwargs)

    return run


def staged(git, repo):
    return git("diff", "--cached", "--name-only", cwd=repo).split()


def state(git, repo):
    """Everything a refused command must leave as it was: index and HEAD."""
    return git("ls-files", "--stage", cwd=repo), git("rev-parse", "HEAD", cwd=repo)


def test_add_stages_exactly_the_named_paths_in_one_batch(repo, gdp, git):
    proc = gdp("add", "src/app.py", "./README.md", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert sorted(staged(git, repo)) == ["README.md", "src/app.py"]
    assert f"git --literal-pathspecs add -- src/app.py README.md` in {repo}" in proc.stderr


def test_add_paths_are_relative_to_cwd_option(repo, gdp, git, tmp_path):
    proc = gdp("add", "app.py", "--cwd", repo / "src", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert staged(git, repo) == ["src/app.py"]


@pytest.mark.parametrize(
    "make_path, fragment",
    [
        (lambda repo: "../outside.txt", "is outside the working directory"),
        (lambda repo: str(repo.parent / "outside.txt"), "is outside the working directory"),
        (lambda repo: "src/../../outside.txt", "is outside the working directory"),
        (lambda repo: "leak", "through a symlink"),
        (lambda repo: "up/outside.txt", "through a symlink"),
    ],
)
def test_add_refuses_paths_leaving_the_tree_and_stages_nothing(repo, gdp, git, make_path, fragment):
    (repo / "leak").symlink_to(repo.parent / "outside.txt")
    (repo / "up").symlink_to(repo.parent)
    before = state(git, repo)
    proc = gdp("add", "src/app.py", make_path(repo), cwd=repo)
    assert_one_line_error(proc, fragment)
    assert state(git, repo) == before


def test_add_pathspec_magic_cannot_reach_above_the_working_directory(repo, gdp, git):
    before = state(git, repo)
    proc = gdp("add", ":/", "*.txt", cwd=repo / "src")
    assert proc.returncode != 0
    assert "did not match" in proc.stderr
    assert state(git, repo) == before


def test_add_dry_run_shows_the_command_and_stages_nothing(repo, gdp, git):
    before = state(git, repo)
    proc = gdp("add", "src/app.py", "README.md", "--dry-run", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "git --literal-pathspecs add -- src/app.py README.md"
    assert state(git, repo) == before


def test_add_dry_run_still_validates(repo, gdp, git):
    proc = gdp("add", "../outside.txt", "--dry-run", cwd=repo)
    assert_one_line_error(proc, "is outside the working directory")


def test_commit_message_reaches_git_unchanged_through_stdin(repo, gdp, git):
    message = "Fix the parser\n\n# not a comment: kept\n* détail; $(not expanded) `nor this`"
    git("add", "README.md", cwd=repo)
    proc = gdp("commit", "-m", message, cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert git("log", "-1", "--format=%B", cwd=repo).rstrip("\n") == message
    assert "git commit --file=-  # stdin:" in proc.stderr


def test_commit_from_file_and_from_stdin(repo, gdp, git):
    (repo / "msg.txt").write_text("From a file\n")
    git("add", "README.md", cwd=repo)
    assert gdp("commit", "-F", "msg.txt", cwd=repo).returncode == 0
    assert git("log", "-1", "--format=%s", cwd=repo).strip() == "From a file"
    (repo / "src" / "app.py").write_text("changed\n")
    git("add", "src/app.py", cwd=repo)
    proc = gdp("commit", "-F", "-", input="From stdin\n\nBody line\n", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert git("log", "-1", "--format=%B", cwd=repo).strip() == "From stdin\n\nBody line"


@pytest.mark.parametrize(
    "args, kwargs, fragment",
    [
        (["-m", "x" * (17 * 1024)], {}, "over the 16384-byte limit"),
        (["-F", "-"], {"input": "y" * (17 * 1024)}, "over the 16384-byte limit"),
        (["-F", "../outside.txt"], {}, "is outside the working directory"),
        ([], {}, "exactly one of -m MSG, -F FILE or -F -"),
        (["-m", "a", "-F", "-"], {}, "exactly one of"),
        (["-m", "ok"], {"extra_env": {"DP_MAX_COMMIT_SIZE": "lots"}}, "DP_MAX_COMMIT_SIZE must be"),
    ],
)
def test_commit_refusals_leave_index_and_head_unchanged(repo, gdp, git, args, kwargs, fragment):
    git("add", "README.md", cwd=repo)
    before = state(git, repo)
    proc = gdp("commit", *args, cwd=repo, **kwargs)
    assert_one_line_error(proc, fragment)
    assert state(git, repo) == before


def test_commit_limit_is_16_kb_unless_dp_max_commit_size_raises_it(repo, gdp, git):
    git("add", "README.md", cwd=repo)
    exactly = "z" * (16 * 1024)
    assert gdp("commit", "-m", exactly, cwd=repo).returncode == 0
    assert git("log", "-1", "--format=%B", cwd=repo).rstrip("\n") == exactly
    git("add", "notes.txt", cwd=repo)
    bigger = "w" * (17 * 1024)
    proc = gdp("commit", "-m", bigger, cwd=repo, extra_env={"DP_MAX_COMMIT_SIZE": str(20 * 1024)})
    assert proc.returncode == 0, proc.stderr
    assert git("log", "-1", "--format=%B", cwd=repo).rstrip("\n") == bigger


def test_commit_dry_run_shows_the_command_and_commits_nothing(repo, gdp, git):
    git("add", "README.md", cwd=repo)
    before = state(git, repo)
    proc = gdp("commit", "-m", "Would commit", "--dry-run", "--json", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    plan = json.loads(proc.stdout)
    assert plan["dry_run"] is True
    assert plan["argv"] == ["git", "commit", "--file=-"]
    assert plan["stdin"] == "Would commit"
    assert plan["cwd"] == str(repo)
    assert state(git, repo) == before


def test_commit_json_reports_the_run(repo, gdp, git):
    git("add", "README.md", cwd=repo)
    proc = gdp("commit", "-m", "Reported", "--json", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["exit_code"] == 0 and report["timed_out"] is False
    assert report["command"] == "git commit --file=-"
    assert "Reported" in report["output"]
    assert isinstance(report["duration_ms"], int)
    assert "hint" not in report


def test_git_failure_is_passed_through_with_a_hint(tmp_path, gdp, git_env):
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "a.txt").write_text("a\n")
    direct = subprocess.run(["git", "add", "a.txt"], cwd=plain, env=git_env, capture_output=True, text=True)
    proc = gdp("add", "a.txt", cwd=plain)
    assert proc.returncode == direct.returncode != 0
    assert direct.stderr.strip() in proc.stderr
    assert "git init" in proc.stderr.splitlines()[-1]
    report = json.loads(gdp("commit", "-m", "x", "--json", cwd=plain).stdout)
    assert report["exit_code"] != 0
    assert "not a git repository" in report["output"] and "git init" in report["hint"]
    assert not (plain / ".git").exists()


def test_missing_git_is_one_line_naming_what_to_install(repo, gdp, tmp_path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    proc = gdp("add", "README.md", cwd=repo, extra_env={"PATH": str(empty)})
    assert_one_line_error(proc, "install git")


def test_refuses_a_system_directory(gdp, tmp_path):
    proc = gdp("commit", "-m", "x", "--cwd", "/etc", cwd=tmp_path)
    assert_one_line_error(proc, "system directory")


def test_git_help_has_examples(dp):
    for args in (["git", "--help"], ["git", "add", "--help"], ["git", "commit", "--help"]):
        proc = dp(*args)
        assert proc.returncode == 0
        assert "Examples:" in proc.stdout and "dp git" in proc.stdout
