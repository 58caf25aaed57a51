"""What dp did and what happened next, for a team (issue 51): each action as a shape, the team's figures back.

An action leaves the machine as the same kind of data as a captured event,
nothing more (docs/team.md): the kind of action and the rule's source (fixed
words), the program the rule rewrote away and the one it wrote (command words,
checked as ``shapes`` checks them: a rule's text, a learned answer's wording or
a command's arguments never leave), the agent's name (one dp serves), what
``dp stats`` judged happened next (an outcome word and yes/no counts:
``dp.desires.stats.judge``), the time, and the pseudonyms and ids an event
has. Each upload row is built from ``ACTION_FIELDS``, an allowlist with one
check per field, like ``shapes.UPLOAD_FIELDS``.

What happened next can change after an action is first sent (``dp ingest``
reads an agent's session files later), so each sync sends the actions it
never sent and again those of the last ``RESEND_SECONDS``; the database keeps
the newest judgement of each (``dp_upload_actions``).

Back from the database come counts per rule and agent (``dp_team_outcomes``),
checked and bounded like the events' aggregates (``accept``), and turned into
exactly the object ``dp stats --json`` prints (``dp.desires.stats.figures``):
``dp stats --team`` and ``dp report --team`` read the team through ``report``.
"""

from __future__ import annotations

import time

from dp.desires import stats as counting
from dp.team.shapes import HEX, TIME, command_word, digest, optional, required

RESEND_SECONDS = 2 * 86_400
KINDS = ("rewrite", "advise", "block", "paving", "answer", "shadow")
SOURCES = ("", "user", "project", "local", "paving", "learned")
OUTCOMES = ("success", "failure", "unknown")
JUDGED = counting.COUNTS[4:]  # undone, prevented, … : yes or no per action
SCOPES = ("rule-agent", "rule", "agent", "all")
MAX_ROWS = 10_000
OUTCOME_COLUMNS = ("scope", "kind", "rule_source", "from_command", "to_command", "agent", *counting.COUNTS[:1],
                   "succeeded", "failed", "unknown", *JUDGED, "people")


def _one_of(words, otherwise=None):
    return lambda value: value if value in words else otherwise


def _agent(value):
    from dp.agents import names

    return value if value in names() else ""


def _yes_no(value):
    return value if type(value) is bool else None


# Every field an action's upload row has, with the check its value must pass (as shapes.UPLOAD_FIELDS:
# None and the row is not sent). Nothing outside this table can be uploaded.
ACTION_FIELDS = {
    "machine": required(HEX),
    "action_id": required(HEX),
    "repository": optional(HEX),
    "session": optional(HEX),
    "agent": _agent,
    "kind": _one_of(KINDS),
    "rule_source": _one_of(SOURCES, ""),
    "from_command": command_word,
    "to_command": command_word,
    "outcome": _one_of(OUTCOMES),
    **{name: _yes_no for name in JUDGED},
    "happened_at": required(TIME),
}
ACTION_COLUMNS = tuple(ACTION_FIELDS)


def upload_row(values: dict) -> tuple | None:
    """The upload row of ``values`` (exactly ``ACTION_FIELDS``), each as its check leaves it; None when one fails."""
    if set(values) != set(ACTION_FIELDS):
        raise ValueError(f"an action's upload row has exactly the fields {', '.join(ACTION_COLUMNS)}")
    row = tuple(check(values[field]) for field, check in ACTION_FIELDS.items())
    return None if None in row else row


def action_row(judged: dict, shaper) -> tuple | None:
    """The upload row of one action as ``dp.desires.stats.judge`` left it (None: not a shape)."""
    key = judged["event_key"] or f"row:{judged['id']}:{judged['timestamp']}"
    return upload_row({
        "machine": shaper.machine, "action_id": digest(f"{key}\0{judged['kind']}\0{judged['rule']}", 32),
        "repository": shaper.repository(judged["cwd"]),
        "session": digest(f"{shaper.machine}:{judged['session_id']}") if judged["session_id"] else "",
        "agent": judged["agent"], "kind": judged["kind"], "rule_source": judged["rule_source"],
        "from_command": judged["from_command"], "to_command": judged["to_command"], "outcome": judged["outcome"],
        **{name: bool(judged[name]) for name in JUDGED}, "happened_at": judged["timestamp"]})


