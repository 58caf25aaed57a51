"""The alias store against real SQLite files."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap

import pytest

from dp.errors import DpError
from dp.rules.model import Rule
from dp.store import SCHEMA_VERSION, Store, open_readonly, resolve_db_path, rules_for_tool, schema_version, tool_alias
from dp.store.migrations import load_migrations, migrate, split_statements

FLAG_RULE = Rule("r", "R", "Bash", "command", "scp", "flag")


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "dp.db") as opened:
        yield opened


def test_open_creates_the_schema_but_not_a_missing_directory(tmp_path):
    with pytest.raises(DpError, match="does not exist"):
        Store.open(tmp_path / "typo" / "dp.db")
    assert not (tmp_path / "typo").exists()
    path = tmp_path / "dp.db"
    with Store.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION >= 1
    columns = [row[1] for row in sqlite3.connect(path).execute("PRAGMA table_info(aliases_v3)")]
    assert columns == ["from_name", "to_name", "tool", "param", "command", "match_kind", "message", "created_at"]


def test_schema_matches_seed(tmp_path):
    Store.open(tmp_path / "dp.db").close()
    conn = sqlite3.connect(tmp_path / "dp.db")
    info = {row[1]: row for row in conn.execute("PRAGMA table_info(aliases_v3)")}
    # (cid, name, type, notnull, default, pk)
    assert all(info[name][2] == "TEXT" and info[name][3] == 1 for name in info)
    assert {name: info[name][4] for name in ("tool", "param", "command", "match_kind", "message")} == dict.fromkeys(
        ("tool", "param", "command", "match_kind", "message"), "''"
    )
    pk = sorted((row[5], row[1]) for row in info.values() if row[5])
    assert [name for _, name in pk] == ["from_name", "tool", "param", "command", "match_kind"]
    plan = " ".join(
        str(row)
        for row in conn.execute("EXPLAIN QUERY PLAN SELECT * FROM aliases_v3 WHERE tool = 'Bash' AND command IN ('scp')")
    )
    assert "idx_aliases_v3_tool_command" in plan


def test_wal_and_busy_timeout_on_every_connection(tmp_path, store):
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] > 0
    reader = open_readonly(tmp_path / "dp.db")
    assert reader.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert reader.execute("PRAGMA busy_timeout").fetchone()[0] > 0


def test_reopen_is_a_noop_migration(tmp_path):
    Store.open(tmp_path / "dp.db").close()
    conn = sqlite3.connect(tmp_path / "dp.db", isolation_level=None)
    before = conn.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    assert migrate(conn) == SCHEMA_VERSION
    assert conn.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == before
    with Store.open(tmp_path / "dp.db") as again:
        assert again.schema_version == SCHEMA_VERSION


def test_migrations_apply_in_order_inside_one_transaction(tmp_path):
    conn = sqlite3.connect(tmp_path / "x.db", isolation_level=None)
    good = [(1, "0001_a.sql", "CREATE TABLE a (x TEXT);"), (2, "0002_b.sql", "CREATE TABLE b (y TEXT);")]
    assert migrate(conn, good) == 2
    bad = good + [(3, "0003_c.sql", "CREATE TABLE c (z TEXT);\nTHIS IS NOT SQL;")]
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, bad)
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"a", "b"}  # 0003's first statement was rolled back with it
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2


def test_migration_files_are_numbered_without_gaps(tmp_path):
    versions = [version for version, _, _ in load_migrations()]
    assert versions == list(range(1, SCHEMA_VERSION + 1))
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(ValueError, match="without gaps"):
        load_migrations(tmp_path)


def test_split_statements_keeps_semicolons_in_strings():
    sql = "-- comment; here\nCREATE TABLE t (x TEXT DEFAULT ';');\nINSERT INTO t VALUES ('a;b');\n"
    assert split_statements(sql) == [
        "-- comment; here\nCREATE TABLE t (x TEXT DEFAULT ';');",
        "INSERT INTO t VALUES ('a;b');",
    ]


def test_concurrent_first_open_of_a_fresh_database(tmp_path):
    path = tmp_path / "fresh" / "dp.db"
    path.parent.mkdir()
    script = textwrap.dedent(
        f"""
        from dp.store import Store
        from dp.rules.model import Rule
        import sys
        with Store.open({str(path)!r}) as store:
            store.set_rule(Rule("tool" + sys.argv[1], "Read"))
        """
    )
    procs = [subprocess.Popen([sys.executable, "-c", script, str(n)], stderr=subprocess.PIPE) for n in range(8)]
    errors = [proc.communicate()[1].decode() for proc in procs]
    assert [proc.returncode for proc in procs] == [0] * 8, errors
    with Store.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert sorted(rule.from_name for rule in store.list_rules()) == [f"tool{n}" for n in range(8)]


def test_readonly_open_never_creates_the_file(tmp_path):
    path = tmp_path / "missing" / "dp.db"
    assert open_readonly(path) is None
    assert not path.parent.exists()


def test_readonly_open_does_not_migrate(tmp_path):
    path = tmp_path / "empty.db"
    sqlite3.connect(path).close()  # an empty file: no table, version 0
    conn = open_readonly(path)
    assert schema_version(conn) == 0
    with pytest.raises(sqlite3.OperationalError):
        tool_alias(conn, "read_file")
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("CREATE TABLE x (y TEXT)")


def test_readonly_open_rejects_a_non_database(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(sqlite3.DatabaseError):
        conn = open_readonly(path)
        conn.execute("SELECT * FROM aliases_v3")


def test_set_then_update_keeps_one_row_and_its_position(store):
    assert store.set_rule(Rule("read_file", "Read")) == "set"
    assert store.set_rule(FLAG_RULE) == "set"
    first = store.get_rule(Rule("read_file", ""))
    assert store.set_rule(Rule("read_file", "View", message="renamed")) == "updated"
    rules = store.list_rules()
    assert [(rule.from_name, rule.to_name, rule.message) for rule in rules] == [
        ("read_file", "View", "renamed"),
        ("r", "R", ""),
    ]
    assert rules[0].created_at == first.created_at
    assert rules[0].created_at.endswith("Z") and "T" in rules[0].created_at


def test_delete_removes_exactly_that_rule(store):
    store.set_rule(FLAG_RULE)
    store.set_rule(Rule("r", "R", "Bash", "command", "rsync", "flag"))
    deleted = store.delete_rule(Rule("r", "", "Bash", "command", "scp", "flag"))
    assert deleted.to_name == "R" and deleted.command == "scp"
    assert [rule.command for rule in store.list_rules()] == ["rsync"]
    assert store.delete_rule(Rule("r", "", "Bash", "command", "scp", "flag")) is None


def test_list_filters_and_counts(store):
    store.set_rule(Rule("read_file", "Read"))
    store.set_rule(FLAG_RULE)
    store.set_rule(Rule("grep", "rg", "Bash", "command", "grep", "command"))
    store.set_rule(Rule("/old", "/new", "Edit", "file_path", "", "literal"))
    assert [r.from_name for r in store.list_rules(kind="alias")] == ["read_file"]
    assert [r.from_name for r in store.list_rules(tool="Bash")] == ["r", "grep"]
    assert [r.from_name for r in store.list_rules(command="grep")] == ["grep"]
    assert [r.from_name for r in store.list_rules(tool="Edit", kind="literal")] == ["/old"]
    assert store.count_by_kind() == {"alias": 1, "flag": 1, "command": 1, "literal": 1}


def test_hook_queries_use_the_key_and_insertion_order(tmp_path, store):
    store.set_rule(Rule("grep", "rg", "Bash", "command", "grep", "command"))
    store.set_rule(FLAG_RULE)
    store.set_rule(Rule("x", "y", "Bash", "command", "", "regex"))
    store.set_rule(Rule("read_file", "Read", message="use Read"))
    conn = open_readonly(tmp_path / "dp.db")
    assert tool_alias(conn, "read_file").message == "use Read"
    assert tool_alias(conn, "Read") is None
    assert [r.from_name for r in rules_for_tool(conn, "Bash", ["scp", "grep"])] == ["grep", "r", "x"]
    assert [r.from_name for r in rules_for_tool(conn, "Bash", ["ls"])] == ["x"]
    assert rules_for_tool(conn, "Edit") == []


def test_reader_sees_only_committed_rules(tmp_path, store):
    reader = open_readonly(tmp_path / "dp.db")
    with store.transaction():
        store.conn.execute(
            "INSERT INTO aliases_v3 (from_name, to_name, created_at) VALUES ('half', 'written', 'now')"
        )
        assert tool_alias(reader, "half") is None
    assert tool_alias(reader, "half").to_name == "written"


def test_import_is_all_or_nothing(store):
    store.set_rule(Rule("read_file", "Read"))
    report = store.import_rules([Rule("a", "b"), Rule("read_file", "View")], conflict="skip")
    assert report.to_dict() == {"imported": 1, "skipped": 1, "overwritten": 0, "total": 2}
    assert store.get_rule(Rule("read_file", "")).to_name == "Read"
    report = store.import_rules([Rule("read_file", "View"), Rule("c", "d")], conflict="overwrite", dry_run=True)
    assert report.to_dict() == {"imported": 1, "skipped": 0, "overwritten": 1, "total": 2}
    assert [r.from_name for r in store.list_rules()] == ["read_file", "a"]
    store.import_rules([Rule("read_file", "View")], conflict="overwrite")
    assert store.get_rule(Rule("read_file", "")).to_name == "View"
    with pytest.raises(sqlite3.IntegrityError):
        store.import_rules([Rule("e", "f"), Rule("g", None)])
    assert [r.from_name for r in store.list_rules()] == ["read_file", "a"]


def test_unwritable_location_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(DpError, match="is not a directory"):
        Store.open(blocker / "dp.db")


def test_resolve_db_path_precedence(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("DP_DB", raising=False)
    assert resolve_db_path() == tmp_path / ".dp" / "dp.db"
    monkeypatch.setenv("DP_DB", "~/env.db")
    assert resolve_db_path() == tmp_path / "env.db"
    assert resolve_db_path("/x/explicit.db").as_posix() == "/x/explicit.db"
