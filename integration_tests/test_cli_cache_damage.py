"""A damaged help cache costs a re-render, never a wrong page or an error.

The help page is kept in ``~/.cache/dp`` (test_cli_help_cache.py); anything
may happen to that file — a crash mid-write, a disk filling up, a user's
``cp`` from another machine. Whatever is in it, ``dp --help`` prints the
real page and puts a good file back.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def cache_env(home):
    return {"XDG_CACHE_HOME": str(home / ".cache"), "COLUMNS": "100"}


@pytest.mark.parametrize("damage", [b"", b"\x00garbage\xff" * 50, b"\xe3"])
def test_a_damaged_page_is_rendered_again_and_replaced(dp, home, cache_env, damage):
    good = dp("--help", extra_env=cache_env)
    assert good.returncode == 0 and "Commands:" in good.stdout
    [kept] = (home / ".cache" / "dp").glob("help-*.marshal")
    intact = kept.read_bytes()
    kept.write_bytes(damage)
    again = dp("--help", extra_env=cache_env)
    assert (again.returncode, again.stdout, again.stderr) == (0, good.stdout, "")
    assert kept.read_bytes() == intact
