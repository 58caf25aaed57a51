"""A team store that holds against one of its members (issue 48, findings 2–7), on a real PostgreSQL.

Two members, alice and bob, set up exactly as docs/team.md says (login roles in
``dp_member``, passwords in ``PGPASSWORD``), each with a ``git comit`` captured
through the real ``dp-capture`` and synced with the real ``dp team sync``.
Then alice (or bob) turns hostile with nothing but their own login: psql-like
statements through psycopg, as any member could type them. Where a finding is
about what the *client* does with bad rows, the test also makes the database
hold them anyway — the owner drops the check and writes them, as an older
schema or a server that is not what it claims would — and the other member's
real ``dp`` must stay working, bounded and clean.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest
from capture_support import failure, run_capture
from psycopg.types.json import Jsonb
from test_project_layers import Person

from team.conftest import LATEST, add_member
from team.test_team import Member, git_typo_error

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations" / "postgres"
ESCAPES = ("\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07", "\x1b[2J\x1b[H", "\x9b31m", "\r\x1b[1A", "\u202e")
COLUMNS = ("member", "machine", "event_id", "repository", "session", "outcome", "tool_name", "command", "subcommand",
           "flags", "input_keys", "error_class", "error_hint", "then_shapes", "happened_at")


def event(number: int, **fields) -> dict:
    """One row as dp uploads it (``dp.team.shapes.EVENT_FIELDS``), a command of its own unless given."""
    return {"machine": "a1b2c3", "event_id": f"forged{number:06d}", "repository": "", "session": f"s{number}",
            "outcome": "failure", "tool_name": "Bash", "command": f"tool{number}", "subcommand": "", "flags": "[]",
            "input_keys": "[]", "error_class": "command not found", "error_hint": "", "then_shapes": "[]",
            "happened_at": "2026-01-05T10:00:00Z", **fields}


def connect_as(member: Member):
    return psycopg.connect(member.url, password=member.env["PGPASSWORD"], autocommit=True)


def plant_as_member(member: Member, rows: list[dict]) -> list[str]:
    """Every way a member could write ``rows``: straight into the table (as the member and as the
    group role), and through the upload function. Returns what the database took, as 'how: count'."""
    took = []
    for role in (None, "dp_member"):
        with connect_as(member) as conn:
            if role:
                conn.execute(f"SET ROLE {role}")
            for row in rows:
                try:
                    conn.execute(f"INSERT INTO dp_events ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * 15)})",
                                 [role or member.home.name, *(row[key] for key in COLUMNS[1:])])
                    took.append(f"insert as {role or 'self'}")
                except psycopg.Error:
                    pass
            try:
                changed = conn.execute("SELECT changed FROM dp_upload(%s)", (Jsonb(rows),)).fetchone()[0]
                if changed:
                    took.append(f"dp_upload as {role or 'self'}: {changed}")
            except psycopg.Error:
                pass
    return took


def server_holds(cluster, database: str, member: str, rows: list[dict]) -> None:
    """Make the database hold ``rows`` as ``member``'s whatever its checks say (an older schema, or a
    server that is not what it claims): the owner drops the check and writes them."""
    cluster.sql("ALTER TABLE dp_events DROP CONSTRAINT IF EXISTS dp_events_sane", database)
    with psycopg.connect(cluster.admin_url(database), autocommit=True) as conn:
        with conn.cursor().copy(f"COPY dp_events ({', '.join(COLUMNS)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row([member, *(row[key] for key in COLUMNS[1:])])


@pytest.fixture
def team(tmp_path, cluster, migrated):
    """alice and bob, each with a ``git comit`` captured, connected and synced: ``(alice, bob, workdir)``."""
    work = tmp_path / "work"
    work.mkdir()
    members = []
    for name in ("alice", "bob"):
        person = Member(tmp_path, name, cluster, migrated)
        person.typo(work, f"{name}-session")
        person.dp("team", "connect", person.url, cwd=work)
        person.dp("team", "sync", cwd=work)
        members.append(person)
    return members[0], members[1], work


def team_views(person: Member, cwd: Path) -> dict:
    """Every team view of ``person``, as text and JSON, each a process of its own that must succeed
    (and ``dp doctor``, whose team line reads the same state; this HOME has no hook installed)."""
    found = {" ".join(args): person.dp(*args, cwd=cwd) for args in (
        ("paths", "--team"), ("paths", "--team", "--json"), ("desires", "--team"), ("desires", "--team", "--json"),
        ("suggest", "--team", "--min-count", "1"), ("suggest", "--team", "--json", "--min-count", "1"),
        ("team", "sync"), ("team", "status"))}
    found["doctor"] = person.dp("doctor", cwd=cwd, check=False)
    assert "\nok     team " in found["doctor"].stdout
    return found


def shared_path(person: Member, cwd: Path) -> tuple:
    """The team's ``git comit -m`` path as ``person`` reads it: (events, people)."""
    found = json.loads(person.dp("paths", "--team", "--json", cwd=cwd).stdout)
    return next((path["count"], path["people"]) for path in found if path["shape"] == "git comit -m")


