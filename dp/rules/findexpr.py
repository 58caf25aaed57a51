"""The ``style = "find"`` translation engine: ``find`` expressions into fd flags (and, at the end,
``translate_fd``: fd's flags back into a find expression, the table read backwards).

find reads ``[-L|-P] [start points…] [expression]`` where the expression is a
chain of primaries (``-name G -type f -exec … {} ;``). fd has one pattern,
filters as flags and an ``--exec`` that takes the rest of the line, so only a
conjunction of primaries the table knows translates; ``-o``, ``!``,
parentheses and anything unknown refuse the whole command. Two differences no
flag can fix also refuse: find prints a start point that matches the
expression itself (``find . -type d`` prints ``.``), fd never does; and fd
cannot search a file given as a start point.
"""

from __future__ import annotations

import fnmatch

from dp.rules.translate import Refusal, Value, adjustments, check_value, expand, marks_match, shell_value

_OPTIONS_BEFORE_PATHS = ("-L", "-P", "-H")
_FIND_TYPES = {"f": "f", "d": "d", "l": "l", "p": "p", "s": "s"}


class _Expression:
    __slots__ = ("paths", "flags", "notes", "marks", "glob", "types", "exec_words")

    def __init__(self):
        self.paths: list[Value] = []
        self.flags: list[str] = []
        self.notes: list[str] = []
        self.marks: set[str] = set()
        self.glob: Value | None = None
        self.types: set[str] = set()
        self.exec_words: list[str] = []


def translate_find(command, table, source_text=None) -> tuple[str, list[str]]:
    """(replacement, notes) for a ``find`` command; raises Refusal.

    ``source_text(start, end)`` returns the text of a span with the edits of
    commands nested in it applied (the command an ``-exec`` runs).
    """
    args = command.args
    expression = _Expression()
    i = 0
    while i < len(args) and args[i].value in _OPTIONS_BEFORE_PATHS:
        i = _primary(args, i, table, expression, source_text)
    while i < len(args) and not _starts_expression(args[i].value):
        expression.paths.append(_start_point(args[i]))
        i += 1
    while i < len(args):
        i = _primary(args, i, table, expression, source_text)
    _check_start_points(expression)
    return _assemble(table, expression)


def _starts_expression(value: str) -> bool:
    return value.startswith("-") or value in ("!", "(", ")", ",")


def _start_point(word) -> Value:
    value = shell_value(word)
    literal = value.literal
    if literal is None:
        raise Refusal(f"the start point {word.raw} uses a shell expansion: it may be a file")
    name = literal.rstrip("/").rsplit("/", 1)[-1]
    if "." in name.lstrip(".") or any(c in literal for c in "*?["):
        raise Refusal(f"the start point {word.raw} may be a file, which fd cannot search")
    return value


def _primary(args, i: int, table, expression: _Expression, source_text) -> int:
    word = args[i]
    name = word.value
    entry = table.flag(name)
    if entry is None:
        raise Refusal(f"find {name} has no known fd equivalent")
    if "unknown" in entry:
        raise Refusal(f"find {name}: {entry['unknown']}")
    expression.marks.update(entry.get("sets", []))
    if "batch" in entry:
        return _exec(args, i, entry, expression, source_text)
    if not entry.get("value"):
        expression.flags.extend(entry["to"])
        return i + 1
    if i + 1 >= len(args):
        raise Refusal(f"{name} without its value")
    value = shell_value(args[i + 1])
    if entry.get("check") == "name-glob":
        if expression.glob is not None:
            raise Refusal("fd takes one name pattern")
        expression.glob = _literal(value, name)
    elif entry.get("check") == "find-type":
        kind = _literal(value, name).literal
        if kind not in _FIND_TYPES:
            raise Refusal(f"-type {kind} has no fd equivalent")
        expression.types.add(kind)
        value = Value(_FIND_TYPES[kind], _FIND_TYPES[kind])
    elif entry.get("check"):
        value = check_value(entry["check"], value, expression.marks, table)
    if name == "-mindepth":
        expression.marks.add(f"min-depth-{value.literal}")
    expression.flags.extend(expand(entry["to"], value))
    return i + 2


def _literal(value: Value, name: str) -> Value:
    if value.literal is None:
        raise Refusal(f"{name} {value.text}: a shell expansion dp cannot check")
    return value


