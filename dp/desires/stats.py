"""``dp stats``: what dp did to agents' calls and what happened next, counted (issue 51).

Every figure is a count of stored events, never an estimate (docs/stats.md says
how each is counted). An action (``dp.store.actions``: a rule's rewrite, a
block, a paving, a learned answer told) is joined here to the captured calls of
its session (desires): the acted-on call (by its call id; for an agent that
sends none, the session's first Bash call from the action on) and the call
after it. From those two:

* ``succeeded`` / ``failed``: the acted-on call's outcome (``unknown`` when it
  was not captured, e.g. a block, or a session not yet ingested);
* ``undone``: the next call ran the program the rule rewrote away;
* ``prevented``: the rewritten call succeeded where the program it replaced
  had failed in an earlier session;
* ``failed_where_original_worked``: it failed where the program it replaced
  had succeeded in an earlier session;
* ``harmed``: either of the two above (failed where the original worked, or
  undone): the calls ``dp.desires.hurting`` weighs to switch off a rule dp made;
* ``needless`` (shadow rules): the call worked as typed and the agent's next
  call did not go the rule's way: a rewrite would have changed a call that
  needed no change;
* ``followed`` / ``followed_and_worked`` (answers, and shadow rules, which
  rewrite nothing): the next call ran the program the answer or the rule leads
  to (and succeeded); ``repeated``: the next call failed with the same program
  again.

A rule ``hurts`` when at least ``HURT_MIN`` of its calls failed or were
undone, and more than succeeded. Each rule says its ``origin`` (``suggest``:
dp suggest --apply made it) and whether dp ``switched_off`` it
(``dp.desires.hurting``); the rules dp switched off are listed too.
"""

from __future__ import annotations

from dp.store import actions as stored

HURT_MIN = 2
_OUTCOME_COUNT = {"success": "succeeded", "failure": "failed"}
WATCHED = ("answer", "shadow")  # kinds that leave the call as typed and watch the agent's next call
COUNTS = ("actions", "succeeded", "failed", "unknown", "undone", "prevented", "failed_where_original_worked",
          "followed", "followed_and_worked", "repeated", "needless")
# Counted for a person's store only: a team's rows (dp.team.outcomes, its PostgreSQL columns) carry COUNTS.
MINE = ("harmed",)


def stats(conn, since: str = "", agent: str = "", project: str = "") -> dict:
    """The ``dp stats --json`` object for the store ``conn`` (None: no store, nothing to count)."""
    return summary(conn, judged(conn, since, agent, project), since, agent, project)


def judged(conn, since: str = "", agent: str = "", project: str = "") -> list[dict]:
    """Every action from ``since`` on (of ``agent``, under ``project``), oldest first, each ``judge``d:
    what ``summary`` counts, and what ``dp report`` draws day by day."""
    found = stored.actions(conn, since, agent, project) if conn is not None and has_actions(conn) else []
    return [judge(conn, action) for action in found]


def summary(conn, acted: list[dict], since: str = "", agent: str = "", project: str = "") -> dict:
    """The ``dp stats --json`` object from the judged actions ``acted`` (``calls_seen`` read from ``conn``)."""
    report = {
        "since": since,
        "calls_seen": None if agent or conn is None else stored.calls_seen(conn, since, project),
        **figures([tally(action) for action in acted]),
    }
    report["rules"] = _with_origins(conn, report["rules"])  # a person's store: whose each rule is, and what dp
    report["switched_off"] = _switched_off(conn)  # switched off (a team's figures have neither)
    return report


def tally(judged: dict) -> dict:
    """One judged action as the counts ``figures`` sums (a team's rows arrive already summed this way)."""
    return {"rule": judged["rule"], "kind": judged["kind"], "source": judged["rule_source"],
            "agent": judged["agent"], "actions": 1,
            **{_OUTCOME_COUNT.get(judged["outcome"], "unknown"): 1},
            **{count: int(judged[count]) for count in (*COUNTS[4:], *MINE)}}


