"""The answer at the moment of failure: a learned answer that covers this failed call, told once.

Runs inside ``dp-capture`` after a failed call, after the failure is stored
(no process of its own). One indexed query (``dp.store.learned.answers_for``,
keyed on the failing command word) finds the answers ``dp.learn`` stored; one
applies when it was learned from failures of this call's class and it yields
a corrected call whose program is there (a renamed command on this PATH, a
path in this working directory). The session hears it once
(``learned_told``), in the agent's own after-failure channel: the adapter's
``answer`` with a context decision.
"""

from __future__ import annotations

import os
import shutil
import sqlite3

MAX_ANSWERS = 8


def told(conn, agent, event, row: dict) -> str:
    """What to print for the failed call ``event`` (stored as ``row``): the agent's answer, or ''."""
    command = event.tool_input.get("command") if isinstance(event.tool_input, dict) else None
    if row["tool_name"] != "Bash" or not row["command"] or not isinstance(command, str) or not event.session:
        return ""
    from dp.learn.answer import message
    from dp.learn.tables import corrected_call
    from dp.store.learned import answers_for, tell_once

    try:
        found = answers_for(conn, "Bash", [row["command"]])[:MAX_ANSWERS]
    except sqlite3.OperationalError:  # a store from before learning (migration 0007)
        return ""
    for answer in found:
        if row["error_class"] not in answer["evidence"].get("error_classes", ()):
            continue
        corrected = corrected_call(answer, command)
        if corrected is None or not _target_present(answer, event.cwd):
            continue
        if not tell_once(conn, event.session, answer["id"]):
            return ""
        from dp.agents.base import CONTEXT, Decision

        return agent.answer(event, Decision(CONTEXT, message(answer, row["command"], corrected)))[1]
    return ""


def _target_present(answer: dict, cwd) -> bool:
    """Whether the program the answer leads to is there: never an answer that fails in turn."""
    from dp.learn.answer import COMMAND, PATH

    target = answer["to_text"].split(" ")[0]
    if answer["kind"] == PATH:
        return bool(cwd) and os.access(os.path.join(str(cwd), target), os.X_OK)
    if answer["kind"] == COMMAND or target != answer["command"]:
        return shutil.which(target) is not None
    return True
