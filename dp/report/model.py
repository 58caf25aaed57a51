"""What ``dp report`` draws, as one JSON-ready object, whichever store it comes from.

``build`` is the one shape the page (``dp.report.page``) reads: the desire
paths over time, the top paths and the rule covering each, every rule's
actions and outcomes, the answers (and shadow rules) the agent followed. Two
sources fill it: ``local`` from this store, ``team`` from the team's
aggregates (``dp.team.views``). A new source of team figures (rollups in
PostgreSQL) feeds the same page by calling ``build`` with its own lists.

The outcome figures are ``dp stats``'s, never a second count: ``local`` judges
the actions once (``dp.desires.stats.judged``) and hands them to
``dp.desires.stats.summary``, the function ``dp stats`` prints; the timeline
counts the same judged actions per day.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from dp.desires import stats
from dp.desires.paths import WHOLE_PROGRAM, paths, shape_label, shape_of
from dp.desires.query import iso
from dp.rules.model import Rule
from dp.rules.wording import describe
from dp.store.desires import failures_by_day

TOP_PATHS = 15  # bars in the paths chart
TABLE_PATHS = 50  # rows in the paths table under it
TIMELINE_PATHS = 5  # paths drawn on their own over time; the rest are summed as OTHER
OTHER = "other paths"
MAX_DAILY = 120  # days on the time axis; a longer span is drawn week by week
EXAMPLE_CHARS = 200
# The figures of dp stats the page shows as numbers (the per-rule lists are charts).
FIGURES = ("calls_seen", "rewritten", "advised", "blocked", "answered", "shadowed", "prevented", "answers_followed")


def local(conn, rules, since: str, agent: str = "", project: str = "", now: datetime | None = None) -> dict:
    """The report of the store ``conn`` (None: nothing captured yet) from ``since`` on."""
    found = paths(conn, rules, since, project) if conn is not None else []
    daily = [(day, shape_label(shape_of(*shape)), count)
             for day, *shape, _klass, count in failures_by_day(conn, since, WHOLE_PROGRAM, project)] \
        if conn is not None else []
    acted = stats.judged(conn, since, agent, project)
    notes = []
    if agent:
        notes.append(f"dp's actions are {agent}'s only; the desire paths are every agent's "
                     "(a captured failure does not record its agent).")
    return build(scope="local", since=since, paths=found, failures_by_day=daily, measure="failures",
                 outcomes=stats.summary(conn, acted, since, agent, project),
                 acted_by_day=[action["timestamp"][:10] for action in acted if action["kind"] != "shadow"], notes=notes,
                 filters={"agent": agent, "project": project}, now=now)


def team(found: list[dict], outcomes: dict, since: str, notes: list[str], now: datetime | None = None) -> dict:
    """The team's report: ``found`` are its paths (``dp.team.views.paths``), ``outcomes`` a ``dp stats``
    object. The team's aggregates keep each path's first and last day, not its events day by day, so
    its timeline counts the paths first seen each day (``measure``: ``new paths``)."""
    found = [path for path in found if path["last_seen"][:10] >= since[:10]]
    daily = [(path["first_seen"][:10], path["shape"], 1) for path in found]
    return build(scope="team", since=since, paths=found, failures_by_day=daily, measure="new paths",
                 outcomes=outcomes, acted_by_day=[], notes=notes, filters={}, now=now)


def build(*, scope: str, since: str, paths: list[dict], failures_by_day: list[tuple], measure: str,
          outcomes: dict, acted_by_day: list[str], notes: list[str], filters: dict,
          now: datetime | None = None) -> dict:
    """The page's data: ``paths`` as ``dp paths --json`` objects (most worn first), ``failures_by_day``
    as ``(day, path label, count)``, ``outcomes`` as a ``dp stats --json`` object, ``acted_by_day``
    the day of each action that changed a call or told an answer (a shadow rule's record changed nothing)."""
    now = now or datetime.now(timezone.utc)
    return {
        "scope": scope, "generated": iso(now.isoformat()), "since": iso(since), "filters": filters, "notes": notes,
        "figures": {"failures": sum(path["count"] for path in paths),
                    **{name: outcomes.get(name) for name in FIGURES}},
        "timeline": _timeline(failures_by_day, acted_by_day, [path["shape"] for path in paths], since,
                              now.date(), measure),
        "paths": [_path(path) for path in paths[:TABLE_PATHS]],
        "top_paths": TOP_PATHS,
        "rules": [rule for rule in outcomes["rules"] if rule["kind"] not in stats.WATCHED],
        "watched": [rule for rule in outcomes["rules"] if rule["kind"] in stats.WATCHED],
    }


def _path(path: dict) -> dict:
    """A path as the page shows it: its counts, the rule covering it in words, one redacted example."""
    example = (path.get("example") or {}).get("tool_input") or {}
    command = example.get("command")
    shown = command if isinstance(command, str) else ""
    return {
        "shape": path["shape"], "tool_name": path["tool_name"], "error_class": path["error_class"],
        "count": path["count"], "sessions": path["sessions"], "people": path.get("people"),
        "first_seen": path["first_seen"], "last_seen": path["last_seen"],
        "covered_by": describe(Rule(**path["covered_by"])) if path["covered_by"] else None,
        "example": shown[:EXAMPLE_CHARS],
    }


def _timeline(counts: list[tuple], acted: list[str], ranked: list[str], since: str, today: date,
              measure: str) -> dict:
    """Counts per day (or per week over a long span) for the most worn paths, the rest as OTHER, and dp's
    actions on the same days."""
    shown = ranked[:TIMELINE_PATHS]
    days = sorted({day for day, _, _ in counts} | set(acted))
    if not days:
        return {"measure": measure, "buckets": [], "series": [], "acted": [], "by": "day"}
    first = max(date.fromisoformat(days[0]), _day(since) or date.min)
    buckets, by = _buckets(first, max(today, date.fromisoformat(days[-1])))
    index = {day: position for position, day in enumerate(buckets)}

    def place(day: str) -> int | None:
        moment = date.fromisoformat(day)
        return index.get((moment - timedelta(days=moment.weekday())).isoformat() if by == "week" else day)

    series = {label: [0] * len(buckets) for label in [*shown, OTHER]}
    for day, label, count in counts:
        if (at := place(day)) is not None:
            series[label if label in series else OTHER][at] += count
    done = [0] * len(buckets)
    for day in acted:
        if (at := place(day)) is not None:
            done[at] += 1
    return {"measure": measure, "buckets": buckets, "by": by, "acted": done,
            "series": [{"label": label, "counts": values} for label, values in series.items() if any(values)]}


def _buckets(first: date, last: date) -> tuple[list[str], str]:
    """Every day from ``first`` to ``last``; Mondays (weeks) when that is more than ``MAX_DAILY`` days."""
    if (last - first).days < MAX_DAILY:
        return [(first + timedelta(days=step)).isoformat() for step in range((last - first).days + 1)], "day"
    monday = first - timedelta(days=first.weekday())
    return [(monday + timedelta(weeks=step)).isoformat() for step in range((last - monday).days // 7 + 1)], "week"


def _day(stored: str) -> date | None:
    try:
        return date.fromisoformat(stored[:10])
    except ValueError:
        return None
