"""Where a program may read an argument as an option: the places a value is checked again when known.

A value that begins with ``-`` is an option to most programs: ``sed 's/a/b/'
{{v}} file`` with ``-e1e touch MARK`` runs it (GNU getopt permutes: options are
read anywhere before ``--``), so does ``node -e '…' {{v}}`` with
``--eval=…``. Whether a value starts with ``-`` is known only when the
template is rendered, so the judge notes each such place here
(``positions``) and the renderer refuses a value starting with ``-`` there
(``dp.shell.placement.option_problem``), naming the fix: ``--`` before it, or
``./`` before a file name. A value that does not start with ``-`` costs
nothing.

A place is an option position when no ``--`` comes before it and the program
is not known to have stopped reading options there: bash's builtins, the
shells and the interpreters stop at their first operand (python also at
``-c``/``-m``); everything else is taken to permute. The value of an option
known to take one (``git commit -m``, ``grep -e``, ``find -name``) is data.
``echo`` and ``test`` read no option that changes what they do with data.

``INSIDE`` is a value inside an option's name (``cargo build --{{mode}}``):
the value must then be a plain name, or it could make another option with its
own value (``--config=…``).
"""

from __future__ import annotations

from dp.shell import sinks
from dp.shell.optioncheck import CUT, INSIDE, SPLIT, START  # noqa: F401  (the kinds of place, as callers know them)
from dp.shell.programs import BUILTINS

_NO_OPTIONS = frozenset({"echo", ":", "true", "false", "test", "[", "[["})
_TERMINATING = {name: frozenset({"-c", "-m"}) for name in ("python", "python2", "python3", "pypy", "pypy3")}
# Options known to take a separate value (a value after one of them is data), by program.
_FIND = frozenset({
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname",
    "-type", "-xtype", "-maxdepth", "-mindepth", "-newer", "-anewer", "-cnewer", "-perm", "-size", "-user",
    "-group", "-uid", "-gid", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-links", "-inum",
    "-samefile", "-fstype", "-printf", "-used", "-context", "-regextype",
})
_GREP = frozenset({"-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "-B", "-C", "--context",
                   "--after-context", "--before-context", "--include", "--exclude", "--exclude-dir", "--label",
                   "-d", "--directories", "-D", "--devices", "-g", "--glob", "-t", "--type", "-T", "--type-not"})
VALUE_OPTIONS = {
    "find": _FIND,
    **{grep: _GREP for grep in ("grep", "egrep", "fgrep", "rg", "ag", "ack")},
    **{name: frozenset({"-n", "--lines", "-c", "--bytes"}) for name in ("head", "tail")},
    "sort": frozenset({"-k", "--key", "-t", "--field-separator", "-o", "--output", "-S", "--buffer-size", "-T",
                       "--temporary-directory"}),
    "cut": frozenset({"-d", "--delimiter", "-f", "--fields", "-b", "--bytes", "-c", "--characters"}),
    "curl": frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "-H", "--header", "-o",
                       "--output", "-u", "--user", "-X", "--request", "-A", "--user-agent", "-e", "--referer",
                       "-F", "--form", "-m", "--max-time", "--connect-timeout", "-T", "--upload-file"}),
    "cargo": frozenset({"--name", "-p", "--package", "--bin", "--example", "--test", "--bench", "--features",
                        "-F", "--target", "--target-dir", "--manifest-path", "-j", "--jobs", "--profile"}),
    "gh": frozenset({"-t", "--title", "-b", "--body", "-R", "--repo", "-B", "--base", "-H", "--head", "-l",
                     "--label", "-m", "--milestone", "-a", "--assignee"}),
}
# git: its own options taking a value, and each subcommand's.
_GIT = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"})
_GIT_MESSAGE = frozenset({"-m", "--message", "-F", "--file", "--author", "--date", "-C", "--reuse-message",
                          "-c", "--reedit-message", "--fixup", "--squash", "-t", "--template", "--trailer"})
