"""The answer at the moment of failure: a learned answer that covers this failed call, told once.

Runs inside ``dp-capture`` after a failed call, after the failure is stored
(no process of its own). One indexed query (``dp.store.learned.answers_for``,
keyed on the failing command word) finds the answers ``dp.learn`` stored; one
applies when it was learned from failures of this call's class and it yields
a corrected call whose program is there (a renamed command on this PATH, a
path in this working directory, a runner's program in the project's
``node_modules/.bin`` when the runner would download it otherwise). An answer
other than a plain rename applies only in a repository it was learned in,
and every answer is judged again by ``dp.learn.carry`` before it is told (a
row an older dp learned included): nothing that brings code, nothing with a
control character (issue 46, finding 5). The session hears it once
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
    from dp.learn.answer import MAX_COMMAND_CHARS, message
    from dp.learn.carry import plain
    from dp.learn.tables import corrected_call
    from dp.store.learned import answers_for, tell_once

    word = row["command"].split(" ", 1)[0]  # the word typed first: a runner's (`npx tsc`), as answers learn it
    try:
        found = answers_for(conn, "Bash", [word])[:MAX_ANSWERS]
    except sqlite3.OperationalError:  # a store from before learning (0007) or before its scope (0008)
        return ""
    for answer in found:
        if row["error_class"] not in answer["evidence"].get("error_classes", ()):
            continue
        here = _sessions_here(answer, event.cwd)
        if here is None:
            continue
        corrected = corrected_call(answer, command)
        if corrected is None or not _target_present(answer, event.cwd):
            continue
        if not plain(corrected, MAX_COMMAND_CHARS) or not plain(word):
            continue  # a control character the agent's own call held: dp repeats none
        text = message(answer, word, corrected, here)
        if not tell_once(conn, event.session, answer["id"]):
            return ""
        from dp.capture.actions import answered

        answered(conn, agent, event, row, answer)  # dp's action, judged by the agent's next call (dp stats)
        from dp.agents.base import CONTEXT, Decision

        return agent.answer(event, Decision(CONTEXT, text))[1]
    return ""


def _sessions_here(answer: dict, cwd):
    """0 for a plain rename (it acts everywhere, in dp's voice); for any other answer, in how many sessions
    it was learned in the repository of ``cwd`` — None when in none, or when it would bring code."""
    from dp.learn.answer import repository
    from dp.learn.carry import carried, plain_rename

    if carried(answer["kind"], answer["command"], answer["from_text"], answer["to_text"]):
        return None
    if plain_rename(answer):
        return 0
    return answer["scope"].get(repository(cwd) or "") or None


def _target_present(answer: dict, cwd) -> bool:
    """Whether the program the answer leads to is there: never an answer that fails in turn."""
    from dp.learn.answer import COMMAND, PATH

    target = answer["to_text"].split(" ")[0]
    if answer["kind"] == PATH:
        return bool(cwd) and os.access(os.path.join(str(cwd), target), os.X_OK)
    if answer["kind"] == COMMAND or target != answer["command"]:
        return shutil.which(target) is not None and _runs_what_is_installed(answer, cwd)
    return True


def _runs_what_is_installed(answer: dict, cwd) -> bool:
    """For a runner that downloads the program a project lacks (``npx tsc``: ``dp.learn.carry.LOCAL_FIRST``),
    whether the project has it in ``node_modules/.bin``, in ``cwd`` or above it up to its repository's root:
    the answer then runs the project's own copy, never a download. True for every other answer."""
    from dp.learn.carry import LOCAL_FIRST, runner

    if runner(answer["from_text"], answer["to_text"]) not in LOCAL_FIRST:
        return True
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        return False
    from dp.layers.locate import repo_root
    from dp.paths import walk_up_text

    root, program = repo_root(cwd), answer["from_text"].split(" ")[0]
    for folder in walk_up_text(cwd):
        if os.access(os.path.join(folder, "node_modules", ".bin", program), os.X_OK):
            return True
        if folder == root or root is None:
            return False
    return False
