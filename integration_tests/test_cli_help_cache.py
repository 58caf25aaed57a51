"""`dp`, `dp -h` and `dp --help`: the page typer renders, kept and shown again without typer."""

from __future__ import annotations

import pytest

# Python lists every module it imports on stderr.
IMPORTS = {"PYTHONPROFILEIMPORTTIME": "1"}


@pytest.fixture
def dp(dp, home):
    """``dp`` with its cache in this test's HOME (the session's XDG_CACHE_HOME is shared)."""

    def run(*args, extra_env=None):
        return dp(*args, extra_env={"XDG_CACHE_HOME": str(home / ".cache"), **(extra_env or {})})

    return run


def imported(stderr: str) -> set[str]:
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


def test_the_page_is_rendered_once_then_shown_without_importing_typer(dp, home):
    first = dp("--help", extra_env=IMPORTS)
    assert first.returncode == 0 and first.stdout.startswith("Usage: dp [OPTIONS] COMMAND [ARGS]...")
    assert "typer" in imported(first.stderr)
    assert list((home / ".cache" / "dp").glob("help-*.marshal"))
    for args in (["--help"], ["-h"], []):
        again = dp(*args, extra_env=IMPORTS)
        assert (again.returncode, again.stdout) == (0, first.stdout), args
        assert not {"typer", "click"} & imported(again.stderr), args


def test_a_different_width_renders_the_page_anew(dp):
    wide = dp("--help").stdout
    narrow = dp("--help", extra_env={"COLUMNS": "60", **IMPORTS})
    assert narrow.returncode == 0 and narrow.stdout != wide and "typer" in imported(narrow.stderr)
    assert "  Desire paths: pave the tool calls AI coding agents keep\n" in narrow.stdout
    again = dp("--help", extra_env={"COLUMNS": "60", **IMPORTS})
    assert again.stdout == narrow.stdout and "typer" not in imported(again.stderr)


def test_without_a_writable_cache_the_page_is_still_shown(dp, home):
    (home / ".cache").write_text("a file where the cache directory should be")
    first, second = dp("--help"), dp("--help")
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout and "Commands:" in first.stdout


def test_other_commands_never_answer_from_the_cache(dp):
    dp("--help")
    for args in (["aliases"], ["aliases", "--help"], ["--version"]):
        assert "typer" in imported(dp(*args, extra_env=IMPORTS).stderr), args