GIT_VALUE_OPTIONS = {
    "commit": _GIT_MESSAGE,
    "tag": _GIT_MESSAGE | {"-u", "--local-user"},
    "merge": _GIT_MESSAGE | {"-s", "--strategy", "-X", "--strategy-option"},
    "log": frozenset({"-n", "--max-count", "--grep", "--author", "--committer", "--since", "--until", "--format",
                      "--pretty", "-S", "-G", "--skip"}),
    "branch": frozenset({"-m", "-M", "-c", "-C", "-u", "--set-upstream-to", "--contains", "--merged"}),
    "checkout": frozenset({"-b", "-B", "--orphan"}),
    "switch": frozenset({"-c", "-C", "--create", "--orphan"}),
    "grep": frozenset({"-e", "-f", "-A", "-B", "-C", "-m", "--max-count"}),
    "config": frozenset({"-f", "--file", "--type", "--default", "--blob"}),
    "stash": frozenset({"-m", "--message"}),
    "worktree": frozenset({"-b", "-B", "--reason"}),
}


def positions(name: str, args) -> list[tuple[object, str]]:
    """(word, ``START`` or ``INSIDE``) for each argument of ``name`` read where it may be an option."""
    if name in _NO_OPTIONS:
        return []
    if name == "git":
        return _git(args)
    return _scan(args, takes_value(name), _terminating(name), stops=_stops_at_operand(name))


def _scan(args, takes_value, terminating=frozenset(), stops: bool = False) -> list[tuple[object, str]]:
    found, i = [], 0
    while i < len(args):
        word, value = args[i], args[i].value
        if word.start < 0 or value == "--":
            break
        if value.startswith("-") and value != "-":
            found.append((word, INSIDE))
            option = value.split("=", 1)[0]
            if option in terminating:
                break
            i += 2 if takes_value(option) and "=" not in value else 1
            continue
        found.append((word, START))
        if stops:
            break
        i += 1
    return found


def _git(args) -> list[tuple[object, str]]:
    """``git [options] SUBCOMMAND [its options and operands]``: its options stop at the subcommand;
    the subcommand's permute."""
    i = 0
    while i < len(args) and args[i].value.startswith("-") and args[i].value != "--":
        i += 2 if args[i].value in _GIT else 1
    found = _scan(args[:i], lambda option: option in _GIT)
    if i >= len(args):
        return found
    found.append((args[i], START))
    known = GIT_VALUE_OPTIONS.get(args[i].value, frozenset())
    return found + _scan(args[i + 1:], lambda option: option in known)


def takes_value(name: str, command_string: bool = True):
    """Whether an option of ``name`` takes the next word as its value (a shell's ``-c`` too, unless
    ``command_string`` is False: its string is then its first operand, after every option)."""
    known = set(VALUE_OPTIONS.get(name, ()))
    entry = sinks.SINKS.get(name)
    if entry is not None and entry[0] in (sinks.INTERPRETER, sinks.OPTIONS):
        known |= set(entry[1][0]) | set(entry[1][1])
    if entry is not None and entry[0] == sinks.SHELL:
        letters = entry[1][0] | ({"c"} if command_string else set())
        return lambda option: option in known or (option[:1] in "-+" and option[-1:] in letters
                                                   and not option.startswith("--"))
    if entry is not None and entry[0] == sinks.INTERPRETER:
        return lambda option: option in known or sinks.is_code_option(option, entry[1][0])
    return lambda option: option in known


def _terminating(name: str) -> frozenset:
    return _TERMINATING.get(name, frozenset())


def _stops_at_operand(name: str) -> bool:
    """Bash's builtins, the shells and the interpreters read no option after their first operand."""
    entry = sinks.SINKS.get(name)
    return name in BUILTINS or (entry is not None and entry[0] in (sinks.SHELL, sinks.INTERPRETER))
