"""A team's desire paths on a real PostgreSQL: people capture through the real hooks, sync, and share.

Every step goes through the installed ``dp``, ``dp-capture`` and
``pave-check`` as subprocesses, in HOMEs of their own, against a throwaway
cluster (``postgres.py``) with members as real login roles, their passwords
in ``PGPASSWORD`` as a team would have them.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import psycopg
import pytest
from capture_support import failure, run_capture, success
from test_project_layers import Person, _real_project

from team.conftest import LATEST, add_member

GIT_TYPO_ERROR = None  # git's own message for `git comit`, read from the real git once


def git_typo_error() -> str:
    """What the real git says to ``git comit`` (the hook captures exactly that)."""
    global GIT_TYPO_ERROR
    if GIT_TYPO_ERROR is None:
        proc = subprocess.run(["git", "comit", "-m", "x"], capture_output=True, text=True, cwd="/")
        GIT_TYPO_ERROR = f"Exit code {proc.returncode}\n{proc.stderr}"
    return GIT_TYPO_ERROR


class Member(Person):
    """A person on the team: a login role in the team database and its password in PGPASSWORD."""

    def __init__(self, root: Path, name: str, cluster, database: str):
        super().__init__(root, name)
        add_member(cluster, database, name, f"{name}-password")
        self.env["PGPASSWORD"] = f"{name}-password"
        self.url = cluster.url(name, database)

    def capture(self, payload: dict) -> None:
        proc = run_capture(payload, env=self.env)
        assert proc.returncode == 0 and proc.stdout == b"", proc.stderr

    def typo(self, cwd: Path, session: str) -> None:
        """An agent's ``git comit``, captured as the real hook sees it, then the command that worked."""
        self.capture(failure("git comit -m 'fix the build'", error=git_typo_error(), session=session,
                             tool_use_id=f"{session}-1", cwd=str(cwd)))
        self.capture(success("git commit -m 'fix the build'", session=session, tool_use_id=f"{session}-2",
                             cwd=str(cwd)))


def clone(person: Person, origin: Path, where: Path) -> Path:
    person.git("clone", "-q", str(origin), str(where), cwd=where.parent)
    return where


@pytest.fixture
def origin(tmp_path):
    """The team's repository (a real project with committed rules) behind a bare remote."""
    seed = Person(tmp_path, "seed")
    bare = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True, env=seed.env)
    work = tmp_path / "seed-work"
    _real_project(work)
    (work / ".dp").mkdir()
    (work / ".dp" / "rules.toml").write_text(
        '# Our corrections: review changes like code.\n[meta]\nversion = 1\n\n'
        '[[aliases]]\nfrom = "wisp"\nto = "ephemeral"\ntool = "Bash"\nparam = "command"\ncommand = "bd"\n'
        'match_kind = "flag"\n\n'
        "# Keep this last: a comment under the last rule.\n")
    seed.git("init", "-q", "-b", "main", cwd=work)
    seed.git("add", "-A", cwd=work)
    seed.git("commit", "-q", "-m", "project", cwd=work)
    seed.git("remote", "add", "origin", str(bare), cwd=work)
    seed.git("push", "-q", "origin", "main", cwd=work)
    return bare


def test_two_people_share_a_path_and_a_third_clone_gets_the_rule(tmp_path, cluster, migrated, origin):
    ann, bob = Member(tmp_path, "ann", cluster, migrated), Member(tmp_path, "bob", cluster, migrated)
    ann_work, bob_work = clone(ann, origin, tmp_path / "ann-work"), clone(bob, origin, tmp_path / "bob work")
    ann.typo(ann_work / "src", "ann-session")
    bob.typo(bob_work, "bob-session")
    for person in (ann, bob):
        person.dp("team", "connect", person.url, cwd=person.home)
        planned = person.dp("team", "sync", "--dry-run", cwd=person.home).stdout
        assert "2 events would be uploaded" in planned and "git comit -m" in planned
        assert "fix the build" not in planned  # arguments never leave the machine
        assert person.dp("team", "sync", cwd=person.home).stdout == f"{person.url}: 2 events uploaded; the team's aggregates downloaded.\n"

    found = json.loads(ann.dp("suggest", "--team", "--json", cwd=ann_work).stdout)
    assert [(item["alias"], item["count"], item["people"], item["machines"], item["repositories"]) for item in found] == [
        (["--recipe", "git comit", "git commit {{ args }}"], 2, 2, 2, 1)]
    shown = ann.dp("suggest", "--team", cwd=ann_work).stdout
    assert "2 events, 2 sessions, 2 people, 2 machines, 1 repository" in shown
    team_desires = json.loads(bob.dp("desires", "--team", "--json", cwd=bob_work).stdout)
    assert [(item["shape"], item["count"], item["people"], item["hint"]) for item in team_desires] == [
        ("git comit -m", 2, 2, "The most similar command is commit")]
    paths = ann.dp("paths", "--team", cwd=ann_work).stdout.splitlines()
    assert paths[0].split()[:4] == ["COUNT", "PEOPLE", "MACHINES", "REPOS"]
    assert paths[1].split()[:6] == ["2", "2", "2", "1", "Bash", "git"]

    # Ann writes the team's rule into the repository: one hunk, reviewed and pushed like code.
    ann.dp("suggest", "--team", "--apply", found[0]["id"], "--project", cwd=ann_work)
    diff = ann.git("diff", "--unified=0", cwd=ann_work)
    assert diff.count("\n@@ ") + diff.startswith("@@ ") == 1, diff
    assert '+from = "git comit"' in diff
    ann.git("commit", "-q", "-am", "dp: git comit → git commit (the team hit it twice)", cwd=ann_work)
    ann.git("push", "-q", "origin", "main", cwd=ann_work)

    # A third person clones: nothing acts until they trust the file, then the rule does.
    cy = Person(tmp_path, "cy")
    cy_work = clone(cy, origin, tmp_path / "cy-work")
    assert cy.bash("git comit -m 'ship it'", cy_work) is None
    cy.dp("trust", cwd=cy_work)
    assert cy.bash("git comit -m 'ship it'", cy_work / "src") == "git commit -m 'ship it'"


