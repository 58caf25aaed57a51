"""Reading command-line tools' own error messages: which flag they rejected, what they suggest.

``git: 'comit' is not a git command … The most similar command is commit``,
``grep: invalid option -- 'P'``, ``error: unexpected argument '--foo' found``,
``Did you mean `build`?`` — a tool's own "did you mean" is the one piece of
evidence strong enough to act on after a single failure.

What leaves the machine of a message (``shape_hints``, for ``dp.team``) is
never its text: at most one line of each class below, each a fixed phrase
around one name that cannot be argument text.
"""

from __future__ import annotations

import re

from dp.shell.shape import option_name

# The classes of hint a team sees, each a fixed phrase around one name (read back by the functions below).
SUGGESTED_COMMAND = "The most similar command is {}"
REJECTED_OPTION = "unknown option: {}"
SUGGESTED_OPTION = "did you mean {}"
# A suggested subcommand is kept only this close to the one the shape already carries (its correction).
MAX_CORRECTION = 3
_COMMAND_WORD = re.compile(r"[a-z][a-z0-9-]{0,39}")

_SUGGESTION_HEADS = re.compile(
    r"(?:most similar commands? (?:is|are)|did you mean(?: this| one of these)?\??|"
    r"similar commands? (?:is|are)|perhaps you meant)[ \t:]*", re.I)
_WORD = re.compile(r"[`'\"]?([A-Za-z][\w:.-]*)[`'\"]?")
_FLAG_HINT = re.compile(r"did you mean[\s:]*[`'\"]?(--?[A-Za-z][\w-]*)", re.I)
# What tools print when they reject an option, each naming it (a letter alone for a group's letter):
# getopt (``invalid option -- 'P'``, ``unrecognized option '--foo'``), BSD (``illegal option``), cobra,
# argparse (``unrecognized arguments: --foo``), click (``no such option: --foo``), clap (``unexpected
# argument '--foo'``, ``Found argument '--foo' which wasn't expected``), curl (``option --foo: is
# unknown``), node (``bad option: --foo``), Go's flag (``flag provided but not defined: -foo``), git
# (``unknown option `foo'``, ``unknown switch `x'``: without their dashes) and tsc.
_NAME = r"[A-Za-z0-9][\w-]*"
_REJECTED = (
    (re.compile(r"(?:invalid|illegal) option -- '?([A-Za-z0-9])'?"), "-"),
    (re.compile(r"unknown shorthand flag: '([A-Za-z0-9])'"), "-"),
    (re.compile(rf"(?:unrecognized|unknown|invalid|illegal|no such|bad) (?:compiler )?(?:option|flag|argument)s?"
                rf"[:\s]+[`'\"]?(-{{1,2}}{_NAME})", re.I), ""),
    (re.compile(rf"(?:unexpected argument|found argument) [`'\"](-{{1,2}}{_NAME})", re.I), ""),
    (re.compile(rf"option [`'\"]?(-{{1,2}}{_NAME})(?:=[^\s:'\"]*)?[`'\"]?:? (?:is unknown|not recognized)", re.I), ""),
    (re.compile(rf"flag provided but not defined: (-{{1,2}}{_NAME})"), ""),
    (re.compile(rf"unknown option `({_NAME})'"), "--"),
    (re.compile(r"unknown switch `([A-Za-z0-9])'"), "-"),
)


def suggested_word(error: str) -> str | None:
    """The single command a tool's message suggests (None when it suggests none, or several)."""
    match = _SUGGESTION_HEADS.search(error)
    if not match:
        return None
    rest = error[match.end():]
    lines = [line.strip() for line in rest.splitlines()]
    if lines and lines[0]:
        candidates = [lines[0]]
    else:  # git lists them on the following lines, tab-indented, up to a blank line
        candidates = []
        for line in lines[1:]:
            if not line and candidates:
                break
            if line:
                candidates.append(line)
    if len(candidates) != 1:
        return None
    word = _WORD.match(candidates[0])
    return word.group(1).rstrip(".?") if word else None


def suggested_flag(error: str) -> str | None:
    match = _FLAG_HINT.search(error)
    return match.group(1) if match else None


def rejected_flag(error: str) -> str | None:
    """The flag the error says was rejected, as the agent typed it (``-P`` for a letter in ``-rP``);
    None when the error says no option was rejected (``tsc: command not found`` rejected nothing,
    whatever flags the call had)."""
    for pattern, dashes in _REJECTED:
        match = pattern.search(error)
        if match:
            return dashes + match.group(1)
    return None


def swapped_flag(failed: list[str], worked: list[str], bad: str) -> str | None:
    """What replaced ``bad`` between a failing and a working flag list (one swap, nothing else changed)."""
    removed = [flag for flag in failed if flag not in worked]
    added = [flag for flag in worked if flag not in failed]
    if len(removed) != 1 or len(added) != 1:
        return None
    old, new = removed[0], added[0]
    if old == bad:
        return new
    # A letter inside a short-option group: -rP → -rE
    letter = bad[1:] if len(bad) == 2 and not bad.startswith("--") else None
    if letter and _is_group(old) and _is_group(new) and len(old) == len(new) and letter in old:
        differ = [(a, b) for a, b in zip(old[1:], new[1:]) if a != b]
        if len(differ) == 1 and differ[0][0] == letter:
            return "-" + differ[0][1]
    return None


def _is_group(flag: str) -> bool:
    return len(flag) >= 2 and flag[0] == "-" and flag[1] != "-"


def shape_hints(error: str, command: str, subcommand: str, flags: list[str]) -> list[str]:
    """What a tool's message suggested or rejected, as lines from a fixed vocabulary that carry
    no argument text, for a shape whose options are already names alone (``flags``):

    * a suggested subcommand only for a shape with a subcommand, as a lower-case word within
      ``MAX_CORRECTION`` edits of it (the tool's correction of what the shape already shows);
    * a rejected option as its name (``-pSECRET`` → ``-p``), when it is one of ``flags`` or a
      single letter;
    * a suggested option as its name, when it is ``--word`` or a single letter.
    """
    lines = []
    word = suggested_word(error)
    if word and subcommand and _COMMAND_WORD.fullmatch(word) and distance(word, subcommand) <= MAX_CORRECTION:
        lines.append(SUGGESTED_COMMAND.format(word))
    rejected = rejected_flag(error)
    name = option_name(command, rejected) if rejected else ""
    if name and (name in flags or len(name) == 2):
        lines.append(REJECTED_OPTION.format(name))
    suggested = suggested_flag(error)
    name = option_name(command, suggested) if suggested else ""
    if name and (name.startswith("--") or len(name) == 2):
        lines.append(SUGGESTED_OPTION.format(name))
    return lines


def distance(a: str, b: str) -> int:
    """Optimal-string-alignment edit distance (a transposition counts as one edit: ``comit``/``cmomit``)."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            value = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, rows[-2][j - 2] + 1)
            row.append(value)
        rows.append(row)
    return rows[-1][-1]


def closest(word: str, known: list[str]) -> str | None:
    """The one known word within a small edit distance of ``word`` (None if none, or a tie)."""
    limit = max(1, min(2, len(word) // 3))
    scored = sorted((distance(word, other), other) for other in known if other != word)
    scored = [item for item in scored if item[0] <= limit]
    if not scored or (len(scored) > 1 and scored[0][0] == scored[1][0]):
        return None
    return scored[0][1]
