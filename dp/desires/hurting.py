"""A rule dp made that hurts clearly is switched off (issue 51).

``dp stats`` flags any rule that hurts (``dp.desires.stats``: at least 2 of its
calls failed or were undone, more than succeeded) and so does ``dp doctor``.
A person's rule is only flagged: it is their decision. A rule ``dp suggest
--apply`` made from captured evidence (origin ``suggest``, migration 0013) is
dp's own decision, and when the evidence since it was applied clearly says it
was wrong, dp takes it back: the rule moves to ``switched_off_rules``, where it
no longer acts and is kept for the record. Only narrowing: dp never enables a
rule; a person does, with ``dp alias`` and the same rule (the rule is then
theirs).

Clear evidence is stricter than "hurts", because a switch-off acts without
asking. A failed rewritten call alone is no evidence against the rule (``grep
PATTERN missing-file`` fails under rg as it would under grep); a call is
*harmed* only when it failed where the program the rule replaced had succeeded
in an earlier session, or when the agent's next call ran that program again
(it undid the rewrite). A rule is switched off when at least ``CLEAR_MIN`` of
its calls since it was applied were harmed, and harmed calls are at least
``CLEAR_RATIO`` times its successful ones. Why 2: one harmed call may be an
accident of that call (a typo the rewrite kept, a flaky build); two are two
separate calls the rewrite made worse, the same bar ``dp stats`` sets for
"hurts", and waiting for more leaves the rule breaking the agent's calls. Why
two to one: a rule whose rewrites also succeed often is helping somewhere, and
that is for the person to weigh (it stays flagged); a rule that harms at least
twice as often as it helps has lost more than it gained.

Run where evidence reaches the store and a write is allowed anyway: ``dp stats``
and ``dp ingest`` (after they move the hook's notes and the session files in),
and, so that no person has to run anything, in a detached process each
SessionStart starts when a rule dp made acts (``dp.hook.session._start_switch_off``;
``main``). Not in ``dp-capture``: the hook's note of the call that just failed
is still settling in its spool then (``dp.capture.actions``), and the judgement
joins a session's calls, which is no work for every tool call; pave-check's
path is never touched. The person hears of it once (``told``): the first ``dp stats`` or
``dp ingest`` after it says so; ``dp stats`` lists it from then on, and ``dp
doctor`` warns until it has been told.
"""

from __future__ import annotations

import contextlib
import shlex

CLEAR_MIN = 2
CLEAR_RATIO = 2
_ACTING = ("rewrite", "advise")  # the kinds of action a rule that acts leaves (not a shadow's record)


def record(conn, rule) -> dict:
    """What ``rule`` (one of the user's store) did since it was applied, as ``dp stats`` counts it."""
    from dp.desires.stats import judge
    from dp.rules.apply import label
    from dp.store import actions as stored

    name = label(rule)
    found = [judge(conn, action) for action in stored.actions(conn, rule.created_at[:19])
             if action["rule"] == name and action["kind"] in _ACTING and action["rule_source"] == "user"]
    counts = {"rule": name, "actions": len(found), "harmed": sum(action["harmed"] for action in found)}
    for count in ("failed_where_original_worked", "undone"):
        counts[count] = sum(action[count] for action in found)
    counts["succeeded"] = sum(action["outcome"] == "success" for action in found)
    return counts


def clear(counts: dict) -> bool:
    """Whether a record is clear evidence that the rule hurts (``CLEAR_MIN``, ``CLEAR_RATIO``)."""
    return counts["harmed"] >= CLEAR_MIN and counts["harmed"] >= CLEAR_RATIO * counts["succeeded"]


def reason(counts: dict) -> str:
    return (f"{counts['harmed']} of its {counts['actions']} rewritten calls were made worse "
            f"({counts['failed_where_original_worked']} failed where the program it replaced had worked, "
            f"{counts['undone']} undone by the agent), {counts['succeeded']} succeeded")


def switch_off(store) -> list[dict]:
    """Switch off each rule dp made (origin ``suggest``) whose record is clear evidence that it hurts;
    ``{"rule", "reason"}`` of each. A person's rule is never touched (``Store.switch_off`` holds that too)."""
    from dp.store.origins import made_rules

    done = []
    for rule in made_rules(store.conn):
        counts = record(store.conn, rule)
        if clear(counts) and store.switch_off(rule, counts["rule"], reason(counts)):
            done.append({"rule": counts["rule"], "reason": reason(counts)})
    return done


def switch_off_in(db_path) -> list[dict]:
    """``switch_off`` in the store at ``db_path`` after moving the hook's notes in (``dp stats``, the
    SessionStart's check), when there is a store dp may write; one dp may not write is left as it is."""
    from dp.capture import actions

    with _writable(db_path) as store:
        if store is None:
            return []
        actions.drain(store.conn, str(db_path), wait=True)
        return switch_off(store)


def tell(db_path, say) -> None:
    """``say`` the announcement of each rule dp switched off that the person was not told of yet, then record
    that they were: said once, by the first ``dp stats`` or ``dp ingest`` after the switch-off."""
    from dp.store.origins import switched_off

    with _writable(db_path) as store:
        news = [entry for entry in switched_off(store.conn) if not entry["told"]] if store is not None else []
        for entry in news:
            say(announcement(entry))
        if news:
            store.told_switched_off([entry["label"] for entry in news])


@contextlib.contextmanager
def _writable(db_path):
    """The store at ``db_path`` opened for writing, or None: no store (none is created), or one dp may not
    write (a reader goes on without what it would have written)."""
    import os

    from dp.errors import DpError
    from dp.store import Store

    if not os.path.isfile(os.path.expanduser(str(db_path))):
        yield None
        return
    try:
        store = Store.open(db_path)
    except DpError:
        yield None
        return
    with store:
        yield store


def enable_command(rule) -> str:
    """What a person types to make a switched-off rule act again."""
    from dp.rules.build import alias_args

    return shlex.join(["dp", "alias", *alias_args(rule)])


def announcement(entry: dict) -> str:
    """The one message that tells the person dp switched a rule off (``entry``: ``dp.store.origins.switched_off``)."""
    return (f"dp switched off rule {entry['label']}, which dp suggest --apply made: {entry['reason']}. It no longer "
            f"acts and is kept for the record (dp stats); to make it act again: {enable_command(entry['rule'])}")


def main(argv) -> int:
    """``main([STORE])``: the check a SessionStart starts detached (``dp.hook.session._start_switch_off``): silent,
    always 0; the person hears of a switch-off from the next dp stats, dp ingest or dp doctor."""
    try:
        if argv:
            switch_off_in(argv[0])
    except Exception:  # noqa: BLE001 - nobody waits for this process, and nothing here may be lost but the check
        pass
    return 0
