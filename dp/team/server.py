"""The one module that talks to PostgreSQL: connecting, the schema, and every SQL statement on it.

psycopg (3) is an optional dependency (``desire-paths[team]``) imported here
only, when a team command runs. Connections are bounded: a connect timeout,
a statement timeout so that a server that stops answering ends a sync with
an error instead of a hang, and a lock timeout so that a lock someone holds
on the table ends a command in seconds, saying so (members cannot take one:
they hold no privilege on the table). The password never passes through dp:
libpq reads ``PGPASSWORD`` or ``~/.pgpass`` itself, and no URL that chooses
another host or other credentials than it names is ever connected to
(``dp.team.config.check_url``, checked again here).

A member writes only through ``dp_upload()`` and reads only through
``dp_team_groups()`` (SECURITY DEFINER functions, ``migrations/postgres/``);
what comes back is checked and bounded by ``dp.team.download``.

Migrations are ``migrations/postgres/NNNN_*.sql`` (numbered like the SQLite
store's, ``dp.store.migrations``), recorded in ``dp_schema_version`` and
applied in one transaction under an advisory lock, so members running ``dp
team migrate`` at once apply each file once and the others wait, then find
nothing to do.
"""

from __future__ import annotations

import contextlib

from dp.errors import DpError
from dp.team import download
from dp.team.shapes import EVENT_FIELDS as EVENT_COLUMNS

CONNECT_TIMEOUT_SECONDS = 5
STATEMENT_TIMEOUT_MS = 60_000
# Also set by the schema's functions themselves (migrations/postgres/0002_*), for any client.
LOCK_TIMEOUT_MS = 5_000
# How long `dp team migrate` waits for another member's migration to finish.
MIGRATION_WAIT_MS = 30_000
# pg_advisory_xact_lock key: "dp" team migrations.
MIGRATION_LOCK = 0x6470_7465_616D


class Unreachable(DpError):
    """The team database could not be reached, stopped answering or refused (the events stay
    queued; the views show the last download)."""


def _psycopg():
    try:
        import psycopg
    except ImportError:
        from dp.installed import add_command, extra_requirement

        raise DpError(f"dp team needs the PostgreSQL driver: {add_command(extra_requirement('team'))}") from None
    return psycopg


@contextlib.contextmanager
def connect(url: str):
    """A connection to the team database at ``url`` (closed on exit); Unreachable with libpq's reason."""
    from dp.team.config import check_url

    psycopg = _psycopg()
    check_url(url)
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS, application_name="dp",
                               options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c lock_timeout={LOCK_TIMEOUT_MS}")
    except psycopg.Error as exc:
        raise Unreachable(f"cannot reach the team database {url}: {_reason(exc)}") from None
    try:
        yield conn
    except psycopg.errors.LockNotAvailable:
        raise Unreachable(f"the team database {url} is busy: a lock someone holds on it was not free within "
                          f"{LOCK_TIMEOUT_MS // 1000} s; try again later") from None
    except psycopg.errors.QueryCanceled:
        raise Unreachable(f"the team database {url} did not answer within {STATEMENT_TIMEOUT_MS // 1000} s") from None
    except psycopg.OperationalError as exc:
        raise Unreachable(f"the team database {url} stopped answering: {_reason(exc)}") from None
    except psycopg.Error as exc:
        raise Unreachable(f"the team database {url} refused: {_reason(exc)}") from None
    finally:
        with contextlib.suppress(Exception):
            conn.close()


def _reason(exc) -> str:
    from dp.terminal import printable

    text = " ".join(printable(str(exc)).split())
    return text[:300] or type(exc).__name__


# -- schema -------------------------------------------------------------------


def migrations() -> list[tuple[int, str, str]]:
    from dp.store.migrations import load_migrations, migrations_dir

    return load_migrations(migrations_dir() / "postgres")


def schema_version(conn) -> int:
    """The applied version (0: ``dp team migrate`` never ran on this database)."""
    found = conn.execute("SELECT to_regclass('public.dp_schema_version') IS NOT NULL").fetchone()[0]
    if not found:
        return 0
    version = conn.execute("SELECT coalesce(max(version), 0) FROM public.dp_schema_version").fetchone()[0]
    return version


