"""A learned answer applied to a failed call, and the sentence the agent reads.

Runs in ``dp-capture`` after a failed call (stdlib only, no parse beyond
``shlex``; a rename between two programs dp has a translation table for is
translated through it instead, ``dp.learn.tables.corrected_call``): the
call's words are compared with the answer's ``from`` words at the place its
kind says — where a command starts (command, path, recipe,
literal) or anywhere in a command led by the answer's command word (flag) —
and the corrected call is the same words with that run replaced. Anything
the words cannot say for sure (unbalanced quotes, no match) gives no answer.

Two voices (issue 46, finding 5): a rename between two names of one program,
or through a table (``dp.learn.carry.plain_rename``), is dp's own knowledge
and is told as dp's answer; any other answer was learned from what the agent
ran in one repository, acts only there (``repository``) and is told as that:
the agent's earlier call, quoted and attributed, never as dp's instruction.
"""

from __future__ import annotations

import os
import shlex
import unicodedata

from dp.rules import COMMAND, FLAG, LITERAL, RECIPE

# The one kind only learning has: a program called by a name that is not there (``command not found``).
PATH = "path"
AT_START = (COMMAND, PATH, RECIPE, LITERAL)
# Words after which a new simple command starts.
SEPARATORS = frozenset({"&&", "||", ";", "|", "(", "then", "do", "else", "!", "{", "time"})
MAX_COMMAND_CHARS = 4096
MAX_TEXT = 200  # a learned change's words (dp.learn.carry)


def plain(text: str, limit: int = MAX_TEXT) -> bool:
    """Whether ``text`` is at most ``limit`` characters with no control or formatting character
    (an escape sequence, a bidirectional override) that could change what the reader sees: what dp
    repeats to an agent (``dp.learn.carry`` learns nothing else, dp-capture tells nothing else)."""
    return (isinstance(text, str) and len(text) <= limit
            and not any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in text))


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


def canonical(tokens: list[str]) -> list[str]:
    """``tokens`` spelled one way: in each simple command its program, then its options in sorted order,
    then its other words, each path without ``./`` in front or ``/`` behind. Two calls that differ only
    in the order of their options or the spelling of a path (quoting is gone from words already) are the
    same call: a fix that differs from the failed call so is the same fix (``dp.learn.generalise``)."""
    out, command = [], []
    for token in [*tokens, ";"]:
        if token not in SEPARATORS:
            command.append(token)
            continue
        if command:
            options = sorted(word for word in command[1:] if word.startswith("-") and len(word) > 1)
            others = [_path(word) for word in command[1:] if not (word.startswith("-") and len(word) > 1)]
            out += [command[0], *options, *others]
        out.append(token)
        command = []
    return out[:-1]


def _path(word: str) -> str:
    while word.startswith("./") and len(word) > 2:
        word = word[2:]
    return word.rstrip("/") or word


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


RENAME_MARK = "Run this instead:\n"
QUOTED_MARK = "The same change to this call:\n"


def told_call(text: str) -> str | None:
    """The corrected call an answer's ``text`` names (every answer ends with it, after ``:`` and a line
    break, and a told call holds no line break: ``plain``), or None when it names none."""
    return text.rsplit(":\n", 1)[1] if ":\n" in text else None


def message(answer: dict, failed_word: str, corrected: str, sessions_here: int = 0) -> str:
    """What the agent reads right after the failure: the corrected call, and why dp believes it. A plain
    rename in dp's voice; any other answer as the agent's own call in ``sessions_here`` earlier sessions of
    this repository, quoted."""
    if not sessions_here:
        sessions = answer["sessions"]
        return (f"dp: this failure has a known answer. In {sessions} earlier session{_s(sessions)} "
                f"the same failure of `{failed_word}` was fixed by running `{answer['to_text']}` instead. "
                f"{RENAME_MARK}{corrected}")
    return (f"dp: in {sessions_here} earlier session{_s(sessions_here)} in this repository, after this same failure "
            f"of `{failed_word}`, the agent then ran `{answer['to_text']}` in its place. That is the agent's own "
            f"earlier call, quoted as recorded; dp has not checked it. {QUOTED_MARK}{corrected}")


def _s(count: int) -> str:
    return "s" if count != 1 else ""


def repository(cwd) -> str | None:
    """The identity of the repository ``cwd`` is in, which an answer other than a plain rename is bound
    to: its root's real path (outside any repository, the directory's own). None without an absolute
    ``cwd``. The one place that says what "the same repository" means for learned answers."""
    if not isinstance(cwd, str) or not os.path.isabs(cwd) or "\0" in cwd:
        return None
    from dp.layers.locate import repo_root

    return os.path.realpath(repo_root(cwd) or cwd)
