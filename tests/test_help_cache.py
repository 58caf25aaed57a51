"""dp.cli.help_cache: when ``dp --help`` may answer from the cache, and what makes the page stale.

integration_tests/test_cli_help_cache.py runs the real ``dp`` (rendered
once, then shown without typer; a new width renders anew); here are the
rules underneath: which argument lists ask for the page, that a page is
only read back for the width it was rendered at, and that anything else in
its cache file is ignored (tests/test_code_stamp.py: what else the stamp holds).
"""

from __future__ import annotations

import os

import pytest

from dp.cachedir import stamped_path, write_stamped
from dp.cli import code_stamp, help_cache


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(help_cache.COMPLETION_VARIABLE, raising=False)


@pytest.mark.parametrize("args, asks", [
    ([], True),
    (["-h"], True),
    (["--help"], True),
    (["--help", "--help"], False),
    (["alias", "--help"], False),
    (["-h", "alias"], False),
    (["--version"], False),
    (["help"], False),
])
def test_only_the_bare_top_level_help_requests_are_answered(args, asks):
    assert help_cache.applies(args) is asks


def test_a_shell_asking_for_completions_never_gets_the_page(monkeypatch):
    monkeypatch.setenv(help_cache.COMPLETION_VARIABLE, "complete_bash")
    assert not help_cache.applies([])


def test_a_kept_page_is_read_back_for_the_same_terminal_width(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert help_cache.read() is None
    help_cache.keep("Usage: dp [OPTIONS] COMMAND\n")
    assert help_cache.read() == "Usage: dp [OPTIONS] COMMAND\n"
    monkeypatch.setenv("COLUMNS", "60")
    assert help_cache.read() is None


def test_a_cached_value_that_is_not_a_page_is_ignored(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    write_stamped("help", help_cache._stamp(), ["not", "a", "page"])
    assert help_cache.read() is None


def test_file_stamps_do_not_follow_a_symlinked_directory_loop(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("")
    (tmp_path / "pkg" / "loop").symlink_to(tmp_path / "pkg")
    assert len(code_stamp._file_stamps(str(tmp_path / "pkg"))) == 1


def test_no_folder_no_stamps():
    assert code_stamp._file_stamps(None) == []
    assert code_stamp._package_dir("surely_no_such_package_here") is None


def test_the_page_is_kept_in_dp_s_cache_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    help_cache.keep("page")
    assert os.path.isfile(stamped_path("help", help_cache._stamp()))
    assert stamped_path("help", help_cache._stamp()).startswith(str(tmp_path / "cache" / "dp"))
