"""The constructs bashlex 0.18 cannot read, and the same-length text put in their place.

Each function takes the ``dp.shell.scanner.Scanner`` at work, reads one
construct and records an edit: quoted heredoc delimiters and heredoc bodies,
``[[ ]]``, ``(( ))`` and ``for ((…))``, ``time -p``, ``coproc``, ``select``
and ``case``; and what bashlex misreads: operators, newlines and ``#`` in the
list of a substitution, a bare ``{``/``}`` argument before a reserved word.
The replacement keeps every offset, so whatever bashlex reports
is a position in the original string; substitutions inside a masked
construct are kept (``Scanner.mask``), so the commands they run are still seen.

The keyword constructs are looked up in ``BY_KEYWORD`` by the word in command
position; each returns ``(end, command position after it)``.
"""

from __future__ import annotations

import re

from dp.shell.syntax import (
    ARITHMETIC,
    BLANKS,
    CASE_END,
    COMMENT,
    HEREDOC,
    OPERATOR_CHARS,
    QUOTED_HEREDOC,
    RESERVED_WORDS,
    TEST,
    Unparseable,
)

# What may follow ]], esac and the `in` of a case for them to be words.
_AFTER_DOUBLE_BRACKET = " \t\n;&|)"
_AFTER_ESAC = " \t\n;&|)"
_AFTER_IN = " \t\n;"
_DELIMITER_QUOTING = re.compile(r"\\(.)|['\"]")


# --- heredocs --------------------------------------------------------------------


def heredoc_operator(scan, i: int) -> int:
    """``<<`` or ``<<-`` and its delimiter word; the body is read at the next newline."""
    start = i
    i += 2
    strip_tabs = scan.s.startswith("-", i)
    if strip_tabs:
        i += 1
    i = scan.skip_blanks(i)
    word_start = i
    i = scan.word(i)
    if i == word_start:
        raise Unparseable("heredoc without a delimiter")
    word = scan.s[word_start:i]
    delimiter = _DELIMITER_QUOTING.sub(lambda m: m.group(1) or "", word)
    scan.pending.append((delimiter, strip_tabs, delimiter != word, (start, word_start, i)))
    scan.edit(start, i, "<", "_")
    return i


def heredoc_bodies(scan, i: int) -> int:
    """Read the pending heredocs' bodies from ``i`` (just after a newline) and blank them out."""
    pending, scan.pending = scan.pending, []
    for delimiter, strip_tabs, quoted, operator in pending:
        body_start = i
        i = _heredoc_body(scan, i, delimiter, strip_tabs, QUOTED_HEREDOC if quoted else HEREDOC)
        body_end = scan.regions[-1][1]
        scan.heredocs.append((*operator, delimiter, strip_tabs, quoted, body_start, body_end, i))
    return i


def _heredoc_body(scan, i: int, delimiter: str, strip_tabs: bool, kind: str) -> int:
    """One body from ``i`` up to its delimiter line; the index after that line."""
    s, n = scan.s, scan.n
    body_start = i
    while i < n:
        newline = s.find("\n", i)
        line_end = n if newline < 0 else newline
        line = s[i:line_end]
        if (line.lstrip("\t") if strip_tabs else line) == delimiter:
            scan.edit(body_start, line_end, "")
            scan.regions.append((body_start, i, kind))
            return line_end + 1 if newline >= 0 else n
        i = line_end + 1
    raise Unparseable(f"heredoc {delimiter!r} is not terminated")


# --- tests and arithmetic ------------------------------------------------------------


def double_bracket(scan, start: int, i: int) -> tuple[int, bool]:
    """``[[ … ]]`` → ``:`` and blanks (its substitutions kept)."""
    s, n = scan.s, scan.n
    while i < n:
        c = s[i]
        if c in " \t\n":
            i += 1
        elif s.startswith("]]", i) and (i + 2 == n or s[i + 2] in _AFTER_DOUBLE_BRACKET):
            scan.mask(start, i + 2, ":")
            scan.regions.append((start, i + 2, TEST))
            return i + 2, False
        elif c in "()<>&|!;":
            i += 1
        else:
            i = scan.word(i)
    raise Unparseable("open [[")


def arithmetic_command(scan, i: int) -> int:
    """``(( … ))`` in command position → ``:`` and blanks."""
    stop = scan.arithmetic(i + 2)
    scan.mask(i, stop, ":")
    scan.regions.append((i, stop, ARITHMETIC))
    return stop