def migrate(conn) -> tuple[int, int]:
    """Bring the team schema to the latest version: ``(version before, version after)``."""
    wanted = migrations()
    with conn.transaction():
        conn.execute(f"SET LOCAL lock_timeout = {MIGRATION_WAIT_MS}")
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(f"SET LOCAL lock_timeout = {LOCK_TIMEOUT_MS}")
        conn.execute("CREATE TABLE IF NOT EXISTS public.dp_schema_version ("
                     "version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
        before = conn.execute("SELECT coalesce(max(version), 0) FROM public.dp_schema_version").fetchone()[0]
        for version, name, sql in wanted:
            if version > before:
                conn.execute(sql)
                conn.execute("INSERT INTO public.dp_schema_version (version, name) VALUES (%s, %s)", (version, name))
    return before, max(before, len(wanted))


def require_schema(conn) -> None:
    latest = len(migrations())
    found = schema_version(conn)
    if found < latest:
        raise DpError(f"the team database has schema version {found}, dp needs {latest}: "
                      "run dp team migrate (as a role that owns the database)")


# -- events -------------------------------------------------------------------


def upload(conn, rows: list[tuple]) -> tuple[int, int]:
    """Upsert ``rows`` (tuples in ``EVENT_COLUMNS`` order) as the connected member's, in one call of
    ``dp_upload()`` (one transaction): a row already there is left as it is except for what worked
    next in its session. Returns ``(new or changed, refused)``: the database refuses a row that is
    not a shape it can trust (``dp_event_is_sane``), and only that row."""
    from psycopg.types.json import Jsonb

    events = [dict(zip(EVENT_COLUMNS, row)) for row in rows]
    changed, refused = conn.execute("SELECT changed, refused FROM public.dp_upload(%s)", (Jsonb(events),)).fetchone()
    return changed, refused


def upload_actions(conn, rows: list[tuple]) -> tuple[int, int]:
    """Upsert action rows (``dp.team.outcomes.ACTION_COLUMNS`` order) as the connected member's through
    ``dp_upload_actions()``: ``(new or changed, refused)``, as ``upload``."""
    from psycopg.types.json import Jsonb

    from dp.team.outcomes import ACTION_COLUMNS

    actions = [dict(zip(ACTION_COLUMNS, row)) for row in rows]
    changed, refused = conn.execute("SELECT changed, refused FROM public.dp_upload_actions(%s)",
                                    (Jsonb(actions),)).fetchone()
    return changed, refused


def outcomes(conn, since: str) -> tuple[list[dict], int]:
    """``(rows, skipped)``: the team's figures from the day of ``since`` on (``dp_team_outcomes()``), each
    row checked (``dp.team.outcomes.accept``: a bad one skipped and counted), at most ``MAX_ROWS``."""
    from dp.team.outcomes import MAX_ROWS, OUTCOME_COLUMNS, accept

    clipped = [f"left({name}, {download.WORD + 1})" if index in range(1, 6) else name
               for index, name in enumerate(OUTCOME_COLUMNS)]
    cursor = conn.execute(f"SELECT {', '.join(clipped)} FROM public.dp_team_outcomes(%s::timestamptz) "
                          f"ORDER BY actions DESC LIMIT {MAX_ROWS}", (since or None,))
    rows = [accept(dict(zip(OUTCOME_COLUMNS, row))) for row in cursor]
    return [row for row in rows if row is not None], sum(row is None for row in rows)


def groups(conn) -> download.Download:
    """The team's aggregates (``dp_team_groups()``), the most-shared first, each row checked and the
    whole bounded (``dp.team.download``): read through a cursor on the server, a batch at a time,
    each text clipped just past its bound there, so an oversized row costs its bound, not its size."""
    clip = {"command": download.WORD, "subcommand": download.WORD, "tool_name": download.WORD,
            "error_class": download.WORD, "error_hint": download.HINT, "flags": 65_536, "input_keys": 65_536,
            "then_shapes": 65_536, "outcome": 16}
    columns = [f"left({name}, {clip[name] + 1})" if name in clip else
               f"{name}[1:{download.PSEUDONYMS + 1}]" if name in ("people", "machines", "repositories") else
               f"extract(epoch FROM {name})::float8" if name in ("first_seen", "last_seen") else name
               for name in download.GROUP_COLUMNS]
    found, total = download.Download(), 0
    with conn.transaction():
        cursor = conn.cursor(name="dp_team_groups")
        cursor.execute(f"SELECT {', '.join(columns)}, count(*) OVER () FROM public.dp_team_groups() "
                       f"ORDER BY cardinality(people) DESC NULLS LAST, events DESC LIMIT {download.MAX_ROWS}")
        while batch := cursor.fetchmany(500):
            for *row, total in batch:
                found.offer(dict(zip(download.GROUP_COLUMNS, row)))
        cursor.close()
    found.left_out = max(found.left_out, (total if type(total) is int else 0) - len(found.groups) - found.skipped)
    return found
