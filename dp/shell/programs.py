"""Whether a program is there to run: on PATH as Bash looks it up, or at the path given; and which two
names are one program (``same_program``: a distribution's name for it, a version).

A rule that puts a program into the agent's command (``find → fd``, a recipe's script)
must not turn a working command into ``fd: command not found``. The hook asks here only
when such a rule is about to act, never on its common path (no rule, or a rule that keeps
the program: flags, literals). Stdlib only.

**Cached by PATH and its directories' mtimes.** The answers for one PATH are kept in dp's
cache directory (``dp.cachedir``), stamped with PATH and the modification time of every
directory on it: installing or removing a program changes its directory's mtime, so the
next call looks again. A repeated call then costs one ``stat`` per PATH directory and one
small read, whatever the rules ask. What the stamp cannot see (a program made executable
in place, a symlink whose target vanished) is taken as it was last seen.
"""

from __future__ import annotations

import os

CACHE_PREFIX = "programs"

# Bash's builtins: a script runs them without PATH (``echo``, ``test`` … are also files
# on most systems, but Bash never looks for them).
BUILTINS = frozenset({
    ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen", "complete",
    "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export",
    "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let", "local", "logout",
    "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set", "shift",
    "shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask",
    "unalias", "unset", "wait",
})


class Programs:
    """The programs one hook call can run: ``PATH`` (the agent's, which the hook inherits) and
    the call's working directory (for a relative path, or a relative PATH entry)."""

    __slots__ = ("path", "cwd", "_stamp", "_known")

    def __init__(self, path: str | None = None, cwd: str = ""):
        self.path = os.environ.get("PATH", os.defpath) if path is None else path
        self.cwd = cwd
        self._stamp = ""  # set by _load: the PATH directories and their times the cache is keyed by
        self._known: dict | None = None


    def where(self, program: str) -> str:
        """The file ``program`` runs, or '' when there is none (a builtin answers itself)."""
        if program in BUILTINS:
            return program
        if "/" in program:
            return _executable(os.path.join(self.cwd or os.getcwd(), program))
        known = self._load()
        found = known.get(program)
        if found is None:
            found = known[program] = self._search(program)
            from dp.cachedir import write_stamped

            write_stamped(CACHE_PREFIX, self._stamp, known)
        return found

    def why_missing(self, program: str) -> str:
        """The reason a rule leading to ``program`` cannot act, or '' when it can."""
        if self.where(program):
            return ""
        if "/" in program:
            return f"{program} is not an executable file"
        return f"{program} is not on PATH"

    def _directories(self) -> list[str]:
        """PATH's directories; an empty or relative entry is Bash's: relative to the working directory."""
        base = self.cwd or os.getcwd()
        return [os.path.join(base, entry) if not os.path.isabs(entry) else entry for entry in self.path.split(":")]

    def _load(self) -> dict:
        if self._known is None:
            from dp.cachedir import read_stamped

            times = []
            for directory in self._directories():  # the one stat per directory a call pays
                try:
                    times.append(str(os.stat(directory).st_mtime_ns))
                except OSError:
                    times.append("-")
            self._stamp = "\0".join([*self._directories(), *times])
            known = read_stamped(CACHE_PREFIX, self._stamp)
            self._known = known if isinstance(known, dict) else {}
        return self._known

    def _search(self, program: str) -> str:
        return on_path(program, self.path, self.cwd)


def on_path(program: str, path: str | None = None, cwd: str = "") -> str:
    """The file ``program`` runs as Bash looks it up on ``path`` (PATH by default; an empty or relative
    entry relative to ``cwd``), or '': one ``access`` per directory, uncached, for a process that asks a
    few times (dp-capture's answers: ``shutil`` alone costs more to import); ``Programs`` caches."""
    base = cwd or os.getcwd()
    for entry in (os.environ.get("PATH", os.defpath) if path is None else path).split(":"):
        found = _executable(os.path.join(entry if os.path.isabs(entry) else os.path.join(base, entry), program))
        if found:
            return found
    return ""


def _executable(path: str) -> str:
    """``path`` when it is a file this process may execute, else ''."""
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else ""


def script_programs(script: str, commands) -> list[str]:
    """The programs the simple ``commands`` (``dp.shell.segment``) of ``script`` look up: not
    builtins, not the functions the script defines, not a name known only when it runs (``$cmd``)."""
    import re

    defined = set(re.findall(r"(?:^|[\s;&|{(])(?:function\s+)?([A-Za-z_][\w.:-]*)\s*\(\s*\)", script))
    defined.update(re.findall(r"(?:^|[\s;&|{(])function\s+([A-Za-z_][\w.:-]*)", script))
    found = []
    for command in commands:
        program = command.program
        if program in BUILTINS or program in defined or command.word.masked or program in found:
            continue
        if any(char in command.word.raw for char in "$`*?["):
            continue
        found.append(program)
    return found


# Programs distributions ship under another name: the same program, the same flags.
OTHER_NAMES = {"fd": "fdfind", "bat": "batcat", "ack": "ack-grep", "node": "nodejs", "python": "python3",
               "pip": "pip3"}


def same_program(name: str, other: str) -> bool:
    """Whether ``other`` is the program ``name`` under another name: a distribution's name for it
    (``fd`` → ``fdfind``) or a versioned one (``python`` → ``python3``, ``python3.12``; ``gcc`` →
    ``gcc-13``). It reads the same flags, so a rule between the two needs no table."""
    name, other = name.rsplit("/", 1)[-1], other.rsplit("/", 1)[-1]
    if OTHER_NAMES.get(name) == other:
        return True
    return other.startswith(name) and _version(other[len(name):])


def _version(suffix: str) -> bool:
    """``3``, ``3.12``, ``-13``: numbers joined by dots, after an optional ``-``."""
    parts = suffix.removeprefix("-").split(".")
    return bool(suffix) and all(part.isdigit() and part.isascii() for part in parts)