def arithmetic_for(scan, start: int, i: int) -> tuple[int, bool]:
    """``for ((…))`` → ``while :`` (same length, same body); ``for ((…)) do`` needs the ``;``."""
    after = scan.skip_blanks(i)
    if not scan.s.startswith("((", after):
        return i, False  # for NAME in …: bashlex reads it
    i = scan.arithmetic(after + 2)
    separated = scan.s.startswith((";", "\n"), scan.skip_blanks(i))
    scan.mask(start, i, "while :" if separated else "while :;")
    return i, False


# --- prefixes and loops ------------------------------------------------------------------


def time_options(scan, start: int, i: int) -> tuple[int, bool]:
    """``time`` and its ``-p`` / ``--``: overwritten, the command after it is the one run."""
    end = i
    while True:
        after = scan.skip_blanks(end)
        if not scan.s.startswith(("-p ", "-p\t", "-- ", "--\t"), after):
            break
        end = after + 2
    scan.edit(start, end, "")
    return end, True


def coproc(scan, start: int, i: int) -> tuple[int, bool]:
    """``coproc [NAME] command``: blank out the keyword (and NAME before a compound command)."""
    s, n = scan.s, scan.n
    scan.edit(start, i, "")
    after = scan.skip_blanks(i)
    name_end = after
    while name_end < n and (s[name_end].isalnum() or s[name_end] == "_"):
        name_end += 1
    followed = s.startswith(("{", "("), scan.skip_blanks(name_end))
    if name_end > after and followed and name_end < n and s[name_end] in BLANKS:
        scan.edit(after, name_end, "")
        return name_end, True
    return i, True


def select(scan, start: int, i: int) -> tuple[int, bool]:
    """``select NAME in …; do …; done`` reads like a for loop."""
    scan.edit(start, i, "for")
    return i, False


# --- case -------------------------------------------------------------------------


def case(scan, start: int, i: int) -> tuple[int, bool]:
    """``case WORD in (pattern) cmds ;; … esac``  →  ``{       cmds ;  … }``."""
    s, n = scan.s, scan.n
    i = _case_head(scan, start, i)
    while True:
        i = scan.skip_blank_lines(i)
        if i >= n:
            raise Unparseable("case without esac")
        if s.startswith("esac", i) and (i + 4 == n or s[i + 4] in _AFTER_ESAC):
            scan.edit(i, i + 4, "}")
            return i + 4, False
        i = _case_clause(scan, i)


def _case_head(scan, start: int, i: int) -> int:
    """``case WORD in`` → ``{``; the index after ``in``."""
    s, n = scan.s, scan.n
    i = scan.skip_blanks(i)
    i = scan.word(i)  # the subject
    i = scan.skip_blank_lines(i)
    if not (s.startswith("in", i) and (i + 2 == n or s[i + 2] in _AFTER_IN)):
        raise Unparseable("case without in")
    scan.edit(start, i + 2, "{")
    return i + 2


def _case_clause(scan, i: int) -> int:
    """``(pattern | …) cmds ;;`` → ``cmds ;``: the patterns go, the terminator becomes ``;``."""
    s = scan.s
    pattern_start = i
    i = _case_patterns(scan, i + 1 if s[i] == "(" else i)
    scan.edit(pattern_start, i, "")
    body_start = i
    i = scan.commands(i, CASE_END)
    separator = ";" if _runs_to_terminator(scan, body_start, i) else ""
    width = 3 if s.startswith(";;&", i) else 2 if s.startswith((";;", ";&"), i) else 0
    if width:
        scan.edit(i, i + width, separator)
    return i + width


def _runs_to_terminator(scan, body_start: int, i: int) -> bool:
    """Whether a clause's last command runs up to its ``;;`` at ``i``, so that a ``;`` must end it.

    Not when the clause is empty, nor when a newline, ``&`` or ``;`` already ends the
    command (``a) grep x⏎ ;;``): a ``;`` after those is a syntax error.
    """
    s = scan.s
    if scan.skip_blank_lines(body_start) >= i:
        return False
    k = i - 1
    while s[k] in BLANKS:
        k -= 1
    return s[k] not in "\n&;" or s[k - 1] == "\\"