def _exec(args, i: int, entry: dict, expression: _Expression, source_text) -> int:
    """``-exec CMD … {} ;`` → ``--exec CMD … {}``; ``… {} +`` → ``--exec-batch``.

    Sets the mark ``exec-each`` or ``exec-batch``: the two forms keep
    different exit-status contracts, which the table's [[refuse]] judges.
    """
    if expression.exec_words:
        raise Refusal("fd runs one command per search")
    end = i + 1
    while end < len(args) and args[end].value not in (";", "+"):
        end += 1
    if end >= len(args) or end == i + 1:
        raise Refusal("-exec without its command or terminator")
    words = args[i + 1 : end]
    if not any(word.value == "{}" for word in words):
        raise Refusal("-exec without {}: fd would add the path at the end")
    if any("{" in word.value and word.value != "{}" for word in words):
        raise Refusal("-exec with braces fd reads as placeholders")
    batch = args[end].value == "+"
    expression.marks.add("exec-batch" if batch else "exec-each")
    if batch and words[-1].value != "{}":
        raise Refusal("-exec … + needs {} last")
    text = source_text(words[0].start, words[-1].end) if source_text else None
    if text is None:
        text = " ".join(word.raw for word in words)
    expression.exec_words = [*(entry["batch"] if batch else entry["to"]), text]
    if entry.get("note") and not batch:
        expression.notes.append("note: " + entry["note"])
    return end + 1


def _check_start_points(expression: _Expression) -> None:
    """Refuse when find would also print a start point (fd never does)."""
    if any(mark.startswith("min-depth-") and mark != "min-depth-0" for mark in expression.marks):
        return
    if expression.types and "d" not in expression.types:
        return
    for path in expression.paths or [Value(".", ".")]:
        glob = expression.glob
        matching = glob.literal if glob is not None else None
        if path.literal is None or (glob is not None and matching is None):
            raise Refusal(f"find's start point {path.text} may be printed too: an expansion dp cannot read")
        name = path.literal.rstrip("/").rsplit("/", 1)[-1] or path.literal
        if matching is None or _matches(name, matching, "ignore-case" in expression.marks):
            raise Refusal(f"find also prints the start point {path.text} itself; fd never does")


def _matches(name: str, glob: str, ignore_case: bool) -> bool:
    if ignore_case:
        return fnmatch.fnmatchcase(name.lower(), glob.lower())
    return fnmatch.fnmatchcase(name, glob)


def _assemble(table, expression: _Expression):
    for rule in table.refuse:
        if marks_match(rule, expression.marks):
            raise Refusal(rule["reason"])
    added, _, adjusted = adjustments(table, expression.marks)
    words = [table.target, *expression.flags, *added]
    notes = [*expression.notes, *adjusted]
    if expression.glob is not None:
        words.extend(["--glob", expression.glob.text])
    elif expression.paths:
        words.append(".")  # fd's pattern comes before the paths: any name
    words.extend(path.text for path in expression.paths)
    words.extend(expression.exec_words)
    return " ".join(words), notes


# fd's pattern flags, read by the engine itself: (name, takes a value).
_FD_PATTERN_FLAGS = {"-g": False, "--glob": False, "-e": True, "--extension": True, "-s": False,
                     "--case-sensitive": False, "-i": False, "--ignore-case": False}
_PLAIN_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def translate_fd(command, table, source_text=None) -> tuple[str, list[str]]:
    """fd → find, the find table read backwards (``dp.rules.tables.reverse``); raises Refusal.

    fd's pattern becomes ``-name`` or ``-iname`` by fd's smart case (a pattern with no capital letter
    ignores case): a ``--glob`` as it is, a plain word as ``*word*`` (fd's regex finds it anywhere in
    the name), ``.`` or none as no test, ``--extension EXT`` as ``*.EXT`` (always ignoring case); any
    other regex refuses. ``-mindepth 1`` keeps find from printing the start points, which fd never does.
    """
    options: list[str] = []
    globals_: list[str] = []
    tests: list[str] = []
    positional: list[Value] = []
    pattern: dict = {"glob": None, "case": None, "ext": None}
    args, i = command.args, 0
    while i < len(args):
        if args[i].masked:
            raise Refusal(f"{args[i].raw!r} holds a construct dp does not read")
        if not args[i].value.startswith("-") or args[i].value == "-":
            positional.append(_literal(shell_value(args[i], pattern=True), "fd"))
            i += 1
            continue
        name, value, i = _fd_option(args, i, table)
        if name in _FD_PATTERN_FLAGS:
            _fd_pattern_flag(name, value, pattern)
            continue
        entry = table.flag(name)
        if entry is None:
            raise Refusal(f"fd {name} has no known find equivalent")
        if value is None:
            (options if entry.get("global") else globals_ if entry["to"] == ["-xdev"] else tests).extend(entry["to"])
        else:
            (globals_ if entry["to"][0] in ("-maxdepth", "-mindepth") else tests).extend(_fd_valued(entry, value, table))
    return _fd_assemble(options, globals_, tests, positional, pattern)


