"""``dp desires --team``, ``dp paths --team``, ``dp suggest --team``: the same reports over the team's aggregates.

The server hands every member the same aggregates (``dp_team_groups()``):
one row per shape, hint and what worked next, with counts and the pseudonyms
of the people, machines and repositories behind it. Paths are those rows
summed by shape. Suggestions run dp's own suggester (``dp.desires.suggest``)
over a scratch SQLite store holding one event per row (and the shapes that
worked after it, in its own session), then weigh each candidate by the rows
behind it: so the team's suggestions follow exactly the person's rules, with
the team's counts. Paths and suggestions rank on people before events: one
member counts as one person whatever they upload, so no member outvotes the
team by inserting.

Read live when the database answers (every row checked and the whole bounded:
``dp.team.download``); else from the aggregates the last download kept, with
a note saying when that was.
"""

from __future__ import annotations

import json
import sqlite3

from dp.desires.paths import RuleIndex, one_cause, shape_label, shape_of
from dp.desires.query import iso
from dp.desires.suggest import DEFAULT_MIN_COUNT, candidates
from dp.errors import DpError
from dp.rules.model import BASH_TOOL
from dp.team import config, server, sync
from dp.team.shapes import label


def resolve_url(db_path, directory: str) -> str:
    """The team database for ``directory``: the one its trusted repository names when the person
    took it with ``dp team connect``, else the connected one; never one the person did not choose."""
    url, note = config.repository_url(db_path, directory)
    url = url or config.load(db_path).get("url")
    if not url:
        raise DpError("no team database: connect one with dp team connect postgresql://USER@HOST/DATABASE"
                      + (f" ({note})" if note else ""))
    return url


def team_groups(db_path, directory: str) -> tuple[list[dict], str]:
    """``(aggregates, note)``: live, or — when the database cannot be reached, refuses or is busy —
    the last download with a note saying so (the failure recorded for ``dp team status``)."""
    url = resolve_url(db_path, directory)
    try:
        with server.connect(url) as conn:
            server.require_schema(conn)
            found = server.groups(conn)
    except server.Unreachable as exc:
        _best_effort(sync.failed, db_path, url, exc)
        kept, when = sync.saved(db_path, url)
        if kept is None:
            raise
        return kept.groups, f"{exc.message}; showing the team's aggregates as of the last sync ({when})"
    _best_effort(sync.downloaded, db_path, url, found)
    return found.groups, ""


def _best_effort(record, *args) -> None:
    """Keep what a view learned (``dp team status``, the offline copy); a view still answers when the
    state cannot be written (a read-only HOME, a full disk)."""
    try:
        record(*args)
    except (OSError, DpError):
        pass


def _counts(rows) -> dict:
    people, machines, repos = set(), set(), set()
    for row in rows:
        people.update(row["people"])
        machines.update(row["machines"])
        repos.update(row["repositories"])
    return {"people": len(people), "machines": len(machines), "repositories": len(repos)}


def paths(groups: list[dict], rules) -> list[dict]:
    """The team's failure shapes, most worn first, as ``dp paths --json`` objects plus people,
    machines and repositories."""
    by_shape: dict[tuple, list[dict]] = {}
    for row in groups:
        if row["outcome"] == "failure":
            key = (row["tool_name"], row["command"], *one_cause(row["error_class"], row["subcommand"], row["flags"]),
                   row["input_keys"], row["error_class"])
            by_shape.setdefault(key, []).append(row)
    index = RuleIndex(rules)
    found = []
    for (tool, command, subcommand, flags, keys, klass), rows in by_shape.items():
        shape = shape_of(tool, command, subcommand, flags, keys)
        found.append({
            "shape": shape_label(shape), **shape, "error_class": klass,
            "count": sum(row["events"] for row in rows), "sessions": sum(row["sessions"] for row in rows),
            **_counts(rows),
            "first_seen": iso(min(row["first_seen"] for row in rows)),
            "last_seen": iso(max(row["last_seen"] for row in rows)),
            "covered_by": index.covering(shape),
        })
    return sorted(found, key=lambda item: (-item["people"], -item["count"], item["shape"]))


def desires(groups: list[dict], limit: int | None = None) -> list[dict]:
    """The team's failures by shape and hint, newest first."""
    found = []
    for row in groups:
        if row["outcome"] != "failure":
            continue
        shape = shape_of(row["tool_name"], row["command"], row["subcommand"], row["flags"], row["input_keys"])
        found.append({"shape": shape_label(shape), "tool_name": row["tool_name"], "error_class": row["error_class"],
                      "hint": row["error_hint"], "count": row["events"], "sessions": row["sessions"],
                      **_counts([row]), "last_seen": iso(row["last_seen"])})
    found.sort(key=lambda item: item["last_seen"], reverse=True)
    return found[:limit] if limit is not None else found


def suggest(groups: list[dict], rules, min_count: int | None = None) -> list[dict]:
    """The team's suggestions, best first, each with the team's counts (events, sessions, people,
    machines, repositories); ``min_count`` as ``dp suggest``'s, counted in team events."""
    scratch = sqlite3.connect(":memory:")
    try:
        behind = _scratch_store(scratch, groups)
        found = []
        for candidate in candidates(scratch, rules):
            rows = list({id(behind[event["id"]]): behind[event["id"]] for event in candidate.events}.values())
            count = sum(row["events"] for row in rows)
            if not (count >= min_count if min_count is not None
                    else candidate.unambiguous or count >= DEFAULT_MIN_COUNT):
                continue
            item = candidate.to_dict()
            item.update(count=count, sessions=sum(row["sessions"] for row in rows), **_counts(rows))
            found.append(item)
    finally:
        scratch.close()
    return sorted(found, key=lambda item: (-item["confidence"], -item["people"], -item["count"], item["id"]))