def figures(tallies: list[dict]) -> dict:
    """The totals, per rule and per agent of ``dp stats`` from tallies (``tally``'s keys, counts
    missing where 0): the one place a person's and a team's figures are counted (``dp stats --team``)."""
    def total(*kinds) -> int:
        return sum(item["actions"] for item in tallies if item["kind"] in kinds)

    return {
        "rewritten": total("rewrite", "paving"), "advised": total("advise"), "blocked": total("block"),
        "answered": total("answer"), "shadowed": total("shadow"),
        "prevented": sum(item.get("prevented", 0) for item in tallies),
        "answers_followed": sum(item.get("followed", 0) for item in tallies if item["kind"] == "answer"),
        "rules": _by(tallies, "rule"),
        "agents": _by(tallies, "agent"),
    }


def answers_of(conn, change: str) -> dict:
    """How often dp told an answer making ``change`` (``from → to``, how an answer's rule ends) right after a
    failure, learned or known (issue 50), and how often the agent's next call then ran the program it leads
    to (``followed``, as ``dp stats`` counts it): what ``dp suggest`` shows beside a learned rule."""
    found = [action for action in stored.actions(conn) if action["kind"] == "answer"
             and action["rule"].endswith(f": {change}")] if conn is not None and has_actions(conn) else []
    return {"told": len(found), "followed": sum(judge(conn, action)["followed"] for action in found)}


def _with_origins(conn, rules: list[dict]) -> list[dict]:
    """Each rule of the user's store with its ``origin`` (dp made it: ``suggest``) and whether dp switched it
    off; a rule of another layer, or gone, has origin ''."""
    from dp.rules.apply import label
    from dp.store.origins import made_rules, switched_off

    off = {entry["label"]: entry["rule"].origin for entry in switched_off(conn)} if conn is not None else {}
    made = {label(rule): rule.origin for rule in made_rules(conn)} if conn is not None else {}
    for rule in rules:
        mine = rule["source"] == "user"
        rule["origin"] = (made.get(rule["rule"]) or off.get(rule["rule"]) or "") if mine else ""
        rule["switched_off"] = mine and rule["rule"] in off
    return rules


def _switched_off(conn) -> list[dict]:
    """The rules dp switched off, with why and when, and whether the person was told already."""
    from dp.store.origins import switched_off

    return [{"rule": entry["label"], "origin": entry["rule"].origin, "reason": entry["reason"], "at": entry["at"],
             "told": entry["told"]} for entry in (switched_off(conn) if conn is not None else [])]


def has_actions(conn) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'actions'").fetchone() is not None


def judge(conn, action: dict) -> dict:
    """``action`` with what happened next: its call's outcome and the next call's relation to it."""
    mine, after = _call_and_next(conn, action)
    outcome = mine["outcome"] if mine else "unknown"
    original, written = _program(action["from_command"]), _program(action["to_command"])
    next_ran = after["commands"] if after else ()
    next_outcome = after["outcome"] if after else ""
    ran_written = bool(written) and written in next_ran
    # An answer and a shadow rule changed nothing the agent ran: what counts is whether its next call was theirs.
    is_answer = action["kind"] in WATCHED
    effects = _answer_effects(ran_written, next_outcome) if is_answer else \
        _rewrite_effects(conn, action, outcome, (original, written), next_ran)
    return {
        **action,
        "outcome": outcome,
        **effects,
        "needless": action["kind"] == "shadow" and outcome == "success" and not ran_written,
        "repeated": next_outcome == "failure" and (original or written) in next_ran
        and (is_answer or outcome == "failure"),
    }


def _call_and_next(conn, action: dict) -> tuple[dict | None, dict | None]:
    """The call ``action`` acted on (None when it was not captured) and the session's call after it."""
    rows = stored.calls_after(conn, action["session_id"], action["timestamp"], action["event_key"]) \
        if action["session_id"] else []
    calls = _calls(rows)
    mine = _acted_on(calls, action["event_key"])
    after = calls[calls.index(mine) + 1] if mine in calls and calls.index(mine) + 1 < len(calls) else None
    return mine, after


