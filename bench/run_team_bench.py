"""Team benchmark: MEMBERS stores of EVENTS captured events each, synced to a real PostgreSQL, then the team views.

Each member is a store of its own (built with dp's own capture rows: failures
of a few dozen shapes, and the successes after them, over sessions in three
repositories) and a login role in the team database; each runs the installed
``dp team connect`` and ``dp team sync`` as a process. After the team has
1,000, EVENTS, 10 × EVENTS and MEMBERS × EVENTS events (the first member syncs
its first 1,000 alone first), ``dp paths --team --json`` and ``dp suggest
--team --json`` are timed as whole processes over the whole table, against
the floor ``dp --version`` measured in the same run, and so is the server's
part alone (every row of ``dp_team_groups()``, read from the rollups of
migrations/postgres/0004_*): how their cost grows with the number of events. Also reported: seconds per member sync, and that
the table holds every event exactly once.

Without ``--admin-url`` it starts a throwaway cluster of Debian's PostgreSQL
(``/usr/lib/postgresql/*/bin``) in a temporary directory, as the tests do.

    python bench/run_team_bench.py                       # 100 members × 10,000 events
    python bench/run_team_bench.py --members 3 --events 300   # a smoke run
    python bench/run_team_bench.py --synced 5                 # 5 members sync, 95 are copies of them
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "integration_tests" / "team"))

from markdown import markdown_table  # noqa: E402
from postgres import remove, start_cluster  # noqa: E402

from dp.capture.events import failure_row, success_rows  # noqa: E402
from dp.store import Store  # noqa: E402
from dp.store.desires import add  # noqa: E402

DP = str(Path(sys.executable).parent / "dp")
FIRST_SYNC = 1_000
FAILURES = [
    ("git comit -m 'change {n}'", "Exit code 1\ngit: 'comit' is not a git command. See 'git --help'.\n\n"
                                 "The most similar command is\n\tcommit", "git commit -m x"),
    ("python {n}.py", "Exit code 127\n/bin/bash: line 1: python: command not found", "python3 x.py"),
    ("grep -rP 'x{n}' src", "Exit code 2\ngrep: invalid option -- 'P'", "grep -rE x src"),
    ("npm run test{n} --watch", "Exit code 1\nnpm error Missing script", "npm test"),
    ("ls /missing/{n}", "Exit code 2\nls: cannot access '/missing': No such file or directory", "ls"),
    ("pytest --cov-reprot {n}", "Exit code 4\npytest: error: unrecognized arguments: --cov-reprot", "pytest --cov"),
]
REPOSITORIES = ("/srv/api", "/srv/web", "/srv/tools")


def member_rows(member: int, start: int, count: int) -> list[dict]:
    """Captured events ``start``..``start+count`` of one member: a failure, then (mostly) what worked."""
    pick, rows = random.Random(member * 1_000_003 + start), []
    for n in range(start, start + count):
        session = f"m{member}-s{n // 20}"
        when = f"2026-11-{1 + n % 28:02d}T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}.{n:06d}Z"
        cwd = REPOSITORIES[(member + n // 200) % len(REPOSITORIES)]
        if n % 2:
            rows += success_rows("hook", "Bash", {"command": pick.choice(FAILURES)[2]}, session, cwd, when, f"k{n}")
        elif n % 10 == 0:
            rows.append(failure_row("hook", pick.choice(["read_file", "list_dir"]), {"path": f"f{n}"},
                                    "No such tool available: read_file", session, cwd, when, f"k{n}"))
        else:
            command, error, _ = pick.choice(FAILURES)
            rows.append(failure_row("hook", "Bash", {"command": command.format(n=n)}, error, session, cwd, when, f"k{n}"))
    return rows


def seed(store: Path, member: int, start: int, count: int) -> None:
    with Store.open(store) as opened:
        add(opened.conn, member_rows(member, start, count))


def timed(argv: list[str], env: dict) -> tuple[float, subprocess.CompletedProcess]:
    started = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=3600)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{proc.stdout}{proc.stderr}")
    return elapsed, proc


def admin(url: str, statement: str, params=()):
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(statement, params)
        return cursor.fetchall() if cursor.description else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=100)
    parser.add_argument("--events", type=int, default=10_000, help="events per member")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each view per checkpoint (median)")
    parser.add_argument("--admin-url", help="an empty database to use, as its owner (default: a throwaway cluster)")
    parser.add_argument("--synced", type=int, metavar="N",
                        help="only the first N members sync with dp team sync; each other member's events are a "
                             "copy of one of theirs, written by the owner with its own member, machine, session "
                             "and event ids (fills the table fast; default: every member syncs)")
    args = parser.parse_args()
    cluster = None
    if args.admin_url is None:
        cluster = start_cluster(lambda reason: sys.exit(f"run_team_bench: {reason}"))
        admin(cluster.admin_url(), "CREATE DATABASE team_bench")
        args.admin_url = cluster.admin_url("team_bench")
    try:
        return run(args)
    finally:
        if cluster is not None:
            remove(cluster)


def run(args) -> int:
    from urllib.parse import urlsplit

    parts = urlsplit(args.admin_url)
    owner_env = {**os.environ, "PGPASSWORD": parts.password or ""}
    bare_admin = args.admin_url.replace(f":{parts.password}@", "@") if parts.password else args.admin_url
    timed([DP, "team", "migrate", bare_admin], owner_env)
    database = parts.path.lstrip("/")
    everything = args.members * args.events
    checkpoints = {size for size in (FIRST_SYNC, args.events, 10 * args.events, everything) if size <= everything}
    growth, syncs = [], []
    with tempfile.TemporaryDirectory() as scratch:
        floor_env = {**os.environ, "HOME": scratch}
        synced, last_env = 0, None
        for member in range(args.members):
            role = f"bench_member_{member:03d}"
            if args.synced is not None and member >= args.synced:
                copy_member(args.admin_url, f"bench_member_{member % args.synced:03d}", role)
                synced += args.events
                if synced in checkpoints:
                    growth.append(measure(synced, last_env, floor_env, args.runs, args.admin_url))
                    print(f"… {synced:,} events: paths {growth[-1][2]:.2f} s, suggest {growth[-1][3]:.2f} s",
                          file=sys.stderr)
                continue
            if not admin(args.admin_url, "SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)):
                admin(args.admin_url, f"CREATE ROLE {role} LOGIN PASSWORD 'pw-{member}'")
            admin(args.admin_url, f"GRANT dp_member TO {role}")
            home = Path(scratch) / role
            (home / ".dp").mkdir(parents=True)
            env = {**os.environ, "HOME": str(home), "DP_DB": str(home / ".dp" / "dp.db"), "PGPASSWORD": f"pw-{member}"}
            member_url = f"{parts.scheme}://{role}@{parts.hostname}:{parts.port or 5432}/{database}"
            timed([DP, "team", "connect", member_url], env)
            store = home / ".dp" / "dp.db"
            batches = [(0, FIRST_SYNC), (FIRST_SYNC, args.events - FIRST_SYNC)] if member == 0 and args.events > FIRST_SYNC \
                else [(0, args.events)]
            for start, count in batches:
                seed(store, member, start, count)
                seconds, _ = timed([DP, "team", "sync"], env)
                syncs.append((count, seconds))
                synced += count
                last_env = env
                if synced in checkpoints:
                    growth.append(measure(synced, env, floor_env, args.runs, args.admin_url))
                    print(f"… {synced:,} events: paths {growth[-1][2]:.2f} s, suggest {growth[-1][3]:.2f} s",
                          file=sys.stderr)
        total, distinct = admin(args.admin_url, "SELECT count(*), count(DISTINCT (member, machine, event_id)) "
                                                "FROM dp_events")[0]
        shown = json.loads(timed([DP, "suggest", "--team", "--json"], last_env)[1].stdout)
    copies = "" if args.synced is None else f" ({args.synced} synced by dp team sync, the others copies of them)"
    print(f"dp team benchmark: {args.members} members × {args.events:,} events{copies}, {sys.version.split()[0]}, "
          f"median of {args.runs} runs per view, floor = `dp --version`\n")
    print(markdown_table(["events in the team table", "floor s", "dp paths --team s", "dp suggest --team s",
                          "paths × floor", "suggest × floor", "dp_team_groups() ms"],
                         [[f"{size:,}", f"{floor:.2f}", f"{paths:.2f}", f"{suggest:.2f}", f"{paths / floor:.1f}×",
                           f"{suggest / floor:.1f}×", f"{server * 1000:.1f}"]
                          for size, floor, paths, suggest, server in growth]))
    per_member = [seconds for count, seconds in syncs if count == args.events]
    print()
    expected = everything
    print(f"dp team sync of one member's {args.events:,} events (whole process, median): "
          f"{statistics.median(per_member or [s for _, s in syncs]):.2f} s")
    print(f"team table: {total:,} rows, {distinct:,} distinct events, {expected:,} captured: "
          f"{'ok' if total == distinct == expected else 'MISSED'}")
    print(f"dp suggest --team: {len(shown)} suggestions, the first seen by "
          f"{shown[0]['people'] if shown else 0} people")
    return 0 if total == distinct == expected else 1


def copy_member(url: str, source: str, role: str) -> None:
    """``source``'s uploaded events again as ``role``'s, with ids of its own (hashed with the role), in one
    statement: the rollups' triggers see them as one upload."""
    admin(url, """INSERT INTO dp_events (member, machine, event_id, repository, session, outcome, tool_name, command,
                  subcommand, flags, input_keys, error_class, error_hint, then_shapes, happened_at, uploaded_at)
                  SELECT %(role)s, md5(%(role)s || machine), md5(%(role)s || event_id), repository,
                         CASE WHEN session = '' THEN '' ELSE md5(%(role)s || session) END, outcome, tool_name,
                         command, subcommand, flags, input_keys, error_class, error_hint, then_shapes, happened_at,
                         uploaded_at
                  FROM dp_events WHERE member = %(source)s""", {"role": role, "source": source})


def measure(size: int, env: dict, floor_env: dict, runs: int, admin_url: str) -> tuple:
    floor = statistics.median(timed([DP, "--version"], floor_env)[0] for _ in range(runs))
    paths = statistics.median(timed([DP, "paths", "--team", "--json"], env)[0] for _ in range(runs))
    suggest = statistics.median(timed([DP, "suggest", "--team", "--json"], env)[0] for _ in range(runs))
    return size, floor, paths, suggest, server_seconds(admin_url, runs)


def server_seconds(url: str, runs: int) -> float:
    """The server's part of a view: reading every row of ``dp_team_groups()`` (the rollups), median."""
    import psycopg

    seconds = []
    with psycopg.connect(url, autocommit=True) as conn:
        for _ in range(runs):
            started = time.perf_counter()
            conn.execute("SELECT * FROM dp_team_groups()").fetchall()
            seconds.append(time.perf_counter() - started)
    return statistics.median(seconds)


if __name__ == "__main__":
    sys.exit(main())