def _scratch_store(conn, groups: list[dict]) -> dict:
    """Fill a scratch store with each aggregate row as a session of its own: the failure (its shape
    as the command) and what worked after it. A row seen in several sessions is written as two, so
    that ``dp.learn`` sees an answer recur as it would in a person's store. Returns each failure's
    row id → its aggregate row."""
    from dp.store import desires as table
    from dp.store.migrations import migrate

    migrate(conn)
    rows = []
    for number, group in enumerate(groups):
        flags = json.loads(group["flags"])
        then = json.loads(group["then_shapes"])
        shown = json.dumps({"command": label(group["tool_name"], group["command"], group["subcommand"], flags)}
                           if group["tool_name"] == BASH_TOOL else dict.fromkeys(json.loads(group["input_keys"]), ""))
        for copy in range(min(group["sessions"], 2) if then else 1):
            session = f"team-{number}-{copy}"
            cwd = _repository_stand_in(group, copy)
            rows.append(_row(f"{session}:0", group["outcome"], group,
                             shown if group["outcome"] == "failure" else None, group["error_hint"], session, cwd))
            for step, (command, subcommand, done_flags) in enumerate(then, start=1):
                done = {**group, "tool_name": BASH_TOOL, "command": command, "subcommand": subcommand,
                        "flags": json.dumps(done_flags), "input_keys": "[]", "error_class": ""}
                rows.append(_row(f"{session}:{step}", "success", done,
                                 json.dumps({"command": label(BASH_TOOL, command, subcommand, done_flags)}), None,
                                 session, cwd))
    table.add(conn, rows)
    return {row_id: groups[int(key.split("-")[1])]
            for row_id, key in conn.execute("SELECT id, event_key FROM desires WHERE outcome = 'failure'")}


def _repository_stand_in(group: dict, copy: int) -> str:
    """A directory standing for one of the repositories the group was seen in (by its pseudonym), so that
    learning, which binds an answer other than a plain rename to the repositories it was seen in
    (``dp.learn.answer.repository``), reads the team's sessions as a person's: two in one repository
    suffice there. A group whose sessions had no repository (no origin to name) stands in one place, as the
    person's own sessions in one directory do. The path exists nowhere; only its name is compared."""
    names = [name for name in group.get("repositories") or [] if isinstance(name, str) and name.isalnum()]
    return f"/dp-team-repository/{names[copy % len(names)] if names else 'unnamed'}"


def _row(key: str, outcome: str, group: dict, tool_input, error, session: str, cwd: str = "") -> dict:
    return {"source": "team", "event_key": key, "outcome": outcome, "tool_name": group["tool_name"],
            "tool_input": tool_input, "error": error, "command": group["command"], "subcommand": group["subcommand"],
            "flags": group["flags"], "input_keys": group["input_keys"], "error_class": group["error_class"],
            "session_id": session, "cwd": cwd, "timestamp": group["last_seen"]}


def team_stats(db_path, directory: str, since: str = "", agent: str = "") -> tuple[dict, str]:
    """``(report, note)``: the team's ``dp stats --json`` object from ``since`` on (a stored timestamp;
    counted from its day: the team's times are days) — the same keys and counts as a person's
    (``dp.desires.stats.stats``), plus ``people`` in all, per rule and per agent (``dp.team.outcomes.figures``).
    Live when the database answers; else the last figures read, with a note saying when and since when.
    Only agent ``agent``'s actions when given. The one way a team's figures are read (``dp stats --team``,
    ``dp report --team``)."""
    from dp.team import outcomes

    url = resolve_url(db_path, directory)
    try:
        with server.connect(url) as conn:
            server.require_schema(conn)
            rows, _skipped = server.outcomes(conn, since)
    except server.Unreachable as exc:
        _best_effort(sync.failed, db_path, url, exc)
        kept = _saved_outcomes(db_path, url)
        if kept is None:
            raise
        return outcomes.figures(kept["rows"], kept["since"], agent), (
            f"{exc.message}; showing the team's figures as of {kept['at']} (since {kept['since'] or 'the start'})")
    _best_effort(_save_outcomes, db_path, url, rows, since)
    return outcomes.figures(rows, since, agent), ""


def _outcomes_path(db_path, url: str) -> str:
    return sync.aggregates_path(db_path, url).replace(".json", "-outcomes.json")


def _save_outcomes(db_path, url: str, rows: list[dict], since: str) -> None:
    from dp.files import write_atomically

    write_atomically(_outcomes_path(db_path, url),
                     json.dumps({"url": url, "at": sync.now(), "since": since, "rows": rows}).encode())


def _saved_outcomes(db_path, url: str) -> dict | None:
    """The figures the last live read kept, read back through the same check (None when there are none)."""
    from dp.files import read_bytes
    from dp.team import outcomes

    try:
        kept = json.loads(read_bytes(_outcomes_path(db_path, url), 8 << 20) or b"null")
    except (OSError, ValueError, RecursionError, DpError):
        return None
    if not isinstance(kept, dict) or kept.get("url") != url or not isinstance(kept.get("rows"), list):
        return None
    rows = [outcomes.accept(row) if isinstance(row, dict) else None for row in kept["rows"][:outcomes.MAX_ROWS]]
    return {"rows": [row for row in rows if row is not None], "at": str(kept.get("at")),
            "since": kept.get("since") if isinstance(kept.get("since"), str) else ""}
