"""``dp paths``: captured failures grouped by shape, most worn first."""

from __future__ import annotations

import typer

from dp.cli.common import note, print_json
from dp.cli.options import Shared, shared

HELP = """Group the captured failures by shape: the trails agents keep wearing.

A Bash failure's shape is its command word, subcommand and flags plus the
error class (command not found, unknown subcommand, unknown option, no such
file, permission denied, non-zero exit); any other tool's is its name and
input keys. COVERED BY names the rule that already corrects a shape.

\b
Examples:
  dp paths
  dp paths --since 7d
  dp paths --json
  dp paths --team     # the team's failures (dp team), with people, machines, repositories
"""


@shared()
def paths(
    since: str | None = typer.Option(None, "--since", metavar="WHEN", help="Only failures since WHEN (7d, 12h, or a date)."),
    team: bool = typer.Option(False, "--team", help="The team's failures (dp team connect), with how many people saw each."),
    *, opts: Shared,
) -> None:
    from dp.desires.paths import paths as group
    from dp.desires.query import captured, parse_since
    from dp.layers.view import in_effect

    start = parse_since(since) if since else None
    rules, _ = in_effect(opts.store, str(opts.directory))
    if team:
        found = _team(rules, start, opts)
    else:
        with captured(opts.store) as conn:
            found = group(conn, rules, start) if conn is not None else []
    if opts.json:
        print_json(found)
    elif not found:
        note(("The team has no failed tool calls" if team else "No failed tool calls captured")
             + (" in that time." if since else " yet."))
    else:
        typer.echo(render_team(found) if team else render(found))
        if any(path["covered_by"] is None for path in found):
            note(f"Next: dp suggest{' --team' if team else ''} (aliases proposed from these paths)")


def _team(rules, start: str | None, opts: Shared) -> list[dict]:
    """The team's paths since ``start`` (a note when they are the last sync's, the database unreachable)."""
    from dp.team.views import paths as team_paths
    from dp.team.views import team_groups

    groups, stale = team_groups(opts.store, str(opts.directory))
    if stale:
        note(stale)
    # The team's times are days (what a member may learn of another's: docs/team.md).
    return [path for path in team_paths(groups, rules) if start is None or path["last_seen"][:10] >= start[:10]]


def render_team(found: list[dict]) -> str:
    """The team's paths: counts of events, people, machines and repositories per shape."""
    from dp.cli.commands.desires import fold
    from dp.cli.table import render as table
    from dp.rules.model import Rule
    from dp.rules.wording import describe

    rows = [[path["count"], path["people"], path["machines"], path["repositories"], path["tool_name"],
             fold(path["shape"], 30), path["error_class"], path["last_seen"][:10],
             describe(Rule(**path["covered_by"])) if path["covered_by"] else "-"] for path in found]
    return table(["COUNT", "PEOPLE", "MACHINES", "REPOS", "TOOL", "SHAPE", "CLASS", "LAST SEEN", "COVERED BY"], rows)


def render(found: list[dict]) -> str:
    from dp.cli.commands.desires import describe_input, first_line, fold
    from dp.rules.model import Rule
    from dp.rules.wording import describe

    rows = []
    for path in found:
        example = path["example"] or {}
        shown = fold(describe_input(path["tool_name"], example.get("tool_input") or {}), 30)
        rows.append([
            path["count"], path["sessions"], path["tool_name"], fold(path["shape"], 30), path["error_class"],
            path["last_seen"].replace("T", " ").rstrip("Z"), shown, fold(first_line(example.get("error")), 40),
            describe(Rule(**path["covered_by"])) if path["covered_by"] else "-",
        ])
    headers = ["COUNT", "SESSIONS", "TOOL", "SHAPE", "CLASS", "LAST SEEN", "EXAMPLE", "ERROR", "COVERED BY"]
    from dp.cli.table import render as table

    return table(headers, rows)


def register(app: typer.Typer) -> None:
    app.command("paths", help=HELP, short_help="Group captured failures by shape.")(paths)
