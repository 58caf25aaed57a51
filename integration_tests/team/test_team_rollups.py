"""The team's aggregates come from rollups kept on every change (issue 51, migrations/postgres/0004_*), and say
exactly what the GROUP BY over every event said (0002's ``dp_team_groups()``, ``every_event`` below) whatever
happens to the events: members' uploads through the real ``dp team sync``, a failure moving to another group when
what worked next in its session arrives, forged sessions and machines, the owner's purge of one member, TRUNCATE,
and a database upgraded from version 1 with events already in it."""

from __future__ import annotations

import json

import psycopg
import pytest
from capture_support import failure, success

from team.conftest import LATEST, add_member
from team.test_team import Member


def every_event() -> str:
    """0002's ``dp_team_groups()``: the aggregate over every row, as each read computed it before the
    rollups (read from the migration itself)."""
    from dp.team import server

    [sql] = [sql for version, _, sql in server.migrations() if version == 2]
    body = sql[sql.index("CREATE OR REPLACE FUNCTION public.dp_team_groups()"):]
    return body[body.index("AS $$") + len("AS $$"):body.index("$$;")]


def same_as_every_event(cluster, database: str) -> list:
    rolled = sorted(cluster.sql("SELECT * FROM dp_team_groups()", database))
    assert rolled == sorted(cluster.sql(every_event(), database))
    assert cluster.sql("SELECT count(*) FROM dp_member_group_parts WHERE events <= 0", database) == [(0,)]
    assert cluster.sql("SELECT count(*) FROM dp_member_groups WHERE events <= 0", database) == [(0,)]
    return rolled


