"""A learned answer applied to a failed call, and the sentence the agent reads.

Runs in ``dp-capture`` after a failed call (stdlib only, no parse beyond
``shlex``; a rename between two programs dp has a translation table for is
translated through it instead, ``dp.learn.tables.corrected_call``): the
call's words are compared with the answer's ``from`` words at the place its
kind says — where a command starts (command, path, recipe,
literal) or anywhere in a command led by the answer's command word (flag) —
and the corrected call is the same words with that run replaced. Anything
the words cannot say for sure (unbalanced quotes, no match) gives no answer.
"""

from __future__ import annotations

import shlex

COMMAND, FLAG, LITERAL, RECIPE, PATH = "command", "flag", "literal", "recipe", "path"
AT_START = (COMMAND, PATH, RECIPE, LITERAL)
# Words after which a new simple command starts.
SEPARATORS = frozenset({"&&", "||", ";", "|", "(", "then", "do", "else", "!", "{", "time"})
MAX_COMMAND_CHARS = 4096


def words(command: str) -> list[str] | None:
    """The shell words of ``command`` (None when they cannot be read for sure)."""
    if not isinstance(command, str) or len(command) > MAX_COMMAND_CHARS or "\n" in command.strip():
        return None
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()")
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:
        return None


def normalised(command: str) -> str:
    """``command`` as single-spaced words: two spellings of one call compare equal."""
    found = words(command)
    return " ".join(found) if found is not None else " ".join(command.split())


def command_starts(tokens: list[str]) -> list[int]:
    """Where each simple command's first word is (after ``VAR=value`` prefixes)."""
    starts, expect = [], True
    for index, token in enumerate(tokens):
        if token in SEPARATORS:
            expect = True
        elif expect and "=" in token and not token.startswith(("=", "-")) and token.split("=")[0].isidentifier():
            continue
        elif expect:
            starts.append(index)
            expect = False
    return starts


def apply(answer: dict, command: str) -> str | None:
    """The corrected call for ``command`` under ``answer``, or None when it does not apply."""
    tokens = words(command)
    old, new = answer["from_text"].split(" "), answer["to_text"].split(" ")
    if not tokens or not old:
        return None
    places = command_starts(tokens)
    if answer["kind"] == FLAG:
        places = [i for start in places if tokens[start] == answer["command"]
                  for i in range(start + 1, _end(tokens, start))]
    for at in places:
        if tokens[at : at + len(old)] == old:
            return _join(tokens[:at] + new + tokens[at + len(old):])
    return None


def _end(tokens: list[str], start: int) -> int:
    for index in range(start + 1, len(tokens)):
        if tokens[index] in SEPARATORS:
            return index
    return len(tokens)


def _join(tokens: list[str]) -> str:
    """Words back into a command: separators bare, every other word quoted only when it must be."""
    return " ".join(token if token in SEPARATORS else shlex.quote(token) for token in tokens)


def message(answer: dict, failed_word: str, corrected: str) -> str:
    """What the agent reads right after the failure: the corrected call, and why dp believes it."""
    sessions = answer["sessions"]
    then = answer["to_text"]
    return (f"dp: this failure has a known answer. In {sessions} earlier session{'s' if sessions != 1 else ''} "
            f"the same failure of `{failed_word}` was fixed by running `{then}` instead. Run this instead:\n"
            f"{corrected}")
