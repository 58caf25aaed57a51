"""``dp team``: connect a store to a team's PostgreSQL database, migrate it, sync with it."""

from __future__ import annotations

import typer

from dp.cli.common import note, print_json
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import DRY_RUN_OPTION, rehearsed

HELP = """Share captured failures with a team through PostgreSQL.

The hooks keep writing to your own store; `dp team sync` (and, in the
background, every session start) uploads each event as its shape only —
tool, command word, subcommand, flags, input keys, error class, what the
tool suggested — with pseudonyms for the session and repository. The
password comes from PGPASSWORD or ~/.pgpass, never from dp.
`dp desires --team`, `dp paths --team` and `dp suggest --team` read the team's aggregates.

\b
Examples:
  dp team connect postgresql://alice@db.example.com/dp
  dp team migrate                 # once per database, by its owner
  dp team sync --dry-run          # what would be uploaded
  dp team sync
  dp team status
  dp team disconnect
"""


@shared()
@rehearsed
def connect(url: str | None = typer.Argument(None, metavar="[URL]",
                                                help="postgresql://USER@HOST[:PORT]/DATABASE (no password); "
                                                     "without it, the one this trusted repository suggests."),
            dry_run: bool = DRY_RUN_OPTION, *, opts: Shared) -> None:
    """Connect this store to a team database (the password: PGPASSWORD or ~/.pgpass, never the URL).

    Without URL, take the team database this repository's trusted .dp/rules.toml
    suggests ([team] url), for the events captured in this repository: a
    repository's file never sends anything anywhere until you run this.

    \b
    Examples:
      dp team connect postgresql://alice@db.example.com/dp
      PGPASSWORD=… dp team connect postgresql://alice@127.0.0.1:5432/team
      dp team connect          # in a repository whose trusted file suggests one
    """
    from dp.team import config, server

    if url is None:
        url = _take_suggestion(opts)
    else:
        url = config.check_url(url)
        config.update(opts.store, lambda state: state.update(url=url))
    machine = config.machine_id(opts.store)
    try:
        with server.connect(url) as conn:
            version = server.schema_version(conn)
            member = conn.execute("SELECT current_user").fetchone()[0]
    except server.Unreachable as exc:
        note(f"Connected this store to {url} (machine {machine}); {exc.message}. Events queue until it answers.")
        return
    typer.echo(f"Connected this store to {url} as {member} (machine {machine}).")
    if version < len(server.migrations()):
        note("Its schema is not in place yet: the database's owner runs dp team migrate.")
    note("See what a sync would upload with: dp team sync --dry-run")


def _take_suggestion(opts: Shared) -> str:
    """The team database this repository's trusted file suggests, now the person's choice for the
    events captured in it (``accepted`` in the team state)."""
    from dp.errors import DpError
    from dp.team import config

    url, why = config.suggested_url(opts.store, str(opts.directory))
    if url is None:
        raise DpError(why or "no URL given, and no trusted .dp/rules.toml here suggests a team database: "
                             "dp team connect postgresql://USER@HOST/DATABASE")
    config.update(opts.store, lambda state: state.update(
        accepted=[*(known for known in config.accepted(state) if known != url), url]))
    note(f"This repository's .dp/rules.toml suggests {url}: the events captured in it go there from now on.")
    return url


@shared()
@rehearsed
def disconnect(dry_run: bool = DRY_RUN_OPTION, *, opts: Shared) -> None:
    """Stop syncing this store with the team databases you connected (what was uploaded stays).

    \b
    Examples:
      dp team disconnect
    """
    from dp.team import config

    state = config.load(opts.store)
    urls = [url for url in [state.get("url"), *config.accepted(state)] if url]
    if not urls:
        note("This store is not connected to a team database.")
        return
    config.update(opts.store, lambda state: (state.pop("url", None), state.pop("accepted", None)))
    for url in dict.fromkeys(urls):
        typer.echo(f"Disconnected from {url}; nothing more is uploaded there (what was uploaded stays).")


@shared()
def migrate(url: str | None = typer.Argument(None, metavar="[URL]", help="The database (default: this store's or this repository's)."),
            *, opts: Shared) -> None:
    """Create or update the team schema (idempotent; safe to run by several members at once).

    Run by a role that may create tables and roles in the database (its owner).

    \b
    Examples:
      dp team migrate
      dp team migrate postgresql://owner@db.example.com/dp
    """
    from dp.team import config, server
    from dp.team.views import resolve_url

    url = config.check_url(url) if url else resolve_url(opts.store, str(opts.directory))
    with server.connect(url) as conn:
        before, after = server.migrate(conn)
    if after == before:
        typer.echo(f"{url}: the team schema is current (version {after}).")
    else:
        typer.echo(f"{url}: team schema version {before} → {after}.")


