"""The install record: where dp put its hook entries, MCP registration, CLAUDE.md line."""

from __future__ import annotations

import sqlite3

from dp.store import Store, installs


def test_record_list_and_forget(tmp_path):
    with Store.open(tmp_path / "dp.db") as store:
        first = installs.record(store, tmp_path / "a" / "settings.json", installs.HOOK, "user", True, {"permission": "none"})
        installs.record(store, tmp_path / ".mcp.json", installs.MCP, "project")
        assert first.path == str(tmp_path / "a" / "settings.json")
        assert (first.kind, first.scope, first.created_file, first.details) == ("hook", "user", True, {"permission": "none"})
        assert first.installed_at == first.updated_at != ""
        assert [i.kind for i in installs.listed(store)] == ["hook", "mcp"]
        assert [i.path for i in installs.listed(store, installs.MCP)] == [str(tmp_path / ".mcp.json")]
        assert installs.forget(store, tmp_path / ".mcp.json", installs.MCP) is True
        assert installs.forget(store, tmp_path / ".mcp.json", installs.MCP) is False
        assert installs.get(store, tmp_path / ".mcp.json", installs.MCP) is None


def test_a_second_record_updates_in_place_and_created_file_sticks(tmp_path):
    path = tmp_path / "settings.json"
    with Store.open(tmp_path / "dp.db") as store:
        installs.record(store, path, installs.HOOK, "user", created_file=True, details={"permission": "none"})
        again = installs.record(store, path, installs.HOOK, "custom", created_file=False, details={"permission": "ask"})
        assert (again.scope, again.created_file, again.details) == ("custom", True, {"permission": "ask"})
        assert len(installs.listed(store)) == 1


def test_paths_are_recorded_absolute_with_symlinks_kept(tmp_path, monkeypatch):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    monkeypatch.chdir(tmp_path)
    with Store.open(tmp_path / "dp.db") as store:
        installs.record(store, "link/settings.json", installs.HOOK)
        [entry] = installs.listed(store)
    assert entry.path == str(tmp_path / "link" / "settings.json")


def test_read_never_creates_and_tolerates_old_stores(tmp_path):
    missing = tmp_path / "missing.db"
    assert installs.read(missing) == [] and not missing.exists()
    old = tmp_path / "old.db"
    sqlite3.connect(old).execute("CREATE TABLE aliases_v3 (x)").connection.close()
    assert installs.read(old) == []
    with Store.open(tmp_path / "dp.db") as store:
        installs.record(store, tmp_path / "s.json", installs.HOOK, "local")
    assert [i.scope for i in installs.read(tmp_path / "dp.db", installs.HOOK)] == ["local"]
    assert installs.read(tmp_path / "dp.db", installs.MCP) == []
