"""What this machine's PATH knows about a program that is not on it: its other name, a program that shows
the same, the same characters with a space.

Runs inside ``dp-capture`` after a ``command not found`` (``dp.learn.known``), so it only looks (``which``,
one ``scandir`` per PATH directory for versioned names, a few ``stat`` calls) and never runs anything:

* **another name of the same program** (``dp.shell.programs.same_program``): ``python`` → ``python3``,
  ``pip`` → ``pip3``, ``fd`` → ``fdfind``, ``node`` → ``nodejs``. The program's declared other name wins over
  its versions (``python3`` over ``python3.12``); two different programs that could be meant (``python2``
  and ``python3``, ``gcc-12`` and ``gcc-13``) are no answer;
* **``pip`` through ``python3 -m pip``** where no ``pip3`` is, and only where that ``python3``'s own library
  holds pip (``python3 -m pip`` fails on a Python without it, which is exactly the machine that lacks pip);
* **a dump through ``od``** where ``xxd`` or ``hexdump`` is missing: ``xxd FILE`` and ``hexdump -C FILE``
  (with a length, an offset, a width) show what ``od -A x -t x1z -v`` shows — every byte in hex, its offset
  in hex and the printable characters — in od's layout; any other flag (``xxd -r`` writes a file, ``-p``,
  ``-i``, ``-b``, ``hexdump`` without ``-C``) is no answer;
* **a literal slip**: ``find.``, ``cd..``, ``ls-la`` — a program on PATH (or a builtin) whose first word
  is a path glued to a path, or one that takes options and no subcommands glued to an option cluster.
  ``git-log`` (``git log``, not ``git -log``), ``python3.11`` (a program of its own) and ``python..``
  (no program to read a path as its first word) are none.
"""

from __future__ import annotations

import os

from dp.shell.programs import BUILTINS, OTHER_NAMES, on_path, same_program

# Programs whose words are options and operands only (no subcommand): `ls-la` can only be `ls -la`.
OPTIONS_ONLY = frozenset({
    "ls", "ps", "df", "du", "free", "cp", "mv", "rm", "mkdir", "rmdir", "cat", "head", "tail", "wc", "sort",
    "uniq", "grep", "chmod", "chown", "ln", "touch", "uname", "date", "tree", "pwd", "id", "top", "whoami",
})
# Programs whose first operand is a path: `cd/tmp`, `ls~/src` can only be `cd /tmp`, `ls ~/src`.
PATH_FIRST = frozenset({"cd", "pushd", "ls", "cat", "find", "du", "tree", "stat", "file", "less", "head", "tail",
                        "wc"})
DUMPERS = ("xxd", "hexdump")
_OD = ["od", "-A", "x", "-t", "x1z", "-v"]
# The flags of each dumper od reads the same, with od's: a flag taking a value (a plain decimal count),
# or None for one that changes only the layout od has its own of.
_DUMP_FLAGS = {
    "xxd": {"-l": "-N", "-len": "-N", "-s": "-j", "-seek": "-j", "-c": "-w", "-cols": "-w", "-g": None},
    "hexdump": {"-n": "-N", "-s": "-j", "-C": None, "-v": None},
}


def other_name(program: str) -> str | None:
    """The one other name of ``program`` on this PATH (``python`` → ``python3``), or None: none, or two
    different programs that could be meant."""
    found = _names_on_path(program)
    declared = OTHER_NAMES.get(program)
    if declared in found and all(name.startswith(declared) for name in found):  # python3, python3.12 …
        return declared
    if found and len({os.path.realpath(path) for path in found.values()}) == 1:
        return min(found, key=lambda name: (len(name), name))
    return None