def database_status(person: Member, cwd: Path) -> dict:
    return json.loads(person.dp("team", "status", "--json", cwd=cwd).stdout)["databases"][0]


def test_finding_2_one_members_bad_row_breaks_no_one_elses_views_or_sync(team, cluster, migrated):
    alice, bob, work = team
    bad = [event(1, happened_at="infinity"), event(2, flags="not json ["), event(3, then_shapes="[1]")]
    assert plant_as_member(alice, bad) == []  # the database refuses every one of them, every way
    assert cluster.sql("SELECT count(*) FROM dp_events WHERE starts_with(event_id, 'forged')", migrated) == [(0,)]

    server_holds(cluster, migrated, "alice", bad)
    views = team_views(bob, work)  # each exits 0 (Member.dp checks)
    assert shared_path(bob, work) == (2, 2)
    assert "git comit -m" in views["paths --team"].stdout and "tool1" not in views["paths --team"].stdout
    assert database_status(bob, work)["skipped"] == 3
    assert "3 rows skipped (not shapes dp can trust)" in views["team status"].stdout
    # What bob keeps for when the database is down holds only what he accepted, and reads back.
    cluster.stop("fast")
    try:
        offline = bob.dp("paths", "--team", "--json", cwd=work)
        assert [(path["shape"], path["people"]) for path in json.loads(offline.stdout)] == [("git comit -m", 2)]
        assert "as of the last sync" in offline.stderr
    finally:
        cluster.start()


def test_finding_3_a_download_is_bounded_in_rows_and_bytes(team, cluster, migrated):
    from dp.team.download import MAX_BYTES, MAX_ROWS

    alice, bob, work = team
    huge = [event(number, error_hint="x" * (5 << 20)) for number in range(20)]
    assert plant_as_member(alice, huge[:2]) == []
    server_holds(cluster, migrated, "alice", huge)
    server_holds(cluster, migrated, "alice", [event(100 + number) for number in range(MAX_ROWS + 300)])

    measured = subprocess.run(  # bob's dp team sync, and the most memory it held
        [sys.executable, "-c", "import resource, subprocess, sys; proc = subprocess.run(sys.argv[1:], "
         "stdout=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, proc.returncode)",
         str(Path(sys.executable).parent / "dp"), "team", "sync"],
        capture_output=True, text=True, env=bob.env, cwd=work, timeout=300)
    max_kib, status = map(int, measured.stdout.split())
    assert status == 0, measured.stderr
    assert max_kib < 200 * 1024  # 100 MiB of hints planted: none of it was held
    cached = list((bob.home / ".dp").glob("team-*.json"))
    assert len(cached) == 1 and cached[0].stat().st_size <= MAX_BYTES
    kept = json.loads(cached[0].read_text())["groups"]
    assert len(kept) <= MAX_ROWS
    assert kept[0]["command"] == "git" and len(kept[0]["people"]) == 2  # the most-shared path comes first
    assert not any(len(group["error_hint"]) > 1000 for group in kept)
    status = database_status(bob, work)
    total = cluster.sql("SELECT count(*) FROM dp_team_groups()", migrated)[0][0]
    assert status["skipped"] <= 20 and status["left_out"] >= 300
    assert len(kept) + status["skipped"] + status["left_out"] == total
    assert shared_path(bob, work) == (2, 2)