def pending(local, sent_up_to: int, shaper, goes_here) -> tuple[list[tuple], int]:
    """``(rows, last id)``: the upload rows of the actions after ``sent_up_to`` and of the last
    ``RESEND_SECONDS`` whose directory ``goes_here`` (their judgement of what happened next as of now)."""
    from dp.capture.actions import iso
    from dp.store import actions as stored

    if not counting.has_actions(local):
        return [], sent_up_to
    found = stored.sent_or_recent(local, sent_up_to, iso(time.time() - RESEND_SECONDS))
    rows = [action_row(counting.judge(local, action), shaper) for action in found if goes_here(action["cwd"])]
    return [row for row in rows if row is not None], max([sent_up_to, *(action["id"] for action in found)])


def summary(rows: list[tuple]) -> list[list]:
    """Action upload rows counted by what they show: ``[count, kind, rule, source, agent, outcome, next]``."""
    counts: dict[tuple, int] = {}
    for row in rows:
        item = dict(zip(ACTION_COLUMNS, row))
        key = (item["kind"], rule_label(item), item["rule_source"], item["agent"], item["outcome"],
               ", ".join(name for name in JUDGED if item[name]))
        counts[key] = counts.get(key, 0) + 1
    return [[count, *key] for key, count in sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))]


def rule_label(item: dict) -> str:
    """A rule as the team sees it: the program it rewrote away and the one it wrote (``grep → rg``);
    a learned answer's (``learned: python → python3``). Never its text."""
    base, to = item["from_command"] or "?", item["to_command"]
    shown = f"{base} → {to}" if to and to != base else base
    return f"learned: {shown}" if item["kind"] == "answer" else shown


# -- back from the database ----------------------------------------------------


def accept(row: dict) -> dict | None:
    """``row`` (``OUTCOME_COLUMNS``) when every field is what the schema holds, else None."""
    from dp.team.download import word

    try:
        ok = (row["scope"] in SCOPES and row["kind"] in (*KINDS, "") and row["rule_source"] in SOURCES
              and word(row["from_command"]) and word(row["to_command"]) and word(row["agent"], 40)
              and all(type(row[name]) is int and 0 <= row[name] < 1 << 53 for name in OUTCOME_COLUMNS[6:])
              and row["actions"] >= 1 and all(row[name] <= row["actions"] for name in OUTCOME_COLUMNS[7:-1])
              and row["people"] >= 1)
    except (KeyError, TypeError):
        return None
    return {name: row[name] for name in OUTCOME_COLUMNS} if ok else None


def figures(rows: list[dict], since: str, agent: str = "") -> dict:
    """The ``dp stats --json`` object of a team from its accepted rows: the same keys and counts as a
    person's (``dp.desires.stats.figures``), rules named by ``rule_label``, and how many people acted
    in all, per rule and per agent (of agent ``agent``'s actions only, when given: then a rule's people
    are not counted, None). ``calls_seen`` is None: calls no rule touched are not counted per call."""
    detail = [row for row in rows if row["scope"] == "rule-agent" and (not agent or row["agent"] == agent)]
    report = {"since": since, "calls_seen": None, **counting.figures([
        {"rule": rule_label(row), "kind": row["kind"], "source": row["rule_source"], "agent": row["agent"],
         **{name: row[name] for name in counting.COUNTS}} for row in detail])}
    people = {(row["scope"], rule_label(row) if row["scope"] == "rule" else row["agent"]): row["people"]
              for row in rows if row["scope"] in ("rule", "agent")}
    for rule in report["rules"]:
        rule["people"] = None if agent else people.get(("rule", rule["rule"]), 0)
        rule.update(origin="", switched_off=False)  # dp switches off only a person's own rules, in their store
    for found in report["agents"]:
        found["people"] = people.get(("agent", "" if found["agent"] == "?" else found["agent"]), 0)
    report["people"] = people.get(("agent", agent), 0) if agent else next(
        (row["people"] for row in rows if row["scope"] == "all"), 0)
    report["switched_off"] = []
    return report