def test_a_member_cannot_read_or_change_another_members_rows(tmp_path, cluster, migrated):
    ann, bob = Member(tmp_path, "ann", cluster, migrated), Member(tmp_path, "bob", cluster, migrated)
    for person in (ann, bob):
        person.typo(tmp_path, f"{person.home.name}-s")
        person.dp("team", "connect", person.url, cwd=tmp_path)
        person.dp("team", "sync", cwd=tmp_path)
    assert cluster.sql("SELECT member, count(*) FROM dp_events GROUP BY member ORDER BY member", migrated) == [
        ("ann", 2), ("bob", 2)]
    with psycopg.connect(ann.url, password="ann-password", autocommit=True) as conn:
        assert {row[0] for row in conn.execute("SELECT member FROM dp_my_events()")} == {"ann"}
        for statement in ("SELECT member FROM dp_events", "UPDATE dp_events SET error_class = 'x' WHERE member = 'bob'",
                          "DELETE FROM dp_events WHERE member = 'bob'", "UPDATE dp_events SET member = 'bob'",
                          "INSERT INTO dp_events (member, machine, event_id, outcome, tool_name, happened_at) "
                          "VALUES ('bob', 'm', 'forged', 'failure', 'Bash', now())",
                          "ALTER TABLE dp_events DISABLE ROW LEVEL SECURITY", "SELECT key FROM dp_secret"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        # What every member reads instead: the aggregates, with no one's name in them.
        rows = conn.execute("SELECT events, people FROM dp_team_groups() WHERE outcome = 'failure'").fetchall()
        assert [(events, len(people)) for events, people in rows] == [(2, 2)]
        assert not {"ann", "bob"} & set(rows[0][1])
    assert cluster.sql("SELECT member, count(*) FROM dp_events GROUP BY member ORDER BY member", migrated) == [
        ("ann", 2), ("bob", 2)]


def test_connect_refuses_a_password_in_the_url_and_never_shows_one(tmp_path, cluster, migrated):
    ann = Member(tmp_path, "ann", cluster, migrated)
    with_password = ann.url.replace("ann@", "ann:ann-password@")
    proc = ann.dp("team", "connect", with_password, cwd=tmp_path, check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == ("dp: error: the URL carries a password; dp never stores one: remove it from the URL and "
                           "set PGPASSWORD or add it to ~/.pgpass\n")
    assert not (ann.home / ".dp" / "team.json").exists()
    bad = ann.dp("team", "connect", "mysql://ann@db/team", cwd=tmp_path, check=False)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "not a PostgreSQL URL" in bad.stderr
    ann.typo(tmp_path, "s")
    outputs = [ann.dp(*args, cwd=tmp_path) for args in (
        ("team", "connect", ann.url), ("team", "sync"), ("team", "status"), ("team", "status", "--json"))]
    outputs += [ann.dp("doctor", *json_option, cwd=tmp_path, check=False) for json_option in ((), ("--json",))]
    for proc in outputs:
        assert "ann-password" not in proc.stdout + proc.stderr
    for path in (ann.home / ".dp").rglob("*"):
        if path.is_file():
            assert b"ann-password" not in path.read_bytes(), path
    status = json.loads(outputs[3].stdout)
    assert status["databases"] == [{"url": ann.url, "connected": True, "last_sync": status["databases"][0]["last_sync"],
                                    "queued": 0, "offline": None, "offline_since": None, "skipped": 0, "left_out": 0,
                                    "refused": 0}]
    assert ann.dp("team", "disconnect", cwd=tmp_path).stdout.startswith(f"Disconnected from {ann.url}")
    assert "Not connected" in ann.dp("team", "status", cwd=tmp_path).stdout


def test_migrate_is_idempotent_and_safe_when_run_at_once(tmp_path, cluster, team_db):
    env = {**os.environ, "PGPASSWORD": "admin-secret", "HOME": str(tmp_path)}
    dp = str(Path(os.sys.executable).parent / "dp")
    url = cluster.url("dp_admin", team_db)
    runs = [subprocess.Popen([dp, "team", "migrate", url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env) for _ in range(4)]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0, 0], outputs
    said = sorted(out for out, _ in outputs)
    assert said == [f"{url}: team schema version 0 → {LATEST}.\n"] + [
        f"{url}: the team schema is current (version {LATEST}).\n"] * 3
    assert cluster.sql("SELECT version FROM dp_schema_version ORDER BY version", team_db) == [
        (version,) for version in range(1, LATEST + 1)]


def test_a_repository_suggests_its_team_database_and_the_person_takes_it_with_dp_team_connect(
        tmp_path, cluster, migrated, origin):
    """``[team] url`` in the committed .dp/rules.toml: a suggestion. Events captured in that repository go
    there once the person trusts the file as it is *and* runs ``dp team connect`` there; events elsewhere do
    not (this person connected no database of their own)."""
    seed = Person(tmp_path, "lead")
    lead_work = clone(seed, origin, tmp_path / "lead-work")
    rules = lead_work / ".dp" / "rules.toml"
    rules.write_text(rules.read_text() + f'\n[team]\nurl = "{cluster.url("", migrated).replace("//@", "//")}"\n')
    seed.git("commit", "-q", "-am", "our team's desires go to the team database", cwd=lead_work)
    seed.git("push", "-q", "origin", "main", cwd=lead_work)

    dee = Member(tmp_path, "dee", cluster, migrated)
    dee.env["PGUSER"] = "dee"  # the URL names no user: libpq's own default, as for psql
    work = clone(dee, origin, tmp_path / "dee-work")
    elsewhere = tmp_path / "scratch"
    elsewhere.mkdir()
    dee.typo(work, "in-the-repo")
    dee.typo(elsewhere, "not-in-the-repo")
    untrusted = dee.dp("team", "sync", cwd=work, check=False)
    assert untrusted.returncode == 1 and untrusted.stderr.startswith("dp: error: no team database")
    assert server_rows(cluster, migrated) == 0
    dee.dp("trust", cwd=work)
    suggested = dee.dp("team", "sync", cwd=work, check=False)  # trusting the file chose no destination
    assert suggested.returncode == 1 and suggested.stderr.count("\n") == 1
    assert "this repository suggests the team database" in suggested.stderr and "dp team connect" in suggested.stderr
    assert server_rows(cluster, migrated) == 0
    taken = dee.dp("team", "connect", cwd=work)
    assert "suggests" in taken.stderr and taken.stdout.startswith("Connected this store to postgresql://")
    synced = dee.dp("team", "sync", cwd=work)
    assert synced.stdout.endswith(": 2 events uploaded; the team's aggregates downloaded.\n")
    assert server_rows(cluster, migrated) == 2
    assert "named by this repository" in dee.dp("team", "status", cwd=work).stdout


def server_rows(cluster, database: str) -> int:
    return cluster.sql("SELECT count(*) FROM dp_events", database)[0][0]


def test_the_team_bench_runs_at_smoke_size(cluster, team_db):
    """bench/run_team_bench.py end to end on a tiny team (the real figures are in docs/team.md)."""
    bench = Path(__file__).resolve().parents[2] / "bench" / "run_team_bench.py"
    proc = subprocess.run([os.sys.executable, str(bench), "--members", "3", "--events", "40", "--runs", "1",
                           "--synced", "2", "--admin-url", cluster.admin_url(team_db)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "team table: 120 rows, 120 distinct events, 120 captured: ok" in proc.stdout
    assert "| 40 " in proc.stdout and "| 120 " in proc.stdout
    assert "the first seen by 3 people" in proc.stdout  # the third member, a copy of the first, is a person


def test_what_worked_next_reaches_the_team_when_the_session_goes_on_after_a_sync(tmp_path, cluster, migrated):
    """A failure synced before the agent found the fix is sent again with the fix (an upsert, still one row)."""
    ann = Member(tmp_path, "ann", cluster, migrated)
    ann.dp("team", "connect", ann.url, cwd=tmp_path)
    ann.capture(failure("python3 -m pytest --cov-reprot term", error="Exit code 4\nERROR: usage: pytest "
                        "[options]\npytest: error: unrecognized arguments: --cov-reprot", session="s",
                        tool_use_id="1", cwd=str(tmp_path)))
    ann.capture(success("ls -la", session="s", tool_use_id="2", cwd=str(tmp_path)))
    ann.dp("team", "sync", cwd=tmp_path)
    then = "SELECT then_shapes FROM dp_events WHERE outcome = 'failure'"
    assert cluster.sql(then, migrated) == [("[]",)]
    ann.capture(success("python3 -m pytest --cov-report term", session="s", tool_use_id="3", cwd=str(tmp_path)))
    ann.dp("team", "sync", cwd=tmp_path)
    assert [json.loads(row[0]) for row in cluster.sql(then, migrated)] == [
        [["python3 -m pytest", "", ["--cov-report"]]]]  # a runner stays with the program it runs
    assert cluster.sql("SELECT count(*) FROM dp_events", migrated) == [(3,)]