def _rewrite_effects(conn, action: dict, outcome: str, programs: tuple[str, str], next_ran) -> dict:
    """What a rewrite did: prevented a failure the original had, failed where the original had worked, or was
    undone by the agent running the original next."""
    original, written = programs
    earlier = stored.earlier_outcomes(conn, original, action["timestamp"], action["session_id"]) \
        if original and original != written else set()
    undone = bool(original) and original != written and original in next_ran
    worse = outcome == "failure" and "success" in earlier
    return {"undone": undone, "prevented": outcome == "success" and "failure" in earlier,
            "failed_where_original_worked": worse, "harmed": undone or worse,
            "followed": False, "followed_and_worked": False}


def _answer_effects(ran_written: bool, next_outcome: str) -> dict:
    """What an answer (or a shadow rule) led to: whether the agent's next call was the one it named, and worked."""
    return {"undone": False, "prevented": False, "failed_where_original_worked": False, "harmed": False,
            "followed": ran_written, "followed_and_worked": ran_written and next_outcome == "success"}


def _program(word: str) -> str:
    """A program as a captured shape names it (``./gradlew`` → ``gradlew``, as dp.shell.shape does)."""
    return word.rsplit("/", 1)[-1]


def _calls(rows) -> list[dict]:
    """Shape rows grouped into calls, in order: each call's key, outcome and the programs it ran."""
    calls: list[dict] = []
    for key, outcome, shape_command, _klass, timestamp in rows:
        command = shape_command.split(" ", 1)[0]  # the word typed first: `npx` of `npx tsc`, as rules name it
        base = key.rsplit("#", 1)[0] if key and "#" in key else (key or f"@{timestamp}")
        if calls and calls[-1]["key"] == base:
            calls[-1]["commands"].append(command)
            if outcome == "failure":
                calls[-1]["outcome"] = "failure"
            continue
        calls.append({"key": base, "outcome": outcome, "commands": [command]})
    return calls


def _acted_on(calls: list[dict], event_key):
    """The call the action was on: by its key, else (no call id) the first call from the action on."""
    if event_key:
        return next((call for call in calls if call["key"] == event_key), None)
    return calls[0] if calls else None


def _by(tallies: list[dict], field: str) -> list[dict]:
    """Per ``field`` (rule, agent): how many actions, and each outcome counted; most actions first."""
    groups: dict = {}
    for item in tallies:
        name = item[field] or "?"
        group = groups.setdefault(name, {field: name, "kind": item["kind"], "source": item["source"],
                                         **{count: 0 for count in (*COUNTS, *MINE)}})
        for count in (*COUNTS, *MINE):
            group[count] += item.get(count, 0)
    for group in groups.values():
        harm = group["failed"] + group["undone"]
        group["hurts"] = field == "rule" and group["kind"] not in WATCHED and harm >= HURT_MIN \
            and harm > group["succeeded"]
        if field == "agent":
            del group["kind"], group["source"]
    return sorted(groups.values(), key=lambda group: (-group["actions"], group[field]))


# A shadow rule is offered for promotion (dp suggest) once it has this many records, every one of them clean:
# the call it would have rewritten failed as typed, or the agent's own next call ran what the rule would have
# written. One record where the call worked as typed and the agent never went the rule's way is not clean: the
# rule would have changed a call that needed no change.
PROMOTE_MIN = 2


def clean_shadows(conn) -> set:
    """The rules (as ``dp stats`` names them) of the shadow records that are clean (``PROMOTE_MIN``)."""
    report = stats(conn)
    return {rule["rule"] for rule in report["rules"] if rule["kind"] == "shadow" and rule["actions"] >= PROMOTE_MIN
            and rule["needless"] == 0 and rule["unknown"] == 0}
