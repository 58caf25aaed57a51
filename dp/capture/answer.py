"""The answer at the moment of failure: what dp knows, or learned, that covers this failed call, told once.

Runs inside ``dp-capture`` after a failed call, after the failure is stored (no process of its own).

First what dp knows now, with no history (``dp.learn.known``: a table read backwards, another name on
PATH, the project's wrapper in a trusted repository, the project's tasks, a literal slip, the agent's own
tool). Then, where knowledge has nothing, what it learned: one indexed query
(``dp.store.learned.answers_for``, keyed on the failing command word) finds the answers ``dp.learn``
stored; one applies when it was learned from failures of this call's class and it yields a corrected
call whose program is there (a renamed command on this PATH, a path in this working directory, a
runner's program in the project's ``node_modules/.bin`` when the runner would download it otherwise).
An answer other than a plain rename applies only in a repository it was learned in, and every answer is
judged again by ``dp.learn.carry`` before it is told (a row an older dp learned included): nothing that
brings code, nothing with a control character (issue 46, finding 5).

The session hears each change once, however dp found it (``dp.store.learned.tell_once``: the ``told``
table, keyed by the change), in the agent's own after-failure channel: the adapter's ``answer`` with a
context decision. What was told is dp's action (``dp.capture.actions.answered``: ``dp stats`` and
``dp suggest`` judge it by the agent's next call), its rule named by where it came from: ``learned #ID:
from → to`` or ``known (kind): from → to``.
"""

from __future__ import annotations

import os

from dp.store.connection import sqlite3  # the C module (dp.store.connection): no datetime to import

MAX_ANSWERS = 8
LEARNED = "learned"  # where an answer learned from history came from (else a dp.learn.known kind)


class Told:
    """One answer to tell: where it came from (``source``: ``learned`` or a ``dp.learn.known`` kind), the
    change it is keyed by (``KEY``), the program it leads to, the action's rule, and the agent's text."""

    __slots__ = ("source", "key", "leads_to", "rule", "text")

    def __init__(self, source: str, key: tuple, leads_to: str, rule: str, text: str):
        self.source, self.key, self.leads_to, self.rule, self.text = source, key, leads_to, rule, text


def told(conn, agent, event, row: dict) -> str:
    """What to print for the failed call ``event`` (stored as ``row``): the agent's answer, or ''."""
    command = event.tool_input.get("command") if isinstance(event.tool_input, dict) else None
    if row["tool_name"] != "Bash" or not row["command"] or not isinstance(command, str) or not event.session:
        return ""
    from dp.learn.answer import plain

    word = row["command"].split(" ", 1)[0]  # the word typed first: a runner's (`npx tsc`), as answers learn it
    if not plain(word):
        return ""  # a control character the agent's own call held: dp repeats none
    found = _known(conn, agent, event, row, command, word) or _learned(conn, event, row, command, word)
    if found is None or not _tell_once(conn, event.session, found.key):
        return ""
    from dp.capture.actions import answered

    answered(conn, agent, row, found.rule, found.source, found.leads_to)  # judged by the agent's next call
    from dp.agents.base import CONTEXT, Decision

    return agent.answer(event, Decision(CONTEXT, found.text))[1]


def _known(conn, agent, event, row: dict, command: str, word: str) -> Told | None:
    """What dp knows now (``dp.learn.known``), or None."""
    from dp.learn.known import Failure, known

    def trusts(root: str) -> bool:
        from dp.store.trust import repository_trusted

        return repository_trusted(conn, root)

    found = known(Failure(command, word, event.error, row["error_class"], event.cwd, agent, trusts))
    if found is None:
        return None
    leads_to = found.leads_to
    return Told(found.source, found.key, leads_to, f"known ({found.source}): {found.from_text} → {found.to_text}",
                found.text)


def _learned(conn, event, row: dict, command: str, word: str) -> Told | None:
    """The answers dp learned, or None."""
    from dp.learn.answer import AT_START, MAX_COMMAND_CHARS, message, plain
    from dp.learn.tables import corrected_call
    from dp.store.learned import KEY, answers_for

    try:
        found = answers_for(conn, "Bash", [word])[:MAX_ANSWERS]
    except sqlite3.OperationalError:  # a store from before learning (0007) or before its scope (0008)
        return None
    for answer in found:
        if row["error_class"] not in answer["evidence"].get("error_classes", ()):
            continue
        here = _sessions_here(answer, event.cwd)
        if here is None:
            continue
        corrected = corrected_call(answer, command)
        if corrected is None or not _target_present(answer, event.cwd) or not plain(corrected, MAX_COMMAND_CHARS):
            continue
        target = answer["to_text"].split(" ")[0]
        leads_to = target if target and not target.startswith("-") and answer["kind"] in AT_START else ""
        return Told(LEARNED, tuple(answer[name] for name in KEY), leads_to,
                    f"learned #{answer['id']}: {answer['from_text']} → {answer['to_text']}",
                    message(answer, word, corrected, here))
    return None


def _tell_once(conn, session: str, key: tuple) -> bool:
    """``tell_once`` on the ``told`` table, the store brought up to date first when it is older."""
    from dp.store.learned import tell_once

    try:
        return tell_once(conn, session, key)
    except sqlite3.OperationalError as exc:
        if "no such table" not in str(exc):
            raise
    from dp.store.migrations import migrate

    migrate(conn)
    return tell_once(conn, session, key)


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
        from dp.shell.programs import on_path

        return bool(on_path(target)) and _runs_what_is_installed(answer, cwd)
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
    from dp.learn.inproject import node_bin

    return node_bin(answer["from_text"].split(" ")[0], cwd) is not None
