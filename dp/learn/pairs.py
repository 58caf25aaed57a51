"""Fail→fix pairs: a failed Bash call and the later call of its session that did what it meant.

A pair holds when, within ``FOLLOW_CALLS`` calls after the failure, a call of
the same session succeeded, belongs to the same tool family (the same
command word, a sibling name — ``python``/``python3``, ``find.``/``find`` —
or the same program by path, ``./mvnw``/``mvn``) and shares most of its
arguments. The same call run again unchanged is a retry, not a fix: no pair.
Every source dp reads feeds the same rows (the capture hook, and through
``dp ingest`` every agent's session files), so pairs come from all of them.
"""

from __future__ import annotations

import json
from difflib import SequenceMatcher

from dp.learn.answer import command_starts, normalised, words
from dp.learn.carry import family, related
from dp.store import desires

FOLLOW_CALLS = 5
MIN_OVERLAP = 0.5


class Pair:
    """One failed call and the call that fixed it, redacted as stored."""

    __slots__ = ("failed", "fixed", "error_class", "error", "session", "cwd", "timestamp", "distance", "failed_id")

    def __init__(self, failed, fixed, error_class, error, session, cwd, timestamp, distance, failed_id=None):
        self.failed, self.fixed, self.error_class, self.error = failed, fixed, error_class, error
        self.session, self.cwd, self.timestamp, self.distance = session, cwd, timestamp, distance
        self.failed_id = failed_id  # the failure's row in the store

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__}


def stored_pairs(conn) -> list[Pair]:
    """Every fail→fix pair in the store's captured Bash calls."""
    found: list[Pair] = []
    session = None
    calls: list = []
    for row in desires.bash_calls(conn):
        if row[6] != session:
            found += session_pairs(calls)
            session, calls = row[6], []
        calls.append(row)
    return found + session_pairs(calls)


def session_pairs(calls: list) -> list[Pair]:
    """The pairs of one session's calls, in order (rows as ``desires.bash_calls`` gives them)."""
    found = []
    for index, (row_id, outcome, tool_input, error, klass, _cmd, session, cwd, when) in enumerate(calls):
        failed = _command(tool_input)
        if outcome != "failure" or failed is None:
            continue
        for distance, later in enumerate(calls[index + 1 : index + 1 + FOLLOW_CALLS], 1):
            fixed = _command(later[2])
            if fixed is None:
                continue
            if normalised(fixed) == normalised(failed):
                break  # run again unchanged: a retry (or a flaky call), not a fix
            if later[1] == "success" and same_intent(failed, fixed):
                found.append(Pair(failed, fixed, klass, _first_line(error), session, cwd, when, distance, row_id))
                break
    return found


def same_intent(failed: str, fixed: str) -> bool:
    """Whether ``fixed`` does what ``failed`` meant: same tool family and overlapping arguments."""
    old, new = words(failed), words(fixed)
    if not old or not new:
        return False
    old_starts, new_starts = _changed(old, new), _changed(new, old)
    if not old_starts or not new_starts:
        return False
    if not (_heads_meet(old, old_starts, new, new_starts) or _heads_meet(new, new_starts, old, old_starts)):
        return False
    ratio = SequenceMatcher(None, old, new, autojunk=False).ratio()
    if ratio >= MIN_OVERLAP or SequenceMatcher(None, failed, fixed, autojunk=False).ratio() >= 0.8:
        return True
    return _overlap_through_table(failed, fixed, old, old_starts, new, new_starts)


def _overlap_through_table(failed: str, fixed: str, old, old_starts, new, new_starts) -> bool:
    """Whether ``failed``, translated through a table between its program and the fix's, is the fix's
    search or shares most of its words with it (``rg -l x`` and ``grep -rl x .`` say the same in other words)."""
    from dp.learn.tables import same_search, table_pair, translated

    for source in {old[i] for i in old_starts}:
        for target in {new[j] for j in new_starts} - {source}:
            translation = translated(failed, source, target) if table_pair(source, target) else None
            if translation and (SequenceMatcher(None, words(translation) or [], new, autojunk=False).ratio() >= MIN_OVERLAP
                                or same_search(translation, fixed, target)):
                return True
    return False


def _changed(one: list[str], other: list[str]) -> list[int]:
    """Where the simple commands of ``one`` start that ``other`` does not hold word for word: the
    ``cd repo &&`` both calls begin with says nothing about whether one fixes the other."""
    starts = command_starts(one)
    ends = [*starts[1:], len(one)]
    theirs = command_starts(other)
    held = {tuple(other[a:b]) for a, b in zip(theirs, [*theirs[1:], len(other)])}
    return [a for a, b in zip(starts, ends) if tuple(one[a:b]) not in held]


def _heads_meet(one, one_starts, other, other_starts) -> bool:
    """Whether a command word of ``one`` names the program of a command of ``other``, as its first
    word or behind a runner (``uv pip``, ``python3 -m pytest``, ``npx jest``)."""
    heads = {family(word) for i in other_starts for word in other[i : i + 3]}
    return any(related(family(one[i]), head) for i in one_starts for head in heads)


def _command(tool_input) -> str | None:
    if not tool_input:
        return None
    try:
        value = json.loads(tool_input).get("command")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, str) and value.strip() else None


def _first_line(error) -> str:
    lines = [line for line in (error or "").splitlines() if line.strip() and not line.startswith("Exit code")]
    return lines[0][:200] if lines else ""
