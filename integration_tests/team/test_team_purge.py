"""``dp uninstall --purge`` and a team database: what the purge cannot take back is said, with the way to.

The purge deletes the store and ``~/.dp``; the events ``dp team sync`` already uploaded stay in the
team's PostgreSQL. The purge says so, naming the database and the one statement that deletes this
machine's rows, which only the database's owner may run (members hold no privilege on the table), and
that statement, run by the owner as printed, deletes them and nobody else's (issue 49).
"""

from __future__ import annotations

from team.test_team import Member


def test_purge_names_what_stays_in_the_team_database_and_how_to_delete_it(tmp_path, cluster, migrated):
    ann, bob = Member(tmp_path, "ann", cluster, migrated), Member(tmp_path, "bob", cluster, migrated)
    for person in (ann, bob):
        person.typo(tmp_path, f"{person.home.name}-s")
        person.dp("team", "connect", person.url, cwd=tmp_path)
        person.dp("team", "sync", cwd=tmp_path)

    proc = ann.dp("uninstall", "--purge", "--yes", cwd=tmp_path)
    [stays] = [line for line in proc.stdout.splitlines() if line.startswith("Stays: ")]
    prefix = f"Stays: what this machine uploaded to the team database {ann.url}; only its owner can delete it: "
    assert stays.startswith(prefix), proc.stdout
    assert not (ann.home / ".dp").exists()

    cluster.sql(stays[len(prefix):], migrated)  # the owner runs it
    assert cluster.sql("SELECT member, count(*) FROM dp_events GROUP BY member ORDER BY member", migrated) == [
        ("bob", 2)]