def test_finding_4_bob_cannot_map_a_people_value_to_alice(team, cluster, migrated):
    alice, bob, work = team
    with connect_as(bob) as conn:
        groups = conn.execute("SELECT people, machines, repositories, first_seen, last_seen "
                              "FROM dp_team_groups()").fetchall()
        roles = [row[0] for row in conn.execute("SELECT rolname FROM pg_roles")]
        for statement in ("SELECT * FROM dp_secret", "SELECT * FROM dp_events"):
            with pytest.raises(psycopg.Error):
                conn.execute(statement)
    people = {value for row in groups for value in row[0]}
    assert len(people) == 2 and "alice" in roles
    # Every hash of every name bob can list, at every prefix length: none is a people value.
    guesses = set()
    for role in roles:
        for algorithm in ("md5", "sha1", "sha256", "sha512"):
            digest = hashlib.new(algorithm, role.encode()).hexdigest()
            guesses.update(digest[:size] for size in range(8, len(digest) + 1))
    assert not people & guesses
    # The times bob reads are days, not the moments alice failed.
    assert all(moment.hour == moment.minute == moment.second == moment.microsecond == 0
               for row in groups for moment in row[3:])
    # The same member in another team database has another pseudonym: nothing links them.
    other = f"{migrated}_other"
    cluster.sql(f"CREATE DATABASE {other}")
    try:
        owner = {**os.environ, "PGPASSWORD": "admin-secret"}
        subprocess.run([str(Path(sys.executable).parent / "dp"), "team", "migrate", cluster.url("dp_admin", other)],
                       check=True, capture_output=True, env=owner, timeout=120)
        add_member(cluster, other, "alice", "alice-password")
        alice.dp("team", "connect", cluster.url("alice", other), cwd=work)
        alice.dp("team", "sync", cwd=work)
        with psycopg.connect(cluster.url("alice", other), password="alice-password") as conn:
            elsewhere = {value for row in conn.execute("SELECT people FROM dp_team_groups()") for value in row[0]}
        assert len(elsewhere) == 1 and not elsewhere & people
    finally:
        cluster.sql(f"DROP DATABASE IF EXISTS {other} WITH (FORCE)")


def test_finding_5_a_member_counts_as_one_person_whatever_they_insert(team, cluster, migrated):
    alice, bob, work = team
    # As the group role: nothing, however it is tried.
    with connect_as(bob) as conn:
        conn.execute("SET ROLE dp_member")
        with pytest.raises(psycopg.Error):
            conn.execute("SELECT * FROM dp_upload(%s)", (Jsonb([event(1)]),))
    assert not [how for how in plant_as_member(bob, [event(2)]) if "dp_member" in how]
    assert cluster.sql("SELECT DISTINCT member FROM dp_events ORDER BY 1", migrated) == [("alice",), ("bob",)]
    # Eighty forged machines and sessions on the team's shared path, and a flood of a path of bob's own.
    typo = {"command": "git", "subcommand": "comit", "flags": '["-m"]', "error_class": "unknown subcommand",
            "error_hint": "The most similar command is commit"}
    forged = [event(10 + number, machine=f"forged{number}", session=f"forged{number}", **typo) for number in range(80)]
    flood = [event(200 + number, machine=f"flood{number}", command="gti") for number in range(300)]
    with connect_as(bob) as conn:
        for rows in (forged, flood):
            try:
                conn.execute("SELECT * FROM dp_upload(%s)", (Jsonb(rows),))
            except psycopg.Error:  # an older schema: the table itself
                for row in rows:
                    conn.execute(f"INSERT INTO dp_events ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * 15)})",
                                 ["bob", *(row[key] for key in COLUMNS[1:])])
    assert shared_path(alice, work) == (82, 2)
    paths = json.loads(alice.dp("paths", "--team", "--json", cwd=work).stdout)
    assert [(path["shape"], path["people"]) for path in paths[:2]] == [("git comit -m", 2), ("gti", 1)]
    suggested = json.loads(alice.dp("suggest", "--team", "--json", "--min-count", "1", cwd=work).stdout)
    assert suggested and all(item["people"] <= 2 for item in suggested)