def _fd_option(args, i: int, table) -> tuple[str, str | None, int]:
    """(the option's name, its value or None when it takes none, the index after it) of the option at ``i``."""
    word = args[i].value
    name, has_value, inline = word.partition("=") if word.startswith("--") else (word[:2], "", word[2:])
    if not word.startswith("--") and inline and not (_FD_PATTERN_FLAGS.get(name) or
                                                     (table.flag(name) or {}).get("value")):
        raise Refusal(f"fd {word}: grouped flags dp does not split")
    if not _FD_PATTERN_FLAGS.get(name, (table.flag(name) or {}).get("value", False)):
        return name, None, i + 1
    if inline or has_value:
        return name, inline if inline else word.split("=", 1)[1], i + 1
    if i + 1 < len(args):
        return name, _literal(shell_value(args[i + 1], pattern=True), name).literal, i + 2
    raise Refusal(f"{name} without its value")


def _fd_valued(entry: dict, value: str, table) -> list[str]:
    """find's words for an fd option given ``value``, checked as the table says."""
    checked = check_value(entry["check"], Value(value, value), set(), table) if entry.get("check") else None
    if entry.get("check") == "find-type" and value not in _FIND_TYPES:
        raise Refusal(f"fd --type {value} has no find equivalent")
    return expand(entry["to"], checked or Value(value, value))


def _fd_pattern_flag(name: str, value, pattern: dict) -> None:
    if name in ("-g", "--glob"):
        pattern["glob"] = True
    elif name in ("-e", "--extension"):
        if pattern["ext"] is not None or not value or not set(value) <= _PLAIN_WORD:
            raise Refusal(f"fd {name} {value}: one plain extension only")
        pattern["ext"] = value
    else:
        pattern["case"] = "ignore" if name in ("-i", "--ignore-case") else "sensitive"


def _fd_assemble(options, globals_, tests, positional, pattern):
    import shlex

    texts = [value.literal for value in positional]
    name_pattern, paths = (texts[0], texts[1:]) if texts else (None, [])
    names = _fd_name_test(name_pattern, pattern) if name_pattern not in (None, "", ".") else []
    if pattern["ext"] is not None:
        names += ["-iname", shlex.quote(f"*.{pattern['ext']}")]
    if any(path.startswith("-") or any(c in path for c in "*?[") for path in paths):
        raise Refusal("a start point find would read as an expression")
    depth = [] if "-mindepth" in globals_ else ["-mindepth", "1"]
    words = ["find", *options, *(shlex.quote(path) for path in paths or ["."]), *depth, *globals_,
             *[word for word in tests if word != "-print0"], *names, *(["-print0"] if "-print0" in tests else [])]
    notes = ["note: find also lists hidden and .gitignored files, which fd skips"]
    return " ".join(words), notes


def _fd_name_test(name_pattern: str, pattern: dict) -> list[str]:
    """find's ``-name``/``-iname`` test for fd's pattern: a glob as it is, a plain word anywhere in the name."""
    import shlex

    if pattern["glob"]:
        if "/" in name_pattern or "**" in name_pattern:
            raise Refusal("a glob with '/' matches the whole path in fd")
        glob = name_pattern
    elif set(name_pattern) <= _PLAIN_WORD:
        glob = f"*{name_pattern}*"
    else:
        raise Refusal(f"the regex {name_pattern!r} has no find -name equivalent")
    ignore = pattern["case"] == "ignore" or (pattern["case"] is None and name_pattern == name_pattern.lower())
    return ["-iname" if ignore else "-name", shlex.quote(glob)]