@shared()
def sync(dry_run: bool = typer.Option(False, "--dry-run", help="List what would be uploaded; upload nothing."),
         batch_size: int = typer.Option(2000, "--batch-size", min=1, max=100_000, metavar="N",
                                        help="Events per transaction (an interrupted sync resends at most one batch)."),
         *, opts: Shared) -> None:
    """Upload what this store captured (as shapes) and download the team's aggregates.

    \b
    Examples:
      dp team sync --dry-run     # every shape that would leave this machine
      dp team sync
    """
    from dp.errors import DpError
    from dp.team import config, server
    from dp.team.sync import Router, destinations, pending, pending_actions, sync_one

    state = config.load(opts.store)
    with _local(opts.store) as local:
        router = Router(opts.store, state.get("url"))
        targets = destinations(opts.store, local, router) if local is not None else (
            [state["url"]] if state.get("url") else [])
        if not targets:
            _, why = config.repository_url(opts.store, str(opts.directory))
            raise DpError("no team database: connect one with dp team connect postgresql://USER@HOST/DATABASE"
                          + (f" ({why})" if why else ""))
        if dry_run:
            plans = {url: (pending(opts.store, local, url, router), pending_actions(opts.store, local, url, router)[0])
                     if local is not None else ([], []) for url in targets}
            _print_plan(plans, opts.json)
            return
        reports, failed = [], []
        for url in targets:
            try:
                reports.append(sync_one(opts.store, local, url, router, batch_size) if local is not None else
                               {"url": url, "sent": 0, "looked_at": 0})
            except server.Unreachable as exc:
                failed.append(exc.message)
    if opts.json:
        print_json({"synced": reports, "unreachable": failed})
    for report in reports if not opts.json else ():
        refused = f" ({report['refused']} refused by the database: not shapes)" if report.get("refused") else ""
        acted = f" and {report['actions']} of dp's actions" if report.get("actions") else ""
        typer.echo(f"{report['url']}: {report['sent']} event{'s' if report['sent'] != 1 else ''} uploaded{acted}{refused}; "
                   "the team's aggregates downloaded.")
    if failed:
        raise DpError("; ".join(failed) + " (the events stay queued; dp team sync sends them when it answers)")


def _print_plan(plans: dict, as_json: bool) -> None:
    """What a sync would upload: per database, the events and dp's actions, as the shapes they leave as."""
    from dp.team.outcomes import ACTION_COLUMNS
    from dp.team.shapes import EVENT_FIELDS

    if as_json:
        print_json({url: {"events": [dict(zip(EVENT_FIELDS, row)) for row in rows],
                          "actions": [dict(zip(ACTION_COLUMNS, row)) for row in acted]}
                    for url, (rows, acted) in plans.items()})
        return
    from dp.cli.table import render as table
    from dp.team import outcomes
    from dp.team.shapes import summary

    for url, (rows, acted) in plans.items():
        typer.echo(f"{url}: {len(rows)} event{'s' if len(rows) != 1 else ''} would be uploaded, as these shapes "
                   "(nothing else leaves this machine):")
        if rows:
            typer.echo(table(["COUNT", "OUTCOME", "TOOL", "SHAPE", "CLASS", "HINT", "THEN"], summary(rows)))
            typer.echo("Each with its time, this machine's id, an id of its own and hashes of its session and "
                       "repository; --json lists every field of every event.")
        if acted:
            typer.echo(f"and {len(acted)} of dp's action{'s' if len(acted) != 1 else ''} and what happened next, "
                       "as these shapes (the programs a rule rewrote away and wrote, never a rule's text or a "
                       "command's arguments):")
            typer.echo(table(["COUNT", "KIND", "RULE", "SOURCE", "AGENT", "OUTCOME", "NEXT"], outcomes.summary(acted)))
            typer.echo("Each with its time, this machine's id, an id of its own and hashes of its session and "
                       "repository; --json lists every field of every action.")


@shared()
def status(*, opts: Shared) -> None:
    """The connection (no secrets), the last sync, what is queued, and whether the database answered.

    \b
    Examples:
      dp team status
      dp team status --json
    """
    from dp.team import config, download
    from dp.team.sync import Router, destinations, queued

    state = config.load(opts.store)
    with _local(opts.store) as local:
        router = Router(opts.store, state.get("url"))
        targets = destinations(opts.store, local, router) if local is not None else (
            [state["url"]] if state.get("url") else [])
        found = []
        for url in targets:
            mark = state.get("databases", {}).get(url, {})
            found.append({"url": url, "connected": url == state.get("url"), "last_sync": mark.get("last_sync"),
                          "queued": queued(opts.store, local, url) if local is not None else 0,
                          "offline": mark.get("last_error"), "offline_since": mark.get("error_at"),
                          "skipped": mark.get("skipped", 0), "left_out": mark.get("left_out", 0),
                          "refused": mark.get("refused", 0)})
    _, suggestion = config.repository_url(opts.store, str(opts.directory))
    if opts.json:
        print_json({"machine": state.get("machine"), "databases": found, "note": suggestion or None})
        return
    if not found:
        typer.echo("Not connected to a team database (dp team connect postgresql://USER@HOST/DATABASE).")
    for item in found:
        how = "connected" if item["connected"] else "named by this repository"
        status_line(f"{item['url']} ({how}), machine {state.get('machine')}")
        status_line(f"  last sync: {item['last_sync'] or 'never'}; queued: {item['queued']} event"
                    f"{'s' if item['queued'] != 1 else ''}")
        if item["offline"]:
            status_line(f"  offline since {item['offline_since']}: {item['offline']}")
        if item["skipped"] or item["left_out"] or item["refused"]:
            status_line(f"  last download: {item['skipped']} row{'s' if item['skipped'] != 1 else ''} skipped "
                        f"(not shapes dp can trust), {item['left_out']} left out (past {download.MAX_ROWS:,} rows "
                        f"or {download.MAX_BYTES >> 20} MiB); last upload: {item['refused']} refused by the database")
    if suggestion:
        note(suggestion)


def status_line(text: str) -> None:
    """A line of ``dp team status``: it holds text a server sent (an error), so only its printable part."""
    from dp.terminal import printable

    typer.echo(printable(text))


def _local(db):
    from dp.desires.query import captured

    return captured(db)


def register(app: typer.Typer) -> None:
    team = typer.Typer(help=HELP, no_args_is_help=True, rich_markup_mode=None,
                       short_help="Share captured failures with a team (PostgreSQL).")
    for func in (connect, status, sync, migrate, disconnect):
        team.command(name=func.__name__, help=func.__doc__)(func)
    app.add_typer(team, name="team")