def test_finding_6_no_member_can_stall_the_others(team, cluster, migrated):
    alice, bob, work = team
    with connect_as(bob) as conn:
        for table in ("dp_events", "dp_member_groups", "dp_member_group_parts", "dp_actions", "dp_outcome_days"):
            for mode in ("ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE", "SHARE", "EXCLUSIVE", "ACCESS EXCLUSIVE"):
                conn.execute("BEGIN")
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(f"LOCK TABLE {table} IN {mode} MODE")
                conn.execute("ROLLBACK")
    # A lock held anyway (the owner's maintenance, an older schema's member): alice's commands end in
    # seconds with one clear line, the views fall back on the last download, and status says why.
    alice.capture(failure("git comit -m 'again'", error=git_typo_error(), session="later", tool_use_id="later-1",
                          cwd=str(work)))
    holding, release = threading.Event(), threading.Event()

    def hold():
        with psycopg.connect(cluster.admin_url(migrated)) as conn:
            # the events and their rollups (the views read the rollups: migrations/postgres/0004_*)
            conn.execute("LOCK TABLE dp_events, dp_member_groups IN ACCESS EXCLUSIVE MODE")
            holding.set()
            release.wait(120)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(60)
        sync = subprocess.run([str(Path(sys.executable).parent / "dp"), "team", "sync"], capture_output=True,
                              text=True, env=alice.env, cwd=work, timeout=30)  # the statement timeout is 60 s
        assert sync.returncode == 1 and sync.stdout == "" and sync.stderr.count("\n") == 1, sync.stderr
        assert sync.stderr.startswith(f"dp: error: the team database {alice.url} is busy: a lock someone holds")
        view = subprocess.run([str(Path(sys.executable).parent / "dp"), "paths", "--team"], capture_output=True,
                              text=True, env=alice.env, cwd=work, timeout=30)
        assert view.returncode == 0 and "git comit -m" in view.stdout
        assert "is busy" in view.stderr and "as of the last sync" in view.stderr
        assert "is busy" in database_status(alice, work)["offline"]
    finally:
        release.set()
        holder.join()
    assert alice.dp("team", "sync", cwd=work).stdout.startswith(f"{alice.url}: 1 event uploaded")


def test_finding_7_another_members_escape_sequences_reach_no_terminal(team, cluster, migrated):
    alice, bob, work = team
    painted = [event(number, command=f"x{ESCAPES[number % len(ESCAPES)]}") for number in range(5)]
    painted += [event(10, subcommand=ESCAPES[0]), event(11, flags=json.dumps(["-m" + ESCAPES[1]])),
                event(12, error_class=ESCAPES[2]), event(13, error_hint="did you mean " + ESCAPES[0]),
                event(14, then_shapes=json.dumps([["git", ESCAPES[3], []]]))]
    assert plant_as_member(alice, painted) == []
    server_holds(cluster, migrated, "alice", painted)
    for name, proc in team_views(bob, work).items():
        for stream in (proc.stdout, proc.stderr):
            assert not any(char in stream for char in "\x1b\x07\x9b\r\u202e"), (name, stream)
    assert "git comit -m" in bob.dp("paths", "--team", cwd=work).stdout
    assert database_status(bob, work)["skipped"] == len(painted)


