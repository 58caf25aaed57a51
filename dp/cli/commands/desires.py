"""``dp desires``: the failed tool calls dp captured, newest first (and ``--purge``)."""

from __future__ import annotations

import typer

from dp.cli.common import note, print_json
from dp.cli.confirm import YES_OPTION, confirm_deletion
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import rehearsed

HELP = """List the failed tool calls dp captured (hooks, transcripts, imports), newest first.

Inputs are stored redacted (tokens, passwords, keys → [redacted]), at most
4 KB, and without Write/Edit contents.

\b
Examples:
  dp desires                          # the latest 50
  dp desires --since 7d --tool Bash   # also: 12h, 2w, 2026-01-31
  dp desires --json --limit 10
  dp desires --purge --before 2026-01-01 --dry-run   # how many older events would go
  dp desires --purge --before 2026-01-01   # delete them, after asking (--yes: without)
  dp desires --purge --yes                 # delete every captured event
  dp desires --team                        # the team's failures (dp team), by shape
"""
DEFAULT_TEXT_LIMIT = 50
INPUT_WIDTH = 50
ERROR_WIDTH = 60


@shared()
@rehearsed(own_plan=True)
def desires(
    since: str | None = typer.Option(None, "--since", metavar="WHEN", help="Only events since WHEN (7d, 12h, 2w or a date)."),
    tool: str | None = typer.Option(None, "--tool", metavar="NAME", help="Only calls of tool NAME."),
    limit: int | None = typer.Option(None, "--limit", min=1, metavar="N", help="At most N events (text default 50)."),
    purge: bool = typer.Option(False, "--purge", help="Delete captured events (every one, or those before --before)."),
    before: str | None = typer.Option(None, "--before", metavar="DATE", help="With --purge: only events before DATE."),
    yes: bool = YES_OPTION,
    dry_run: bool = typer.Option(False, "--dry-run", help="With --purge: say how many events would go; delete nothing."),
    team: bool = typer.Option(False, "--team", help="The team's failures (dp team connect): shapes, newest first."),
    *, opts: Shared,
) -> None:
    from dp.desires import query

    _check_together(purge, before=before, filters=bool(since or tool or limit), yes=yes, dry_run=dry_run, team=team)
    if purge:
        _purge(before, yes, dry_run, opts)
        return
    start = query.parse_since(since) if since else None
    shown_limit = limit or (None if opts.json else DEFAULT_TEXT_LIMIT)
    if team:
        _team(start, tool, shown_limit, opts)
        return
    events, total = query.latest_failures(opts.store, start, tool, shown_limit, with_total=not opts.json)
    if opts.json:
        print_json(events)
    else:
        _print_events(events, total, filtered=bool(since or tool))


def _check_together(purge: bool, *, before, filters: bool, yes: bool, dry_run: bool, team: bool) -> None:
    """Refuse the options that go only with --purge, or never with it, in one line each."""
    from dp.errors import DpError

    if before is not None and not purge:
        raise DpError("--before goes with --purge: dp desires --purge --before 2026-01-31")
    if purge and filters:
        raise DpError("--purge deletes by date only: dp desires --purge [--before DATE]")
    if (yes or dry_run) and not purge:
        raise DpError(f"{'--yes' if yes else '--dry-run'} goes with --purge: dp desires --purge --dry-run")
    if purge and team:
        raise DpError("--purge deletes from your own store only: dp desires --purge (without --team)")


def _purge(before: str | None, yes: bool, dry_run: bool, opts: Shared) -> None:
    from dp.desires import query

    cutoff = query.parse_date(before, "--before") if before is not None else None
    doomed = query.count_before(opts.store, cutoff)
    if doomed and not dry_run:
        what = f"{_events(doomed)}" + (f" from before {before}" if before else "") + f" in {opts.store}"
        confirm_deletion(what, "dp desires --purge", yes)
        doomed = query.purge_store(opts.store, cutoff)
    _report_purge(doomed, before, opts.json, dry_run)


def _team(start: str | None, tool: str | None, limit: int | None, opts: Shared) -> None:
    """The team's failures by shape, from its aggregates (no one's inputs or errors: shapes and hints)."""
    from dp.cli.table import render as table
    from dp.team.views import desires as team_desires
    from dp.team.views import team_groups

    groups, stale = team_groups(opts.store, str(opts.directory))
    found = [item for item in team_desires(groups) if (tool is None or item["tool_name"] == tool)
             and (start is None or item["last_seen"][:10] >= start[:10])][:limit]  # the team's times are days
    if stale:
        note(stale)
    if opts.json:
        print_json(found)
    elif not found:
        note("The team has no failed tool calls" + (" match those filters." if start or tool else " yet."))
    else:
        typer.echo(table(["LAST SEEN", "TOOL", "SHAPE", "CLASS", "HINT", "COUNT", "PEOPLE", "MACHINES", "REPOS"],
                         [[item["last_seen"][:10], item["tool_name"], fold(item["shape"], 40),
                           item["error_class"], fold(item["hint"].replace("\n", "; "), 40) or "-", item["count"],
                           item["people"], item["machines"], item["repositories"]] for item in found]))


def _print_events(events: list[dict], total: int | None, filtered: bool) -> None:
    if not events:
        note("No failed tool calls captured" + (" match those filters." if filtered else
             " yet. dp init installs the capture hooks; dp ingest --claude-transcripts reads past sessions."))
        return
    typer.echo(render(events))
    if total and total > len(events) and not filtered:
        note(f"(showing the latest {len(events)} of {total}; --limit N for more)")


def _events(count: int) -> str:
    return f"{count} captured event{'s' if count != 1 else ''}"


def _report_purge(deleted: int, before: str | None, as_json: bool, dry_run: bool) -> None:
    if as_json:
        print_json({"deleted": 0 if dry_run else deleted, "before": before, "dry_run": dry_run,
                    **({"would_delete": deleted} if dry_run else {})})
    else:
        typer.echo(f"{'Would delete' if dry_run else 'Deleted'} {_events(deleted)}"
                   + (f" from before {before}." if before else "."))


def render(events: list[dict]) -> str:
    rows = [
        [e["timestamp"].replace("T", " ").rstrip("Z"), e["source"], e["tool_name"], e["error_class"],
         fold(describe_input(e["tool_name"], e["tool_input"]), INPUT_WIDTH), fold(first_line(e["error"]), ERROR_WIDTH)]
        for e in events
    ]
    from dp.cli.table import render as table

    return table(["TIME", "SOURCE", "TOOL", "CLASS", "INPUT", "ERROR"], rows)


def describe_input(tool: str, tool_input: dict) -> str:
    """A Bash call's command, or any other call's input as compact JSON."""
    import json

    command = tool_input.get("command")
    if tool == "Bash" and isinstance(command, str):
        return command
    return json.dumps(tool_input, ensure_ascii=False, separators=(", ", ": "))


def first_line(text) -> str:
    """The first informative line of an error (Claude Code starts Bash errors with ``Exit code N``)."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    informative = [line for line in lines if not line.startswith("Exit code")]
    return (informative or lines or [""])[0]


def fold(text: str, width: int) -> str:
    folded = " ".join(text.split())
    return folded if len(folded) <= width else folded[: width - 3] + "..."


def register(app: typer.Typer) -> None:
    app.command("desires", help=HELP, short_help="List captured failed tool calls (or --purge them).")(desires)
