"""A team sync interrupted anywhere, a team database that is down, and the hook's path through both.

The kill test interrupts ``dp team sync`` fifty times — SIGKILL of dp, or the
server stopped with ``pg_ctl stop -m immediate`` — each time after the server
shows the sync is under way (a batch committed: the rendezvous), while new
events keep arriving, then lets one sync finish: the team table must hold
every event exactly once.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

from dp.capture.events import failure_row, success_rows
from dp.store import Store, desires
from team.test_team import Member, git_typo_error

DP = str(Path(sys.executable).parent / "dp")
ROUNDS = 50


def seed(store: Path, start: int, count: int) -> None:
    """``count`` captured calls (failures and the successes after them), as dp-capture stores them."""
    rows = []
    for number in range(start, start + count):
        session = f"session-{number // 10}"
        if number % 2:
            rows += success_rows("hook", "Bash", {"command": "git commit -m x"}, session, "/srv/app",
                                 f"2026-11-27T10:{number // 3600 % 60:02d}:{number // 60 % 60:02d}.{number:06d}Z",
                                 f"{session}:use-{number}")
        else:
            rows.append(failure_row("hook", "Bash", {"command": "git comit -m x"}, git_typo_error(), session,
                                    "/srv/app", f"2026-11-27T10:{number // 3600 % 60:02d}:{number // 60 % 60:02d}."
                                    f"{number:06d}Z", f"{session}:use-{number}"))
    with Store.open(store) as opened:
        desires.add(opened.conn, rows)


def local_count(store: Path) -> int:
    with Store.open(store) as opened:
        return desires.count(opened.conn)


def server_count(cluster, database: str) -> int:
    return cluster.sql("SELECT count(*) FROM dp_events", database)[0][0]


def test_a_sync_killed_anywhere_then_resumed_holds_every_event_once(tmp_path, cluster, migrated):
    import psycopg

    ann = Member(tmp_path, "ann", cluster, migrated)
    ann.dp("team", "connect", ann.url, cwd=tmp_path)
    chooser = random.Random(37)
    seed(ann.store, 0, 300)
    added, interrupted_mid_way = 300, 0
    for round_number in range(ROUNDS):
        seed(ann.store, added, 20)
        added += 20
        with psycopg.connect(cluster.admin_url(migrated), autocommit=True) as watch:
            before = watch.execute("SELECT count(*) FROM dp_events").fetchone()[0]
            sync = subprocess.Popen([DP, "team", "sync", "--batch-size", "5"], env=ann.env, cwd=tmp_path,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            # Rendezvous: the server holds more than before (a batch committed) or the sync ended.
            while sync.poll() is None and watch.execute("SELECT count(*) FROM dp_events").fetchone()[0] == before:
                time.sleep(0.002)
        time.sleep(chooser.uniform(0, 0.02))  # then a random point further on
        if sync.poll() is None:
            interrupted_mid_way += 1
        if round_number % 2:
            cluster.stop("immediate")
            sync.wait(timeout=60)
            cluster.start()
        else:
            sync.kill()
            sync.wait(timeout=60)
        if sync.returncode not in (0, -9):
            assert sync.stderr.read().startswith("dp: error: ")  # the server went away: one line, no traceback
        sync.stderr.close()
    assert interrupted_mid_way >= ROUNDS // 2
    assert server_count(cluster, migrated) < local_count(ann.store)  # the interruptions left work to do
    ann.dp("team", "sync", cwd=tmp_path)
    total, distinct = cluster.sql("SELECT count(*), count(DISTINCT (machine, event_id)) FROM dp_events", migrated)[0]
    assert total == distinct == local_count(ann.store) == added
    status = json.loads(ann.dp("team", "status", "--json", cwd=tmp_path).stdout)
    assert status["databases"][0]["queued"] == 0 and status["databases"][0]["offline"] is None


HOOK_IMPORTS_PROBE = """
import io, json, sys
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
from dp.hook import main
status = main([])
print(json.dumps([name for name in ("psycopg", "dp.team", "socket", "ssl") if name in sys.modules]))
"""


def test_an_unreachable_team_database_changes_nothing_an_agent_runs(tmp_path, cluster, migrated):
    ann = Member(tmp_path, "ann", cluster, migrated)
    ann.dp("alias", "--cmd", "bd", "--flag", "wisp", "ephemeral", cwd=tmp_path)
    ann.dp("alias", "read_file", "Read", cwd=tmp_path)
    calls = [
        {"session_id": "s", "hook_event_name": "SessionStart", "source": "startup", "cwd": str(tmp_path)},
        {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(tmp_path),
         "tool_input": {"command": "bd create --wisp 'fix the build'", "description": "file it"}},
        {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "read_file", "cwd": str(tmp_path),
         "tool_input": {"path": "README.md"}},
        {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(tmp_path),
         "tool_input": {"command": "ls -la"}},
    ]

    def answers():
        return [(proc.returncode, proc.stdout, proc.stderr) for proc in map(ann.hook, calls)]

    alone = answers()
    assert alone[1][1] and alone[2][0] == 2  # the rules act: a rewrite, a blocked tool name
    ann.typo(tmp_path, "first-session")
    ann.dp("team", "connect", ann.url, cwd=tmp_path)
    ann.dp("team", "sync", cwd=tmp_path)
    cluster.stop("fast")
    try:
        assert answers() == alone
        for call in calls:
            probe = subprocess.run([sys.executable, "-c", HOOK_IMPORTS_PROBE, json.dumps(call)], capture_output=True,
                                   text=True, env=ann.env, timeout=60)
            assert probe.returncode == 0 and json.loads(probe.stdout.splitlines()[-1]) == [], probe.stderr
        assert ann.capture(failure_of("git comit -m again", "offline-session", tmp_path)) is None
        # The team's views fall back on the aggregates the last sync downloaded, and say so.
        offline_paths = ann.dp("paths", "--team", "--json", cwd=tmp_path)
        assert [(path["shape"], path["count"], path["people"]) for path in json.loads(offline_paths.stdout)] == [
            ("git comit -m", 1, 1)]
        assert offline_paths.stderr.startswith(f"cannot reach the team database {ann.url}: ")
        assert "showing the team's aggregates as of the last sync (" in offline_paths.stderr
        failed = ann.dp("team", "sync", cwd=tmp_path, check=False)
        assert failed.returncode == 1 and failed.stdout == "" and failed.stderr.count("\n") == 1
        assert failed.stderr.startswith(f"dp: error: cannot reach the team database {ann.url}: ")
        doctor = ann.dp("doctor", cwd=tmp_path, check=False).stdout
        assert [line.split()[:3] for line in doctor.splitlines() if "offline since" in line] == [
            ["warn", "team", "offline"]]
        assert "1 event queued" in doctor
    finally:
        cluster.start()
    assert ann.dp("team", "sync", cwd=tmp_path).stdout.startswith(f"{ann.url}: 1 event uploaded")
    assert "offline" not in ann.dp("doctor", cwd=tmp_path, check=False).stdout
    assert server_count(cluster, migrated) == 3


def failure_of(command: str, session: str, cwd: Path) -> dict:
    from capture_support import failure

    return failure(command, error=git_typo_error(), session=session, tool_use_id=f"{session}-{command}", cwd=str(cwd))


def test_session_start_syncs_in_the_background(tmp_path, cluster, migrated):
    ann = Member(tmp_path, "ann", cluster, migrated)
    ann.typo(tmp_path, "first")
    ann.dp("team", "connect", ann.url, cwd=tmp_path)
    started = ann.hook({"session_id": "next", "hook_event_name": "SessionStart", "source": "startup",
                        "cwd": str(tmp_path)})
    assert started.returncode == 0 and started.stderr == ""
    deadline = time.monotonic() + 120  # a bound on waiting for the detached sync, not a measurement
    while server_count(cluster, migrated) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server_count(cluster, migrated) == 2
    while json.loads(ann.dp("team", "status", "--json", cwd=tmp_path).stdout)["databases"][0]["last_sync"] is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
