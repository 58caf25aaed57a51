"""``dp report``: one self-contained HTML page of dp's desire paths and outcomes (issue 51)."""

from __future__ import annotations

from pathlib import Path

import typer

from dp.cli.common import note, print_json
from dp.cli.options import Shared, shared

HELP = """Write one HTML page with the pictures: desire paths (captured failures)
over time, the most worn paths and whether a rule covers each, each rule's
effect (the figures of dp stats) and the answers agents followed. The page
loads nothing (its charting library and data are inside it): open it from
disk, attach it to a CI run, mail it.

\b
Examples:
  dp report                          # dp-report.html, the last 30 days
  dp report -o ~/week.html --since 7d
  dp report --team                   # the team's paths (dp team connect)
  dp report --json                   # the page's data, as JSON
"""
DEFAULT_SINCE = "30d"
DEFAULT_OUTPUT = "dp-report.html"


@shared()
def report(
    output: Path | None = typer.Option(None, "--output", "-o", metavar="FILE",
                                       help=f"Write the page to FILE (default {DEFAULT_OUTPUT}; - for stdout)."),
    since: str = typer.Option(DEFAULT_SINCE, "--since", metavar="WHEN", help="Since WHEN (30d, 12h, 2w or a date)."),
    agent: str | None = typer.Option(None, "--agent", metavar="NAME", help="Only what dp did in agent NAME."),
    project: str | None = typer.Option(None, "--project", metavar="DIR", help="Only calls under DIR."),
    team: bool = typer.Option(False, "--team", help="The team's paths (dp team connect), with how many people met each."),
    *, opts: Shared,
) -> None:
    from dp.desires.query import parse_since
    from dp.layers.view import in_effect

    start = parse_since(since)
    if team and (agent or project):
        from dp.errors import DpError

        raise DpError("--team reports the whole team's paths; --agent and --project narrow this machine's only")
    rules, _ = in_effect(opts.store, str(opts.directory))
    data = _team(opts, rules, start) if team else _local(opts, rules, start, _agent(agent), _folder(project))
    if opts.json and output is None:
        print_json(data)
        return
    _write(output or Path(DEFAULT_OUTPUT), data, opts)


def _agent(name: str | None) -> str:
    if name is None:
        return ""
    from dp.agents import names
    from dp.errors import DpError

    if name not in names():
        raise DpError(f"--agent {name!r} is not an agent dp serves; use one of: {', '.join(names())}")
    return name


def _folder(project: str | None) -> str:
    import os

    return os.path.realpath(os.path.expanduser(project)) if project else ""


def _local(opts: Shared, rules, start: str, agent: str, project: str) -> dict:
    from dp.desires.query import captured
    from dp.report.model import local

    with captured(opts.store) as conn:
        return local(conn, rules, start, agent, project)


def _team(opts: Shared, rules, start: str) -> dict:
    """The team's paths, and its rules and answers as ``dp stats --team`` counts them (``team_stats``)."""
    from dp.report.model import team
    from dp.team.views import paths, team_groups, team_stats

    groups, stale = team_groups(opts.store, str(opts.directory))
    outcomes, stale_outcomes = team_stats(opts.store, str(opts.directory), start)
    notes = [note for note in (stale, stale_outcomes) if note]
    return team(paths(groups, rules), outcomes, start, notes)


def _write(output: Path, data: dict, opts: Shared) -> None:
    import sys

    from dp.files import read_bytes, replace_file
    from dp.report.page import render

    page = render(data)
    if str(output) == "-":
        sys.stdout.write(page)
        return
    target = output.absolute()  # dp is in --cwd's DIR already: a relative FILE is read from there
    replace_file(target, page.encode("utf-8"), expected=read_bytes(target))
    if opts.json:
        print_json({"output": str(target), "paths": len(data["paths"]), "rules": len(data["rules"]),
                    "answers": len(data["watched"])})
        return
    from dp.terminal import printable

    typer.echo(printable(str(target)))
    note(f"{len(data['paths'])} paths, {len(data['rules'])} rules, {len(data['watched'])} answers and shadow rules; "
         "open it in a browser (it loads nothing)")


def register(app: typer.Typer) -> None:
    app.command("report", help=HELP, short_help="Write the desire paths and dp's outcomes as one HTML page.")(report)
