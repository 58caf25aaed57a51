"""The store layer beyond the rules: migrating an old file, the desires table, the Go tool's
database and the shared connection helpers, all against real SQLite files."""

from __future__ import annotations

import json
import sqlite3

import pytest

from dp.capture.events import failure_row, success_rows
from dp.capture.hook import record
from dp.errors import DpError
from dp.rules.model import Rule
from dp.store import SCHEMA_VERSION, Store, desires, installs, open_readonly, read_rules
from dp.store.connection import connect, transaction
from dp.store.go_desires import desire_batches, open_go_db, schema_version
from dp.store.migrations import load_migrations, migrate


def _old_store(path, version: int):
    """A store as an older dp left it: the first ``version`` migrations and one rule."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, load_migrations()[:version])
    conn.execute("INSERT INTO aliases_v3 (from_name, to_name, created_at) VALUES ('read_file', 'Read', '2026-01-01')")
    conn.close()
    return path


def _tables(path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


# -- migrations from an old file ----------------------------------------------


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION))
def test_opening_an_old_store_migrates_it_and_keeps_its_rules(tmp_path, version):
    path = _old_store(tmp_path / "dp.db", version)
    assert "desires" not in _tables(path) or version >= 3
    with Store.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert [(r.from_name, r.to_name, r.created_at) for r in store.list_rules()] == [("read_file", "Read", "2026-01-01")]
        store.set_rule(Rule("gt x", "gt y {{ args }}", "Bash", "command", "gt", "recipe"))
    assert {"aliases_v3", "installs", "desires", "recipe_programs"} <= _tables(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT template FROM recipe_programs").fetchall() == [("gt y {{ args }}",)]


def test_read_rules_brings_an_old_writable_store_up_to_date(tmp_path):
    path = _old_store(tmp_path / "dp.db", 1)
    assert [r.from_name for r in read_rules(path)] == ["read_file"]
    assert schema_version_of(path) == SCHEMA_VERSION


def schema_version_of(path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


def test_the_capture_hook_migrates_a_store_from_before_capture(tmp_path):
    path = _old_store(tmp_path / "dp.db", 2)
    payload = {"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "session_id": "s1",
               "tool_use_id": "toolu_1", "cwd": "/w", "tool_input": {"command": "pyhton x.py"},
               "error": "Exit code 127\n/bin/bash: pyhton: command not found"}
    assert record(str(path), json.dumps(payload).encode()) == 1
    assert record(str(path), json.dumps(payload).encode()) == 0  # the same call again: its key is stored
    assert schema_version_of(path) == SCHEMA_VERSION
    conn = open_readonly(path)
    assert desires.outcome_counts(conn) == {"failure": 1, "success": 0}
    [row] = desires.bash_failures(conn, "command not found")
    assert row[4] == "pyhton"


def test_installs_of_an_old_store_read_as_none_without_migrating(tmp_path):
    path = _old_store(tmp_path / "odd #1?%.db", 1)
    assert installs.read(path) == []
    assert schema_version_of(path) == 1


# -- the desires table ----------------------------------------------------------


def _failure(n, command, error, session="s1", when=None):
    return failure_row("hook", "Bash", {"command": command}, error, session, "/w",
                       when or f"2026-11-0{n}T10:00:00.000000Z", f"{session}:f{n}")


def _success(n, command, session="s1", when=None):
    return success_rows("hook", "Bash", {"command": command}, session, "/w",
                        when or f"2026-11-0{n}T10:00:01.000000Z", f"{session}:ok{n}")


@pytest.fixture
def events(tmp_path):
    with Store.open(tmp_path / "dp.db") as store:
        rows = [
            _failure(1, "git comit -m x", "git: 'comit' is not a git command."),
            *_success(1, "git commit -m x"),
            _failure(2, "fd foo", "bash: fd: command not found"),
            *_success(2, "fdfind foo"),
            *_success(3, "fdfind bar", session="other"),
            _failure(3, "git comit -m y", "git: 'comit' is not a git command.", session="s2"),
            failure_row("transcript", "read_file", {"path": "/x"}, "No such tool available: read_file", "s3", "/w",
                        "2026-11-04T10:00:00.000000Z", "s3:t1"),
        ]
        assert desires.add(store.conn, rows) == len(rows)
        assert desires.add(store.conn, rows) == 0
        yield store.conn


def test_failures_newest_first_with_filters_and_limit(events):
    assert [row[1] for row in desires.failures(events)] == ["read_file", "Bash", "Bash", "Bash"]
    assert [row[8] for row in desires.failures(events, since="2026-11-02T00:00:00.000000Z", tool="Bash")] == [
        "2026-11-03T10:00:00.000000Z", "2026-11-02T10:00:00.000000Z"]
    assert len(desires.failures(events, limit=1)) == 1
    assert desires.outcome_counts(events) == {"failure": 4, "success": 3}


def test_failure_groups_count_sessions_per_shape(events):
    groups = desires.failure_groups(events)
    top = groups[0]
    assert top[:6] == ("Bash", "git", "comit", '["-m"]', "[]", "unknown subcommand") and top[6:8] == (2, 2)
    assert top[8:10] == ("2026-11-01T10:00:00.000000Z", "2026-11-03T10:00:00.000000Z")
    assert [group[6] for group in groups] == [2, 1, 1]
    assert len(desires.failure_groups(events, since="2026-11-04T00:00:00.000000Z")) == 1


def test_inputs_and_errors_are_read_in_batches(tmp_path):
    with Store.open(tmp_path / "dp.db") as store:
        rows = [_failure(1, f"cmd{n}", "error", when=f"2026-11-01T10:00:00.{n:06d}Z") | {"event_key": f"k{n}"}
                for n in range(1200)]
        desires.add(store.conn, rows)
        ids = [row[0] for row in desires.failures(store.conn)]
        found = desires.inputs_and_errors(store.conn, ids)
    assert sorted(row[0] for row in found) == sorted(ids) and len(found) == 1200


def test_what_succeeded_next_stays_in_the_session(events):
    [failed] = desires.bash_failures(events, "command not found")
    following = desires.bash_successes_after(events, failed[-2], failed[-1], failed[0], 10)
    assert following == [("fdfind", "", "[]")]
    assert desires.succeeded_subcommands(events, "git") == ["commit"]
    [unknown] = desires.unknown_tool_failures(events)
    assert unknown[1] == "read_file" and json.loads(unknown[4]) == ["path"]


def test_delete_before_a_date_then_all(events):
    assert desires.delete(events, "2026-11-02T00:00:00.000000Z") == 2
    assert desires.outcome_counts(events) == {"failure": 3, "success": 2}
    assert desires.delete(events) == 5
    assert desires.outcome_counts(events) == {"failure": 0, "success": 0}


# -- connections and transactions ----------------------------------------------


def test_a_failed_transaction_leaves_nothing(tmp_path):
    conn = connect(tmp_path / "t.db", 1000)
    conn.execute("CREATE TABLE t (x TEXT NOT NULL)")
    with pytest.raises(sqlite3.IntegrityError):
        with transaction(conn):
            conn.execute("INSERT INTO t VALUES ('kept?')")
            conn.execute("INSERT INTO t VALUES (NULL)")
    assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 0
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 1000


def test_the_readonly_open_escapes_uri_characters_in_the_path(tmp_path):
    path = tmp_path / "a #b?c%d.db"
    Store.open(path).close()
    conn = open_readonly(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("CREATE TABLE x (y)")


# -- the Go tool's database -----------------------------------------------------


def _go_db(path, rows=(), version=4, columns="id, tool_name, tool_input, error, session_id, cwd, timestamp"):
    conn = sqlite3.connect(path)
    conn.execute(f"CREATE TABLE desires ({columns})")
    conn.execute("CREATE TABLE schema_version (version INTEGER)")
    if version is not None:
        conn.execute("INSERT INTO schema_version VALUES (?)", (version,))
    conn.executemany("INSERT INTO desires VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()
    return path


def test_go_database_is_read_in_order_and_batches(tmp_path):
    rows = [(n, "Read", "{}", "boom", "s", "/w", f"2026-01-0{9 - n}T00:00:00Z") for n in range(5)]
    conn = open_go_db(_go_db(tmp_path / "desires #1.db", rows))
    assert schema_version(conn) == 4
    batches = list(desire_batches(conn, 2))
    assert [len(batch) for batch in batches] == [2, 2, 1]
    assert [row[0] for batch in batches for row in batch] == [4, 3, 2, 1, 0]
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("DELETE FROM desires")


def test_go_database_without_a_version_row(tmp_path):
    assert schema_version(open_go_db(_go_db(tmp_path / "d.db", version=None))) is None


def test_go_database_errors_say_what_is_wrong(tmp_path):
    with pytest.raises(DpError, match="no such file"):
        open_go_db(tmp_path / "missing.db")
    (tmp_path / "junk.db").write_bytes(b"not sqlite" * 200)
    with pytest.raises(DpError, match="not a readable SQLite database"):
        open_go_db(tmp_path / "junk.db")
    with pytest.raises(DpError, match="no desires table with error, timestamp"):
        open_go_db(_go_db(tmp_path / "other.db", columns="id, tool_name, tool_input, x, session_id, cwd, y"))
