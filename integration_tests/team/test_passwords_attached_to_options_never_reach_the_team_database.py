"""Issue 48, finding 1: passwords given as attached short options were uploaded as "flags".

``dp.shell.shape._flag`` kept any ``-X…`` word whole, so ``mysql -pHunter2``,
``redis-cli -aPW``, ``zip -Ppw`` and ``sqlcmd -Ppw`` went up as flags, and bob
read alice's MySQL password through ``dp_team_groups()``. Now an option leaves
the machine as its name alone (``-p``, ``-a``, ``-P``, ``--password``): the
secrets table knows these programs' password options, and a longer single-dash
word of a program it does not know goes up as its first letter only.

On a real PostgreSQL with two members set up as docs/team.md says, alice's
agent runs each planted password through the real ``dp-capture`` (a failure
whose message repeats it, the call that worked next, a success); she syncs;
then the database's owner reads every column of every row of every table, and
bob reads the team's view: no secret, and the options' names are there.
"""

from __future__ import annotations

import json

import psycopg
from capture_support import failure, success

from team.test_team import Member

SECRETS = {
    "mysql": "Hunter2MysqlSecret",
    "redis": "Hunter2RedisSecret",
    "zip": "Hunter2ZipSecret",
    "sqlcmd": "Hunter2SqlcmdSecret",
    "long": "Hunter2LongSecret",
    "unknown": "Hunter2UnknownSecret",
}
# (the command alice's agent ran, what the program said, the option names the team may see)
COMMANDS = [
    (f"mysql -uroot -p{SECRETS['mysql']} -h db prod", f"mysql: [ERROR] unknown option '-p{SECRETS['mysql']}'",
     ["-u", "-p", "-h"]),
    (f"redis-cli -h cache -a{SECRETS['redis']} ping", f"redis-cli: invalid option -a{SECRETS['redis']}", ["-h", "-a"]),
    (f"zip -P{SECRETS['zip']} backup.zip db.sql", f"zip error: Invalid command arguments (-P{SECRETS['zip']})", ["-P"]),
    (f"sqlcmd -S db -U sa -P{SECRETS['sqlcmd']} -Q 'SELECT 1'", f"Sqlcmd: '-P{SECRETS['sqlcmd']}': Unknown Option.",
     ["-S", "-U", "-P", "-Q"]),
    (f"mysql --user=root --password={SECRETS['long']} prod", f"mysql: unknown option '--password={SECRETS['long']}'",
     ["--user", "--password"]),
    (f"pgcli -p{SECRETS['unknown']} prod", f"pgcli: no such option: -p{SECRETS['unknown']}", ["-p"]),
]


def every_value(cluster, database: str) -> str:
    """Every column of every row of every table in the database, read as its owner."""
    tables = cluster.sql("SELECT table_schema, table_name FROM information_schema.tables "
                         "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'",
                         database)
    assert ("public", "dp_events") in tables
    values = []
    for schema, table in tables:
        for row in cluster.sql(f'SELECT * FROM "{schema}"."{table}"', database):
            values.extend(json.dumps(value, default=str) for value in row)
    return "\n".join(values)


def test_passwords_attached_to_options_never_reach_the_team_database(tmp_path, cluster, migrated):
    alice, bob = Member(tmp_path, "alice", cluster, migrated), Member(tmp_path, "bob", cluster, migrated)
    work = tmp_path / "work"
    work.mkdir()
    for index, (command, said, _) in enumerate(COMMANDS):
        session = f"alice-{index}"
        alice.capture(failure(command, error=f"Exit code 1\n{said}", session=session, tool_use_id=f"{session}-1",
                              cwd=str(work)))
        alice.capture(success(command, session=session, tool_use_id=f"{session}-2", cwd=str(work)))
    bob.typo(work, "bob-session")
    for person in (alice, bob):
        person.dp("team", "connect", person.url, cwd=person.home)
        person.dp("team", "sync", cwd=person.home)

    stored = every_value(cluster, migrated)
    assert cluster.sql("SELECT member, count(*) FROM dp_events GROUP BY member ORDER BY member", migrated) == [
        ("alice", 2 * len(COMMANDS)), ("bob", 2)]
    for secret in SECRETS.values():
        assert secret not in stored and secret[6:] not in stored, secret

    with psycopg.connect(bob.url, password="bob-password", autocommit=True) as conn:
        groups = conn.execute("SELECT command, flags, error_hint FROM dp_team_groups() WHERE outcome = 'failure'"
                              ).fetchall()
    seen = json.dumps(groups)
    assert not [secret for secret in SECRETS.values() if secret[6:] in seen]
    shapes = {(command, json.dumps(json.loads(flags) if isinstance(flags, str) else flags)) for command, flags, _ in groups}
    for command, _, names in COMMANDS:
        assert (command.split()[0], json.dumps(names)) in shapes  # each option's name, and only its name
    hints = {hint for _, _, hint in groups}
    assert "unknown option: -p" in hints  # what the message rejected, as the option's name