def test_the_rollups_say_what_every_event_says_through_moves_purges_and_truncate(tmp_path, cluster, migrated):
    ann, bob = Member(tmp_path, "ann", cluster, migrated), Member(tmp_path, "bob", cluster, migrated)
    for person in (ann, bob):
        person.dp("team", "connect", person.url, cwd=tmp_path)
        person.typo(tmp_path, f"{person.home.name}-1")
    ann.capture(failure("python3 -m pytest --cov-reprot term", error="Exit code 4\npytest: error: unrecognized "
                        "arguments: --cov-reprot", session="ann-2", tool_use_id="ann-2-1", cwd=str(tmp_path)))
    for person in (ann, bob):
        person.dp("team", "sync", cwd=tmp_path)
    before = same_as_every_event(cluster, migrated)
    assert any(row[0] == "failure" and row[8] == "[]" and row[2] == "python3 -m pytest" for row in before)

    # What worked next arrives: ann's failure moves from the group without it to the group with it.
    ann.capture(success("python3 -m pytest --cov-report term", session="ann-2", tool_use_id="ann-2-2",
                        cwd=str(tmp_path)))
    ann.dp("team", "sync", cwd=tmp_path)
    moved = same_as_every_event(cluster, migrated)
    assert not any(row[0] == "failure" and row[8] == "[]" and row[2] == "python3 -m pytest" for row in moved), "the old group is gone"

    # Forged sessions and machines count as sessions and machines of one person.
    with psycopg.connect(cluster.url("bob", migrated), password="bob-password", autocommit=True) as conn:
        forged = [{"machine": f"{n:032x}", "event_id": f"{n + 100:032x}", "repository": "", "session": f"{n:016x}",
                   "outcome": "failure", "tool_name": "Bash", "command": "gti", "subcommand": "", "flags": "[]",
                   "input_keys": "[]", "error_class": "command not found", "error_hint": "", "then_shapes": "[]",
                   "happened_at": "2026-11-02T10:00:00Z"} for n in range(1, 40)]
        conn.execute("SELECT * FROM dp_upload(%s)", (psycopg.types.json.Jsonb(forged),))
        for statement in ("SELECT * FROM dp_member_groups", "SELECT * FROM dp_member_group_parts",
                          "DELETE FROM dp_member_group_parts", "UPDATE dp_member_groups SET events = events + 1000"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
    [gti] = [row for row in same_as_every_event(cluster, migrated) if row[2] == "gti"]
    assert (gti[9], gti[10], len(gti[11]), len(gti[12])) == (39, 39, 1, 39)

    cluster.sql("DELETE FROM dp_events WHERE member = 'ann'", migrated)  # the owner's purge of ann's machine
    assert len(same_as_every_event(cluster, migrated)) < len(moved) + 1
    assert all(len(row[11]) == 1 for row in cluster.sql("SELECT * FROM dp_team_groups()", migrated))

    cluster.sql("TRUNCATE dp_events", migrated)
    assert same_as_every_event(cluster, migrated) == []
    assert cluster.sql("SELECT count(*) FROM dp_member_groups", migrated) == [(0,)]


def test_an_upgrade_rolls_up_the_events_already_there(tmp_path, cluster, team_db):
    """A database at version 3 with events in it, then ``dp team migrate``: the rollups hold them all."""
    from dp.team import server

    with psycopg.connect(cluster.admin_url(team_db), autocommit=True) as conn, conn.transaction():
        conn.execute("CREATE TABLE public.dp_schema_version (version integer PRIMARY KEY, name text NOT NULL, "
                     "applied_at timestamptz NOT NULL DEFAULT now())")
        for version, name, sql in server.migrations()[:3]:
            conn.execute(sql)
            conn.execute("INSERT INTO public.dp_schema_version (version, name) VALUES (%s, %s)", (version, name))
    add_member(cluster, team_db, "ann", "ann-password")
    events = [{"machine": "a" * 32, "event_id": f"{n:032x}", "repository": "b" * 16, "session": f"{n % 3:016x}",
               "outcome": "failure", "tool_name": "Bash", "command": "git", "subcommand": "comit", "flags": '["-m"]',
               "input_keys": "[]", "error_class": "unknown subcommand", "error_hint": "", "then_shapes": "[]",
               "happened_at": f"2026-11-{1 + n % 5:02d}T10:00:00Z"} for n in range(12)]
    with psycopg.connect(cluster.url("ann", team_db), password="ann-password", autocommit=True) as conn:
        assert conn.execute("SELECT * FROM dp_upload(%s)", (psycopg.types.json.Jsonb(events),)).fetchone() == (12, 0)

    owner = Member(tmp_path, "owner", cluster, team_db)
    owner.env["PGPASSWORD"] = "admin-secret"
    proc = owner.dp("team", "migrate", cluster.url("dp_admin", team_db), cwd=tmp_path)
    assert proc.stdout.endswith(f"team schema version 3 → {LATEST}.\n")
    [row] = same_as_every_event(cluster, team_db)
    assert (row[2], row[3], row[9], row[10]) == ("git", "comit", 12, 3)


def test_a_member_holding_an_upload_open_stalls_no_one_elses(tmp_path, cluster, migrated):
    """Every rollup row is one member's: bob's upload, left open in a transaction, holds locks on nothing
    ann's sync of the same path needs (finding 6 of issue 48 for the rollups)."""
    ann, bob = Member(tmp_path, "ann", cluster, migrated), Member(tmp_path, "bob", cluster, migrated)
    for person in (ann, bob):
        person.dp("team", "connect", person.url, cwd=tmp_path)
        person.typo(tmp_path, f"{person.home.name}-1")
    bob.dp("team", "sync", cwd=tmp_path)
    [planned] = json.loads(bob.dp("team", "sync", "--dry-run", "--json", cwd=tmp_path).stdout).values()
    with psycopg.connect(cluster.url("bob", migrated), password="bob-password") as held:  # not autocommit
        again = [{**cluster.sql("SELECT row_to_json(e)::jsonb - 'member' - 'uploaded_at' FROM dp_events e "
                                "WHERE member = 'bob' AND outcome = 'failure'", migrated)[0][0],
                  "event_id": "f" * 32, "happened_at": "2026-11-02T10:00:00Z"}]
        assert held.execute("SELECT * FROM dp_upload(%s)", (psycopg.types.json.Jsonb(again),)).fetchone() == (1, 0)
        synced = ann.dp("team", "sync", cwd=tmp_path)  # a lock bob held would end it "busy" in 5 s
        assert synced.stdout.startswith(f"{ann.url}: 2 events uploaded"), synced.stdout
        held.rollback()
    assert planned["events"] == []
    [row] = [row for row in same_as_every_event(cluster, migrated) if row[0] == "failure"]
    assert (row[9], len(row[11])) == (2, 2)
