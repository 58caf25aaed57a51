"""The one module that talks to PostgreSQL: connecting, the schema, and every SQL statement on it.

psycopg (3) is an optional dependency (``desire-paths[team]``) imported here
only, when a team command runs. Connections are bounded: a connect timeout,
and a statement timeout so that a server that stops answering ends a sync
with an error instead of a hang. The password never passes through dp:
libpq reads ``PGPASSWORD`` or ``~/.pgpass`` itself.

Migrations are ``migrations/postgres/NNNN_*.sql`` (numbered like the SQLite
store's, ``dp.store.migrations``), recorded in ``dp_schema_version`` and
applied in one transaction under an advisory lock, so members running ``dp
team migrate`` at once apply each file once and the others wait, then find
nothing to do.
"""

from __future__ import annotations

import contextlib

from dp.errors import DpError
from dp.team.shapes import EVENT_FIELDS as EVENT_COLUMNS

CONNECT_TIMEOUT_SECONDS = 5
STATEMENT_TIMEOUT_MS = 60_000
# pg_advisory_xact_lock key: "dp" team migrations.
MIGRATION_LOCK = 0x6470_7465_616D
GROUP_COLUMNS = ("outcome", "tool_name", "command", "subcommand", "flags", "input_keys", "error_class",
                 "error_hint", "then_shapes", "events", "sessions", "people", "machines", "repositories",
                 "first_seen", "last_seen")


class Unreachable(DpError):
    """The team database could not be reached or stopped answering (the events stay queued)."""


def _psycopg():
    try:
        import psycopg
    except ImportError:
        raise DpError("dp team needs the PostgreSQL driver: pip install 'desire-paths[team]'") from None
    return psycopg


@contextlib.contextmanager
def connect(url: str):
    """A connection to the team database at ``url`` (closed on exit); Unreachable with libpq's reason."""
    psycopg = _psycopg()
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS, application_name="dp",
                               options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS}")
    except psycopg.Error as exc:
        raise Unreachable(f"cannot reach the team database {url}: {_reason(exc)}") from None
    try:
        yield conn
    except psycopg.OperationalError as exc:
        raise Unreachable(f"the team database {url} stopped answering: {_reason(exc)}") from None
    except psycopg.Error as exc:
        raise DpError(f"the team database {url} refused: {_reason(exc)}") from None
    finally:
        with contextlib.suppress(Exception):
            conn.close()


def _reason(exc) -> str:
    text = " ".join(str(exc).split())
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
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
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


def upload(conn, rows: list[tuple]) -> int:
    """Upsert ``rows`` (tuples in ``EVENT_COLUMNS`` order) as the connected member's, in one
    transaction: a row already there is left as it is except for what worked next in its
    session; returns how many rows were new or changed."""
    columns = ", ".join(EVENT_COLUMNS)
    with conn.transaction():
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS dp_upload (LIKE public.dp_events INCLUDING DEFAULTS) "
                     "ON COMMIT DELETE ROWS")
        with conn.cursor().copy(f"COPY dp_upload ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        changed = conn.execute(
            f"INSERT INTO public.dp_events ({columns}) SELECT {columns} FROM dp_upload "
            "ON CONFLICT (member, machine, event_id) DO UPDATE SET then_shapes = EXCLUDED.then_shapes "
            "WHERE dp_events.then_shapes IS DISTINCT FROM EXCLUDED.then_shapes").rowcount
    return changed


def groups(conn) -> list[dict]:
    """The team's aggregates (``dp_team_groups()``), as dicts keyed by ``GROUP_COLUMNS``."""
    found = conn.execute(f"SELECT {', '.join(GROUP_COLUMNS)} FROM public.dp_team_groups()").fetchall()
    out = []
    for row in found:
        item = dict(zip(GROUP_COLUMNS, row))
        item["people"] = item["people"] or []
        item["machines"] = item["machines"] or []
        item["repositories"] = item["repositories"] or []
        item["first_seen"] = _stamp(item["first_seen"])
        item["last_seen"] = _stamp(item["last_seen"])
        out.append(item)
    return out


def _stamp(moment) -> str:
    """A timestamptz as dp stores times (``2026-01-31T12:00:00.000000Z``)."""
    from datetime import timezone

    return moment.astimezone(timezone.utc).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def own_count(conn) -> int:
    """How many rows the connected member holds (row-level security shows only theirs)."""
    count = conn.execute("SELECT count(*) FROM public.dp_events").fetchone()[0]
    return count
