"""The rebuildable-data cache: where it lives and how files get into it."""

from __future__ import annotations

import pytest

from dp.cachedir import cache_dir, write_atomically


def test_cache_dir_follows_xdg_then_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == str(tmp_path / "xdg" / "dp")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == str(tmp_path / "home" / ".cache" / "dp")


def test_write_creates_the_directory_and_replaces_the_file(tmp_path):
    path = tmp_path / "a" / "b" / "tables.json"
    write_atomically(str(path), b"one")
    write_atomically(str(path), b"two")
    assert path.read_bytes() == b"two"
    assert sorted(p.name for p in path.parent.iterdir()) == ["tables.json"]


def test_a_failed_write_leaves_no_temporary_file(tmp_path):
    blocked = tmp_path / "cache" / "entry"
    blocked.mkdir(parents=True)  # a directory where the file should go: the rename fails
    with pytest.raises(OSError):
        write_atomically(str(blocked), b"data")
    assert [p.name for p in blocked.parent.iterdir()] == ["entry"]
