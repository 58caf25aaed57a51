"""What dp did, for a team (issue 51): each member's actions and what happened next go up with ``dp team sync``
as shapes only, and ``dp stats --team`` shows the team's figures, counted as a person's ``dp stats`` counts
them; the database holds them against its members as it holds the events (issue 48).

Every call goes through the real pave-check and dp-capture (``outcomes_support.Session``: the command the
hook answered with runs in bash in a real project), each member syncs with the installed ``dp``, and a
second member reads the team's figures, on a throwaway PostgreSQL with members as real login roles.
"""

from __future__ import annotations

import json
import shutil

import psycopg
import pytest
from outcomes_support import Session, project

from team.test_team import Member

HELPS, HURTS = ("--cmd", "grep", "--replace", "rg"), ("--cmd", "cat", "--replace", "false")
# Words of the commands the agents ran that no shape holds: none may leave a machine.
ARGUMENTS = ("TODO", "README", "main.py", "src", "no-such-dir", "-rn")


@pytest.fixture(autouse=True)
def _rg():
    if not shutil.which("rg"):
        pytest.skip("grep → rg helps only on a machine with rg")


def working(member: Member, tmp_path, session: str) -> None:
    """The rules, then one agent session: grep → rg helps; cat → false fails, is undone, fails again."""
    for rule in (HELPS, HURTS):
        member.dp("alias", *rule, cwd=member.home)
    repo = project(tmp_path / member.home.name)
    calls = Session(member.env, repo, session)
    assert calls.call("grep -rn TODO src") == ("rg -n --hidden --no-ignore TODO src", 0)
    assert calls.call("cat README.md") == ("false README.md", 1)
    assert calls.call("/bin/cat README.md") == ("/bin/cat README.md", 0)
    assert calls.call("cat src/main.py")[1] == 1


def stats(member: Member, *args) -> dict:
    return json.loads(member.dp("stats", "--json", *args, cwd=member.home).stdout)


def counts(rule: dict) -> dict:
    return {key: rule[key] for key in ("actions", "succeeded", "failed", "unknown", "undone", "prevented", "hurts")}


def test_the_team_stats_count_each_members_actions_as_their_own_dp_stats_does(tmp_path, cluster, migrated):
    ann, bob = Member(tmp_path, "ann", cluster, migrated), Member(tmp_path, "bob", cluster, migrated)
    working(ann, tmp_path, "ann-1")
    bob.dp("alias", *HELPS, cwd=bob.home)
    assert Session(bob.env, project(tmp_path / "bob-work"), "bob-1").call("grep -rn TODO src")[1] == 0
    mine = {rule["rule"]: counts(rule) for rule in stats(ann)["rules"]}
    assert mine == {
        "grep → rg": {"actions": 1, "succeeded": 1, "failed": 0, "unknown": 0, "undone": 0, "prevented": 0,
                      "hurts": False},
        "cat → false": {"actions": 2, "succeeded": 0, "failed": 2, "unknown": 0, "undone": 1, "prevented": 0,
                        "hurts": True}}

    for member in (ann, bob):
        member.dp("team", "connect", member.url, cwd=member.home)
        synced = member.dp("team", "sync", cwd=member.home).stdout
        assert f"and {3 if member is ann else 1} of dp's actions;" in synced, synced

    team = stats(bob, "--team")
    assert {rule["rule"]: {**counts(rule), "people": rule["people"]} for rule in team["rules"]} == {
        "grep → rg": {**mine["grep → rg"], "actions": 2, "succeeded": 2, "people": 2},
        "cat → false": {**mine["cat → false"], "people": 1}}
    assert (team["rewritten"], team["blocked"], team["answered"], team["people"], team["calls_seen"]) == \
        (4, 0, 0, 2, None)
    assert [(agent["agent"], agent["actions"], agent["people"]) for agent in team["agents"]] == [("claude", 4, 2)]
    assert set(team) >= set(stats(bob)), "the team's figures have every key of a person's"
    assert stats(bob, "--team", "--agent", "gemini")["rewritten"] == 0
    assert stats(bob, "--team", "--since", "2999-01-01")["rules"] == []
    report = json.loads(bob.dp("report", "--team", "--json", cwd=bob.home).stdout)
    assert (report["figures"]["rewritten"], report["figures"]["prevented"]) == (4, 0), "the page counts the team"
    text = bob.dp("stats", "--team", cwd=bob.home).stdout
    assert "cat → false [rewrite, user]: 2: 0 / 2 / 0, undone 1  ⚠ hurts" in text and "people" in text