def _case_patterns(scan, i: int) -> int:
    """Pattern words separated by ``|`` up to the ``)``; the index after it."""
    s, n = scan.s, scan.n
    while True:
        i = scan.skip_blanks(i)
        if i >= n:
            raise Unparseable("open case pattern")
        if s[i] == ")":
            return i + 1
        if s[i] == "|":
            i += 1
            continue
        stop = scan.word(i)
        if stop == i:
            raise Unparseable("bad case pattern")
        i = stop


# --- what bashlex misreads ---------------------------------------------------------


def substitution_operator(scan, start: int, stop: int) -> None:
    """An operator between the commands of ``$( )``, ``<( )`` or ``>( )``, where bashlex 0.18 reads only ``;``, ``|``.

    Its parser for a substitution's list fails on ``&&``, ``||`` and ``&``
    (``$(cd "$d" && pwd)``) and on a ``;`` or ``&`` that ends the list. The
    first become ``;`` (a list of the same commands), the last a blank.
    """
    s = scan.s
    if s[start] == "|" and s[start:stop] != "||":
        return
    if _closes_list(scan, stop):
        scan.edit(start, stop, "")
    elif s[start:stop] != ";":
        scan.edit(start, stop, ";")


def substitution_newline(scan, i: int, ends_command: bool) -> int:
    """A newline in the list of ``$( )``, ``<( )``, ``>( )`` or backticks, where bashlex 0.18 would end the list.

    It parses the text up to the first newline and drops the rest, commands
    and all (``$(cd d⏎grep x f)``). The newline becomes ``;`` where it ends a
    command, a blank after an operator, a keyword or another newline, and before
    the closer; a comment just before it goes too (the ``;`` would be in it),
    and so do the newlines of the heredoc bodies begun on its line.
    Returns the index past the newline and those bodies.
    """
    start = i
    if scan.regions and scan.regions[-1][1] == i and scan.regions[-1][2] == COMMENT:
        start = scan.regions[-1][0]
    stop = heredoc_bodies(scan, i + 1) if scan.pending else i + 1
    if stop > i + 1:
        scan.edit(i + 1, stop, "")  # the newlines between and after the bodies
    scan.edit(start, i + 1, ";" if ends_command and not _closes_list(scan, stop) else "")
    return stop


def _closes_list(scan, i: int) -> bool:
    """Whether only blanks, newlines and comments stand between ``i`` and the ``)`` or backtick that ends the list."""
    s, n = scan.s, scan.n
    while i < n and (s[i] in " \t\n" or s[i] == "#"):
        i = s.find("\n", i) if s[i] == "#" else i + 1
        i = n if i < 0 else i
    return i < n and s[i] in ")`"


def hash_in_word(scan, start: int, stop: int) -> None:
    """An unquoted ``#`` inside a word in a substitution (``$(echo a#b)``, ``$(seq $#)``) becomes ``_``.

    bashlex 0.18 finds the end of a ``$( )`` by taking every unquoted ``#`` for
    the start of a comment, and loses the ``)``. The word is then masked: its
    value stays its source text.
    """
    s = scan.s
    inside = []  # the quotes and expansions of this word: they were appended while it was read
    for region_start, region_stop, _ in reversed(scan.regions):
        if region_start < start:
            break
        inside.append((region_start, region_stop))
    at = s.find("#", start, stop)
    while at >= 0:
        if s[at - 1] != "\\" and not any(a <= at < b for a, b in inside):
            scan.edit(at, at + 1, "", "_")
        at = s.find("#", at + 1, stop)


def brace_argument(scan, start: int, stop: int) -> None:
    """An argument ``{`` or ``}`` before a reserved word (``find … -ok rm { } \\;``) becomes ``_``.

    bashlex 0.18 takes a reserved word for a keyword whenever the word before it
    is a bare brace, even in argument position, and fails on the command.
    """
    s, n = scan.s, scan.n
    i = stop
    while True:
        i = scan.skip_blanks(i)
        if not s.startswith("\\\n", i):
            break
        i += 2
    end = i
    while end < n and s[end] not in BLANKS and s[end] not in OPERATOR_CHARS:
        end += 1
    if s[i:end] in RESERVED_WORDS:
        scan.edit(start, stop, "", "_")


# The keywords in command position that start a construct bashlex cannot read.
BY_KEYWORD = {
    "[[": double_bracket,
    "for": arithmetic_for,
    "coproc": coproc,
    "select": select,
    "time": time_options,
    "case": case,
}
