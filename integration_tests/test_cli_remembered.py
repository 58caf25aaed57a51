"""`dp aliases` and `dp tasks`: a command line typer parsed once runs again without typer.

Only the parse is kept, so every run reads the store and the project afresh;
what is printed, the exit status and the errors are the same either way.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_assertions import into_a_closed_pipe

IMPORTS = {"PYTHONPROFILEIMPORTTIME": "1"}  # Python lists every module it imports on stderr


@pytest.fixture
def dp(dp, home):
    """``dp`` with its cache in this test's HOME (the session's XDG_CACHE_HOME is shared)."""

    def run(*args, cwd=None, extra_env=None):
        return dp(*args, cwd=cwd, extra_env={"XDG_CACHE_HOME": str(home / ".cache"), **IMPORTS, **(extra_env or {})})

    return run


def imported(stderr: str) -> set[str]:
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


def shown(proc) -> tuple:
    """What the user sees: exit status, stdout, and stderr without Python's import lines."""
    errors = "".join(line + "\n" for line in proc.stderr.splitlines() if not line.startswith("import time:"))
    return proc.returncode, proc.stdout, errors


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    (root / "package.json").write_text(json.dumps({"name": "demo", "scripts": {"build": "node b.js", "test": "node t.js"}}))
    (root / "package-lock.json").write_text("{}")
    (root / "packages" / "web").mkdir(parents=True)
    return root


@pytest.mark.parametrize("words", [
    ["aliases"],
    ["aliases", "--json"],
    ["--json", "aliases"],
    ["aliases", "--kind", "flag"],
    ["aliases", "--cmd", "scp", "--json"],
    ["--db", "{db}", "aliases", "--tool", "Bash"],
    ["--quiet", "aliases", "--cmd", "nothing-here"],
    ["tasks"],
    ["tasks", "--json"],
    ["-C", "packages/web", "tasks"],
    ["tasks", "--cwd", "{project}/packages/web"],
])
def test_the_second_run_prints_the_same_without_typer(dp, project, db_path, words):
    dp("alias", "--cmd", "scp", "r", "R")
    dp("alias", "read_file", "Read")
    words = [word.format(db=db_path, project=project) for word in words]
    first = dp(*words, cwd=project)
    assert first.returncode == 0, first.stderr
    assert "typer" in imported(first.stderr)
    again = dp(*words, cwd=project)
    assert shown(again) == shown(first)
    assert not {"typer", "click"} & imported(again.stderr)


def test_only_the_parse_is_kept_so_new_rules_and_tasks_show_at_once(dp, project):
    dp("aliases", cwd=project)
    dp("alias", "--cmd", "grep", "--replace", "rg")
    listed = dp("aliases", cwd=project)
    assert "typer" not in imported(listed.stderr)
    assert "grep" in listed.stdout and "rg" in listed.stdout
    dp("tasks", cwd=project)
    (project / "package.json").write_text(json.dumps({"name": "demo", "scripts": {"deploy": "node d.js"}}))
    tasks = dp("tasks", cwd=project)
    assert "typer" not in imported(tasks.stderr)
    assert "deploy" in tasks.stdout and "build" not in tasks.stdout


def test_errors_are_the_same_lines_either_way(dp, tmp_path):
    nowhere = tmp_path / "not-a-project"
    nowhere.mkdir()
    first, again = dp("tasks", cwd=nowhere), dp("tasks", cwd=nowhere)
    assert first.returncode == 1 and "dp: error:" in shown(first)[2]
    assert shown(again) == shown(first) and "typer" not in imported(again.stderr)


def test_quiet_given_before_the_command_still_silences_notes(dp, db_path):
    for _ in range(2):
        proc = dp("--quiet", "aliases")
        assert shown(proc) == (0, "", "")
    assert "typer" not in imported(proc.stderr)
    assert "No aliases configured." in shown(dp("aliases"))[2]


@pytest.mark.parametrize("words", [
    ["aliases", "--kind", "bogus"],  # refused by typer
    ["aliases", "--help"],  # help
    ["aliases", "import", "no-such-file.toml"],  # a subcommand, not the listing
    ["--version"],
])
def test_refused_help_and_other_command_lines_are_never_kept(dp, words):
    first, again = dp(*words), dp(*words)
    assert shown(again) == shown(first)
    assert "typer" in imported(again.stderr), words


def test_other_words_are_parsed_by_typer_again(dp):
    dp("aliases")
    assert "typer" in imported(dp("aliases", "--json").stderr)
    assert "typer" in imported(dp("aliases", "--cmd", "x").stderr)


def test_a_shell_asking_for_completions_always_gets_typer(dp):
    dp("aliases")
    proc = dp("aliases", extra_env={"_DP_COMPLETE": "bash_complete", "COMP_WORDS": "dp aliases", "COMP_CWORD": "1"})
    assert "typer" in imported(proc.stderr)


def test_a_damaged_kept_parse_is_ignored(dp, home):
    first = dp("aliases")
    for kept in (home / ".cache" / "dp").glob("argv-*.marshal"):
        kept.write_bytes(b"\x00not marshal")
    again = dp("aliases")
    assert shown(again) == shown(first) and "typer" in imported(again.stderr)
    assert "typer" not in imported(dp("aliases").stderr)  # kept anew


def test_without_a_writable_cache_every_run_uses_typer(dp, home):
    (home / ".cache").write_text("a file where the cache directory should be")
    first, again = dp("aliases"), dp("aliases")
    assert shown(again) == shown(first) and first.returncode == 0
    assert "typer" in imported(again.stderr)


def test_a_kept_parse_can_only_name_a_listing_view(dp, home):
    """A cache file that names any other function is ignored: the run goes through typer."""
    import marshal

    first = dp("aliases")
    for kept in (home / ".cache" / "dp").glob("argv-*.marshal"):
        stamp, (_, arguments, opts) = marshal.loads(kept.read_bytes())
        kept.write_bytes(marshal.dumps((stamp, ("os:system", arguments, opts))))
    again = dp("aliases")
    assert shown(again) == shown(first) and "typer" in imported(again.stderr)


@pytest.mark.parametrize("words", [("aliases",), ("aliases", "--json"), ("--help",), ("--version",)])
def test_a_reader_that_has_gone_ends_every_path_quietly(dp, env, home, words):
    """typer's path (first run), the kept parse or help page (second): the same quiet status 1,
    never an 'internal error' or a traceback (dp --help wrote one, the kept parse said 'internal error')."""
    dp("alias", "read_file", "Read")
    runs = [into_a_closed_pipe([Path(sys.executable).parent / "dp", *words],
                               {**env, "XDG_CACHE_HOME": str(home / ".cache")}) for _ in range(2)]
    assert [(proc.returncode, proc.stderr) for proc in runs] == [(1, ""), (1, "")]
    assert dp(*words).returncode == 0