def test_finding_7_a_captured_commands_escape_sequences_reach_no_terminal(tmp_path):
    """The same one rule for what dp prints of the person's own store: a command an agent ran."""
    person = Person(tmp_path, "carol")  # a person with no team at all

    for number, escape in enumerate(ESCAPES):
        proc = run_capture(failure(f"curl{escape} -s http://x{escape}", error=f"Exit code 127\nno{escape}",
                                   session="s", tool_use_id=f"t{number}", cwd=str(tmp_path)), env=person.env)
        assert proc.returncode == 0
    for args in (("desires",), ("paths",), ("suggest", "--min-count", "1")):
        shown = person.dp(*args, cwd=tmp_path)
        assert "curl" in shown.stdout + shown.stderr or args[0] == "suggest"
        assert not any(char in shown.stdout + shown.stderr for char in "\x1b\x07\x9b\r\u202e"), (args, shown.stdout)


def test_the_team_migration_upgrades_a_version_1_database_in_place(tmp_path, cluster, team_db):
    """A database dp's first schema set up, with members' rows in it (good ones, and finding 2's and 5's),
    upgraded by ``dp team migrate``: the good rows stay, the others go, and the new rules hold."""
    version_1 = sorted(MIGRATIONS.glob("0001_*.sql"))[0]
    cluster.sql("CREATE TABLE dp_schema_version (version integer PRIMARY KEY, name text NOT NULL, "
                "applied_at timestamptz NOT NULL DEFAULT now())", team_db)
    with psycopg.connect(cluster.admin_url(team_db), autocommit=True) as conn:
        conn.execute(version_1.read_text())
    cluster.sql("INSERT INTO dp_schema_version (version, name) VALUES (1, %s)", team_db, (version_1.name,))
    alice, bob = Member(tmp_path, "alice", cluster, team_db), Member(tmp_path, "bob", cluster, team_db)
    typo = {"command": "git", "subcommand": "comit", "flags": '["-m"]', "error_class": "unknown subcommand",
            "error_hint": "The most similar command is commit", "then_shapes": '[["git", "commit", ["-m"]]]'}
    good = [event(number, **typo) for number in range(3)]
    for member, rows in ((alice, good), (bob, [event(9, **typo)])):
        with connect_as(member) as conn:
            for row in rows:  # what dp's version-1 client did: straight into the table, as the member
                conn.execute(f"INSERT INTO dp_events ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * 15)})",
                             [member.home.name, *(row[key] for key in COLUMNS[1:])])
    bad = [event(20, happened_at="infinity"), event(21, flags="{"), event(22, then_shapes="[1]"),
           event(23, command="x" + ESCAPES[0])]
    assert len(plant_as_member(bob, bad)) == 2 * len(bad)  # version 1 took them, as bob and as dp_member
    owner = {**os.environ, "PGPASSWORD": "admin-secret", "HOME": str(tmp_path)}
    migrate = subprocess.run([str(Path(sys.executable).parent / "dp"), "team", "migrate",
                              cluster.url("dp_admin", team_db)], capture_output=True, text=True, env=owner, timeout=120)
    assert migrate.returncode == 0, migrate.stderr
    assert migrate.stdout == f"{cluster.url('dp_admin', team_db)}: team schema version 1 → {LATEST}.\n"
    assert cluster.sql("SELECT member, count(*) FROM dp_events GROUP BY 1 ORDER BY 1", team_db) == [
        ("alice", 3), ("bob", 1)]
    with connect_as(bob) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM dp_events")
    work = tmp_path / "work"
    work.mkdir()
    bob.typo(work, "after-the-upgrade")
    bob.dp("team", "connect", bob.url, cwd=work)
    assert bob.dp("team", "sync", cwd=work).stdout.startswith(f"{bob.url}: 2 events uploaded")
    assert shared_path(bob, work) == (5, 2)
