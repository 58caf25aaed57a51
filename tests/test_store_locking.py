"""dp.store.connection under contention, on real SQLite files.

Two hooks per tool call, ``dp alias`` and ``dp ingest`` may all hold the
store at once. The promises: a writer waits its turn for the busy timeout
and then fails cleanly (never half-written); writers that wait get in; a
reader never waits for a writer and sees only what was committed; the
hook's read-only open refuses what is not a database file without hanging.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time

import pytest

from dp.capture.events import failure_row
from dp.hook import HOOK_TIMEOUT_SECONDS
from dp.rules.model import Rule
from dp.store import Store, desires, open_readonly, tool_alias
from dp.store.connection import connect, connect_for_writes, transaction


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "dp.db"
    Store.open(path).close()  # the schema, in WAL mode
    return path


def row(n: int, key: str | None = None) -> dict:
    return failure_row("hook", "read_file", {"path": f"/f{n}"}, "No such tool available: read_file",
                       f"s{n % 3}", "/w", f"2026-11-04T10:00:{n % 60:02d}.000000Z", key or f"k{n}")


def test_a_writer_waits_for_the_lock_then_fails_cleanly_after_its_busy_timeout(db):
    holder = connect(db, 1000)
    holder.execute("BEGIN IMMEDIATE")
    waiter = connect(db, 200)
    started = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        with transaction(waiter):
            waiter.execute("INSERT INTO desires (source) VALUES ('never')")
    waited = time.monotonic() - started
    assert waited >= 0.15, f"gave up after {waited:.3f}s, before its busy timeout"
    holder.execute("ROLLBACK")
    # The refused writer is usable again and left nothing behind.
    assert desires.add(waiter, [row(1)]) == 1
    assert desires.outcome_counts(waiter) == {"failure": 1, "success": 0}


def test_a_waiting_writer_gets_in_once_the_holder_commits(db):
    locked = threading.Event()

    def hold():
        holder = connect(db, 1000)
        holder.execute("BEGIN IMMEDIATE")
        desires.insert_rows(holder, [row(1)])
        locked.set()
        time.sleep(0.3)
        holder.execute("COMMIT")

    thread = threading.Thread(target=hold)
    thread.start()
    locked.wait(10)
    waiter = connect_for_writes(db, 10_000)
    try:
        assert desires.add(waiter, [row(2)]) == 1
    finally:
        thread.join()
    assert desires.outcome_counts(waiter)["failure"] == 2


def test_concurrent_writers_all_land_and_a_repeated_event_lands_once(db):
    errors = []

    def write(worker: int):
        try:
            conn = connect_for_writes(db, 15_000)
            for n in range(10):
                desires.add(conn, [row(worker * 100 + n), row(0, key="shared")])
            conn.close()
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(1, 7)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    conn = connect(db, 1000)
    assert desires.outcome_counts(conn)["failure"] == 6 * 10 + 1
    assert conn.execute("SELECT count(*) FROM desires WHERE event_key = 'shared'").fetchone()[0] == 1


def test_the_hook_s_reader_neither_waits_for_nor_sees_an_open_write(db):
    with Store.open(db) as store:
        store.set_rule(Rule("read_file", "Read"))
    writer = connect(db, 1000)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM aliases_v3")
    started = time.monotonic()
    reader = open_readonly(db)
    assert tool_alias(reader, "read_file").to_name == "Read"
    assert time.monotonic() - started < HOOK_TIMEOUT_SECONDS
    writer.execute("COMMIT")
    reader.close()
    assert tool_alias(open_readonly(db), "read_file") is None


def test_a_write_transaction_is_immediate(db):
    """BEGIN IMMEDIATE takes the write lock at once, so two writers cannot both read-then-write."""
    first = connect(db, 100)
    with transaction(first):
        second = connect(db, 100)
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            second.execute("BEGIN IMMEDIATE")
    second.execute("BEGIN IMMEDIATE")
    second.execute("COMMIT")


def test_writers_trade_an_fsync_per_commit_for_wal_durability(db):
    assert connect_for_writes(db, 100).execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert connect(db, 100).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_the_read_only_open_refuses_a_fifo_without_hanging(tmp_path):
    os.mkfifo(tmp_path / "dp.db")
    with pytest.raises(sqlite3.OperationalError, match="is not a regular file"):
        open_readonly(tmp_path / "dp.db")


def test_the_read_only_open_refuses_a_directory_and_names_a_path_it_cannot_use(tmp_path):
    (tmp_path / "dp.db").mkdir()
    with pytest.raises(sqlite3.OperationalError, match="is not a regular file"):
        open_readonly(tmp_path / "dp.db")
    (tmp_path / "file").write_text("")
    with pytest.raises(sqlite3.OperationalError, match=r"cannot use .*file/dp\.db: Not a directory"):
        open_readonly(tmp_path / "file" / "dp.db")


def test_a_truncated_store_is_an_error_for_the_reader(db):
    data = db.read_bytes()
    (db.parent / "cut.db").write_bytes(data[:100])
    with pytest.raises(sqlite3.DatabaseError):
        conn = open_readonly(db.parent / "cut.db")
        conn.execute("SELECT count(*) FROM aliases_v3").fetchone()
