"""``dp stats``: what dp did to agents' calls this week, and what happened next (issue 51)."""

from __future__ import annotations

import typer

from dp.cli.common import note, print_json
from dp.cli.options import Shared, shared

HELP = """What dp did to your agents' calls, and what happened next: calls seen,
rewritten, blocked and answered; failures dp prevented and answers the agent
followed; per rule and per agent. Every figure is a count of what was captured
(docs/stats.md says how each is counted); a rule that hurts is marked, and
one dp suggest --apply made is switched off when it hurts clearly (said once).

\b
Examples:
  dp stats                      # the last 7 days
  dp stats --since 30d --json
  dp stats --agent gemini --project ~/src/app
  dp stats --team               # the team's figures (dp team), with how many people
"""
DEFAULT_SINCE = "7d"


@shared()
def stats(
    since: str = typer.Option(DEFAULT_SINCE, "--since", metavar="WHEN", help="Since WHEN (7d, 12h, 2w or a date)."),
    agent: str | None = typer.Option(None, "--agent", metavar="NAME", help="Only what dp did in agent NAME."),
    project: str | None = typer.Option(None, "--project", metavar="DIR", help="Only calls under DIR."),
    team: bool = typer.Option(False, "--team", help="The team's figures (dp team connect), with how many people."),
    *, opts: Shared,
) -> None:
    import os

    from dp.desires import hurting, query
    from dp.desires.stats import stats as count

    start = query.parse_since(since)
    if agent is not None:
        from dp.agents import names
        from dp.errors import DpError

        if agent not in names():
            raise DpError(f"--agent {agent!r} is not an agent dp serves; use one of: {', '.join(names())}")
    if team:
        report = _team(opts, start, agent, project)
    else:
        folder = os.path.realpath(os.path.expanduser(project)) if project else ""
        hurting.switch_off_in(opts.store)  # a rule dp made that hurts clearly stops acting (dp.changes follows)
        with query.captured(opts.store) as conn:
            report = count(conn, start, agent or "", folder)
    report["since"] = query.iso(start)
    if opts.json:
        print_json(report)
    else:
        _print(report, since)
    if not team:
        hurting.tell(opts.store, note)


def _team(opts: Shared, start: str, agent: str | None, project: str | None) -> dict:
    """The team's figures since ``start`` (``dp.team.views.team_stats``; a note when they are the last read's)."""
    from dp.cli.common import note
    from dp.errors import DpError
    from dp.team.views import team_stats

    if project is not None:
        raise DpError("--project is not counted for a team: its repositories are pseudonyms; drop --project")
    report, stale = team_stats(opts.store, str(opts.directory), start, agent or "")
    if stale:
        note(stale)
    return report


def _print(report: dict, since: str) -> None:
    from dp.terminal import printable

    seen = report["calls_seen"]
    typer.echo(f"Since {report['since']} ({since}):")
    if seen is not None:
        typer.echo(f"  {'calls seen':<20} {seen}")
    if "people" in report:
        typer.echo(f"  {'people':<20} {report['people']}")
    for label, key in (("rewritten", "rewritten"), ("advised", "advised"), ("blocked", "blocked"),
                       ("answered", "answered"), ("shadow (would have)", "shadowed"),
                       ("failures prevented", "prevented"),
                       ("answers followed", "answers_followed")):
        typer.echo(f"  {label:<20} {report[key]}")
    if report["rules"]:
        typer.echo("\nBy rule (actions: succeeded / failed / unknown, undone):")
        for rule in report["rules"]:
            mark = "  ⚠ hurts: its calls fail or are undone more than they succeed" if rule["hurts"] else ""
            mark += "  (switched off by dp)" if rule.get("switched_off") else ""
            extra = f", followed {rule['followed']}" if rule["kind"] in ("answer", "shadow") else ""
            made = ", made by dp suggest" if rule.get("origin") else ""
            typer.echo(f"  {printable(rule['rule'])} [{rule['kind']}, {rule['source']}{made}]: {rule['actions']}: "
                       f"{rule['succeeded']} / {rule['failed']} / {rule['unknown']}, undone {rule['undone']}"
                       f"{extra}{mark}")
    if report.get("switched_off"):
        typer.echo("\nSwitched off by dp (made by dp suggest --apply; they hurt clearly; kept, acting no more):")
        for entry in report["switched_off"]:
            typer.echo(f"  {printable(entry['rule'])} on {entry['at']}: {entry['reason']}")
    if report["agents"]:
        typer.echo("\nBy agent:")
        for agent in report["agents"]:
            typer.echo(f"  {agent['agent']}: {agent['actions']} actions, {agent['succeeded']} succeeded, "
                       f"{agent['failed']} failed")
    if not report["rules"]:
        typer.echo("\nNo action of dp's in this time (dp acts when a rule, paving or a learned answer applies).")


def register(app: typer.Typer) -> None:
    app.command("stats", help=HELP, short_help="What dp did to agents' calls, and what happened next.")(stats)
