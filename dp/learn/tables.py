"""Renames between two programs dp has a translation table for (``grep`` ↔ ``rg``): read through the table.

``rg -n foo src`` failing with ``command not found`` and fixed by ``grep -rn foo
src`` is not a one-word rename: every flag may change, so the pair is
recognised by translating the failed call through the table (read backwards
here, ``dp.rules.tables.reverse``) exactly as ``pave-check`` would, and
comparing the search it makes with the agent's fix. The learned answer is then
a command rename whose rule the hook applies through the same table, and the
answer at the moment of failure is that translation. A pair between two such
programs that the table does not translate into the agent's fix is never
generalised into a word-for-word rename or recipe: it stays evidence.
"""

from __future__ import annotations

import os

from dp.learn.answer import COMMAND, apply, canonical, command_starts, normalised, words

# What only says which files are searched (hidden, ignored, symlinked, binary), not what is searched for:
# the table's own adjustments, which grep -r makes without being told (docs/learning.md).
_FILE_SELECTION = frozenset({"--hidden", "--no-ignore", "--binary", "-L", "-I"})


def table_pair(one: str, other: str) -> bool:
    """Whether dp ships a translation table between programs ``one`` and ``other``, in either direction."""
    from dp.rules.tables.pairs import SUFFIX, TABLE_DIR

    one, other = os.path.basename(one), os.path.basename(other)
    return any(os.path.isfile(os.path.join(TABLE_DIR, f"{a}-to-{b}{SUFFIX}")) for a, b in ((one, other), (other, one)))


def corrected_call(answer: dict, command: str) -> str | None:
    """The corrected call for ``command`` under a learned ``answer``: a rename between two programs with a
    table between them translated through it (every flag, or no answer), any other by ``answer.apply``."""
    if answer["kind"] == COMMAND and table_pair(answer["command"], answer["to_text"]):
        named = answer["command"] in (words(command) or ())
        return translated(command, answer["command"], answer["to_text"]) if named else None
    return apply(answer, command)


def translated(command: str, source: str, target: str) -> str | None:
    """``command`` with its ``source`` calls translated into ``target`` through dp's table, as the hook's
    rule ``source`` → ``target`` would; None when there is no table or it leaves the command alone."""
    from dp.rules.apply import rewrite
    from dp.rules.model import BASH_PARAM, BASH_TOOL, COMMAND, Rule
    from dp.rules.tables.pairs import TableError, table_for

    try:
        if table_for(source, target) is None:
            return None
        result = rewrite({"command": command}, [Rule(source, target, BASH_TOOL, BASH_PARAM, source, COMMAND)])
    except (TableError, OSError, ValueError):
        return None
    new = result.updated_input.get("command") if result is not None else None
    return new if isinstance(new, str) and new != command else None  # the rewrite edits only what it translates


def same_search(one: str, other: str, program: str) -> bool:
    """Whether two calls of ``program`` search for the same thing the same way: equal as words, or equal
    once both are read through the table forward (``grep -R -n x`` and ``grep -rn x .`` are one search),
    apart from the flags that only choose which files are searched."""
    if normalised(one) == normalised(other):
        return True
    forward = [_target_of(program)]
    if forward[0] is None:
        return False
    first, second = (translated(call, program, forward[0]) for call in (one, other))
    if first is None or second is None:
        return False
    return _canonical(first) == _canonical(second)


def same_fix(one: str, other: str) -> bool:
    """Whether call ``one`` is call ``other``: equal as words, spelled otherwise (options in another order,
    a path as ``./src/``: ``dp.learn.answer.canonical``), or the same search of a program dp has a table
    from (``same_search``)."""
    found, theirs = words(one) or [], words(other) or []
    if normalised(one) == normalised(other) or (found and canonical(found) == canonical(theirs)):
        return True
    return any(same_search(one, other, found[i]) for i in command_starts(found) if _target_of(found[i]))


def _target_of(program: str) -> str | None:
    from dp.rules.tables.pairs import SUFFIX, TABLE_DIR

    prefix = f"{program}-to-"
    try:
        names = sorted(name for name in os.listdir(TABLE_DIR) if name.startswith(prefix) and name.endswith(SUFFIX))
    except OSError:
        return None
    return names[0][len(prefix) : -len(SUFFIX)] if names else None


def _canonical(command: str):
    """Flags as a sorted list (their order does not matter), every other word in order, paths without
    ``./`` or a trailing ``/`` (``dp.learn.answer.canonical``); ``--max-depth 0`` and the file-selection
    flags left out."""
    found = words(command) or []
    kept, skip = [], False
    for index, word in enumerate(found):
        if skip:
            skip = False
        elif word == "--max-depth" and found[index + 1 : index + 2] == ["0"]:
            skip = True
        elif word not in _FILE_SELECTION:
            kept.append(word)
    spelled = canonical(kept)
    flags = sorted({word for word in spelled if _flag(word)})  # a flag given twice (`grep -n x -n`) means it once
    return flags, [word for word in spelled if not _flag(word)]


def _flag(word: str) -> bool:
    return word.startswith("-") and len(word) > 1