def test_only_shapes_of_the_actions_leave_the_machine_and_the_dry_run_says_so(tmp_path, cluster, migrated):
    ann = Member(tmp_path, "ann", cluster, migrated)
    working(ann, tmp_path, "ann-1")
    ann.dp("team", "connect", ann.url, cwd=ann.home)

    plan = ann.dp("team", "sync", "--dry-run", cwd=ann.home).stdout
    assert "3 of dp's actions and what happened next, as these shapes" in plan, plan
    assert "never a rule's text or a command's arguments" in plan
    [planned] = json.loads(ann.dp("team", "sync", "--dry-run", "--json", cwd=ann.home).stdout).values()
    assert sorted((row["kind"], row["from_command"], row["to_command"], row["outcome"], row["undone"])
                  for row in planned["actions"]) == [
        ("rewrite", "cat", "false", "failure", False), ("rewrite", "cat", "false", "failure", True),
        ("rewrite", "grep", "rg", "success", False)]  # the agent's /bin/cat ran as typed: no action
    ann.dp("team", "sync", cwd=ann.home)

    rows = cluster.sql("SELECT * FROM dp_actions", migrated)  # every column of every row, as the owner
    assert len(rows) == len(planned["actions"])
    uploaded = json.dumps([[str(value) for value in row] for row in rows])
    for word in ARGUMENTS:
        assert word not in uploaded, word
    assert ann.dp("team", "sync", cwd=ann.home).stdout.startswith(f"{ann.url}: 0 events uploaded;"), \
        "a second sync sends the recent actions again, and the database changes nothing"
    assert cluster.sql("SELECT count(*) FROM dp_actions", migrated) == [(len(rows),)]


def action(**changes) -> dict:
    """An action row as dp uploads it, changed where given."""
    return {"machine": "a" * 32, "action_id": "b" * 32, "repository": "", "session": "c" * 16, "agent": "claude",
            "kind": "rewrite", "rule_source": "user", "from_command": "grep", "to_command": "rg",
            "outcome": "success", "undone": False, "prevented": False, "failed_where_original_worked": False,
            "followed": False, "followed_and_worked": False, "repeated": False, "needless": False,
            "happened_at": "2026-11-01T10:00:00Z", **changes}


def test_a_member_cannot_read_forge_or_break_the_teams_outcomes(tmp_path, cluster, migrated):
    ann, bob = Member(tmp_path, "ann", cluster, migrated), Member(tmp_path, "bob", cluster, migrated)
    working(ann, tmp_path, "ann-1")
    ann.dp("team", "connect", ann.url, cwd=ann.home)
    ann.dp("team", "sync", cwd=ann.home)
    bad = [action(action_id="d" * 32, from_command="rm -rf /home/ann/secret"),
           action(action_id="e" * 32, happened_at="infinity"), action(action_id="f" * 32, kind="exfiltrate"),
           action(action_id="1" * 32, agent="x\x1b]8;;http://evil\x07"), action(action_id="2" * 32, undone=None)]
    with psycopg.connect(cluster.url("bob", migrated), password="bob-password", autocommit=True) as conn:
        for statement in ("SELECT * FROM dp_actions", "SELECT * FROM dp_outcome_days",
                          "DELETE FROM dp_outcome_days", "UPDATE dp_actions SET outcome = 'failure'",
                          "LOCK TABLE dp_outcome_days IN ACCESS EXCLUSIVE MODE"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
                conn.execute(statement)
        changed, refused = conn.execute("SELECT * FROM dp_upload_actions(%s)",
                                        (psycopg.types.json.Jsonb([*bad, action()]),)).fetchone()
        assert (changed, refused) == (1, len(bad))
        conn.execute("SET ROLE dp_member")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM dp_upload_actions(%s)", (psycopg.types.json.Jsonb([action(action_id="3" * 32)]),))
        conn.execute("RESET ROLE")
        figures = conn.execute("SELECT * FROM dp_team_outcomes(NULL)").fetchall()
    assert all(len(row) == 18 for row in figures), "counts per rule and agent, no member, machine or session"
    assert cluster.sql("SELECT member, count(*) FROM dp_actions GROUP BY 1 ORDER BY 1", migrated) == [
        ("ann", 3), ("bob", 1)]
    bob.dp("team", "connect", bob.url, cwd=bob.home)
    team = stats(bob, "--team", "--since", "2026-01-01")
    assert {rule["rule"]: (rule["actions"], rule["people"]) for rule in team["rules"]} == {
        "grep → rg": (2, 2), "cat → false": (2, 1)}, "bob's forged action counts once, as his"

    cluster.sql("DELETE FROM dp_actions WHERE member = 'ann'", migrated)  # the owner's purge of ann's machine
    assert {rule["rule"]: rule["actions"] for rule in stats(bob, "--team", "--since", "2026-01-01")["rules"]} == {
        "grep → rg": 1}
    assert cluster.sql("SELECT count(*) FROM dp_outcome_days", migrated) == [(1,)], "no rollup row left at zero"
    cluster.sql("TRUNCATE dp_actions", migrated)
    assert cluster.sql("SELECT count(*) FROM dp_outcome_days", migrated) == [(0,)]
