"""What a step makes of files: the key a written file is known by, the programs that may write the files
they name, and the programs a step makes under names of its own (``ln -s /bin/sh x``, ``cp``, ``install``).

``dp.shell.codeflow`` uses these to follow a value into a file and back out (``cat f | sh``, ``./f``),
and to know that ``./x`` after ``ln -s /bin/sh x`` is sh. Stdlib only.
"""

from __future__ import annotations

import re

from dp.shell.names import known_name

_PROC_FD = re.compile(r"^/proc/(?:self|[0-9]+)/fd/")


def may_write(word: str) -> bool:
    """Whether the files a command names may be written from what it is given: a program, not a builtin
    (which writes only through redirections), a launcher, or a shell or interpreter (its file operands
    are scripts it runs)."""
    from dp.shell import launchers, sinks
    from dp.shell.programs import BUILTINS

    entry = sinks.SINKS.get(sinks.program_name(word))
    name = known_name(word)
    return not (name in BUILTINS or name in launchers.LAUNCHERS or name in launchers.ARGUMENT_LAUNCHERS
                or entry is not None and entry[0] in (sinks.SHELL, sinks.INTERPRETER))


# Programs that make a file another program's copy, and their options that take a value.
COPIERS = {name: frozenset({"-t", "--target-directory", "-S", "--suffix", *extra}) for name, extra in (
    ("ln", ()), ("cp", ()), ("mv", ()), ("install", ("-m", "--mode", "-o", "--owner", "-g", "--group")))}


def copied(args, value_options) -> tuple[list, str]:
    """(the source words, the target) of ``cp``/``ln``/``install``/``mv``; ``-t DIR`` names the target."""
    operands, target, i = [], None, 0
    while i < len(args):
        value = args[i].value
        if value in ("-t", "--target-directory") and i + 1 < len(args):
            target, i = args[i + 1].value, i + 2
        elif value.startswith("--target-directory="):
            target, i = value.split("=", 1)[1], i + 1
        elif value.startswith("-") and value != "-":
            i += 2 if value in value_options else 1
        else:
            operands.append(args[i])
            i += 1
    if target is None:
        if len(operands) < 2:
            return [], ""
        target = operands.pop().value
    return operands, target


def file_key(path: str) -> str:
    """A path as written files are keyed (``./f.sh`` and ``f.sh`` are one file; ``/proc/self/fd/3`` and
    ``/dev/fd/3`` one descriptor)."""
    path = _PROC_FD.sub("/dev/fd/", path.strip("'\""))
    return path[2:] if path.startswith("./") else path