def _names_on_path(program: str) -> dict:
    """Each other name of ``program`` on PATH (``same_program``) → its file, as PATH finds it: one
    ``listdir`` per PATH directory (a directory PATH names twice, ``/bin`` as a link to ``/usr/bin``, once),
    and an ``access`` for each name that fits."""
    found: dict = {}
    seen: set = set()
    for directory in os.environ.get("PATH", os.defpath).split(os.pathsep):
        directory = directory or "."
        try:
            status = os.stat(directory)
            if (status.st_dev, status.st_ino) in seen:
                continue
            seen.add((status.st_dev, status.st_ino))
            names = _starting_with(os.listdir(directory), program)
        except OSError:
            continue
        for name in names:
            path = os.path.join(directory, name)
            if name not in found and same_program(program, name) and os.access(path, os.X_OK):
                found[name] = path
    declared = OTHER_NAMES.get(program)
    if declared and declared not in found and (path := on_path(declared)):
        found[declared] = path
    return found


def _starting_with(names: list, prefix: str) -> list:
    """The names that start with ``prefix``, found by searching them joined (a thousand names a directory:
    a loop over each would cost the failed call more than the listing)."""
    joined, needle, out, start = "\0" + "\0".join(names) + "\0", "\0" + prefix, [], 0
    while (at := joined.find(needle, start)) >= 0:
        start = joined.index("\0", at + 1)
        out.append(joined[at + 1 : start])
    return out


def python_with(module: str) -> str | None:
    """``python3`` when the ``python3`` on PATH has ``module`` in its own library (``-m module`` then runs
    it), else None. Read from the files beside the interpreter, never by running it."""
    found = on_path("python3")
    if not found:
        return None
    real = os.path.realpath(found)
    version = os.path.basename(real).removeprefix("python")
    prefix = os.path.dirname(os.path.dirname(real))
    libraries = [os.path.join(prefix, "lib", "python3", "dist-packages")]
    if version.startswith("3.") and version[2:].isdigit():
        for base in (prefix, os.path.join(prefix, "local")):
            for folder in ("site-packages", "dist-packages"):
                libraries.append(os.path.join(base, "lib", f"python{version}", folder))
    return "python3" if any(os.path.isfile(os.path.join(folder, module, "__main__.py")) for folder in libraries) \
        else None


def od_words(program: str, args: list[str]) -> tuple[list[str], list[int]] | None:
    """``(od's words, where the dumper's operands are in args)`` for a dumper's arguments (``xxd -l 64 a.bin``
    → ``od -A x -t x1z -v -N 64`` and ``a.bin``), or None when one of them has no exact od meaning."""
    known, out, operands = _DUMP_FLAGS[program], list(_OD), []
    index, canonical = 0, program != "hexdump"
    while index < len(args):
        word = args[index]
        index += 1
        if not word.startswith("-") or word == "-":
            operands.append(index - 1)
            continue
        if word not in known:
            return None
        canonical |= word == "-C"
        if known[word] is None and word != "-g":
            continue
        value = args[index] if index < len(args) else ""
        index += 1
        if not (value.isdigit() and (value == "0" or not value.startswith("0"))):
            return None  # a count od reads the same: decimal, no sign, no octal zero, no 0x
        mapped = known[word]
        if mapped is not None:
            out += [mapped, value]
    if not canonical or (program == "xxd" and len(operands) > 1):  # xxd's second operand is a file it writes
        return None
    return out, operands


def slip(word: str, cwd) -> tuple[str, str] | None:
    """``(program, rest)`` when ``word`` is a program on PATH (or a builtin) glued to what it was given
    (``find.`` → ``find`` ``.``), else None."""
    at = next((index for index, char in enumerate(word) if char in ".-/~" and index > 0), None)
    if at is None:
        return None
    program, rest = word[:at], word[at:]
    if not (program in BUILTINS or on_path(program)):
        return None
    if rest in (".", "..") and program in PATH_FIRST:
        return program, rest
    if rest.startswith(("./", "../", "/", "~")) and program in PATH_FIRST:
        return (program, rest) if _exists(rest, cwd) else None
    if rest[0] == "-" and program in OPTIONS_ONLY and rest[1:].isalpha():
        return program, rest
    return None


def _exists(path: str, cwd) -> bool:
    where = os.path.expanduser(path)
    if not os.path.isabs(where):
        if not isinstance(cwd, str) or not os.path.isabs(cwd):
            return False
        where = os.path.join(cwd, where)
    return os.path.exists(where)
