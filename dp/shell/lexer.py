"""A small Bash lexer used before bashlex (stdlib only).

* ``prepare(text)`` — an offset-preserving pre-pass for the constructs bashlex
  0.18 cannot read (quoted heredoc delimiters, heredoc bodies, ``[[ ]]``,
  ``$(( ))``, ``(( ))``, ``time``, arrays, ``case``). Each one is overwritten
  by a same-length placeholder bashlex can parse, so every position bashlex
  reports is a position in the original string. Strings the lexer cannot close
  (an open quote, a missing ``)``, an unterminated heredoc — the inputs that
  make bashlex hang) raise ``Unparseable`` so that the caller does nothing.
* ``regions(text)`` — the quoting contexts (quotes, substitutions, heredoc
  bodies, arithmetic, comments …) found by the same scan; ``dp.shell.placement``
  judges template placeholders with them.
* ``plain_runs(word)`` — the literal runs of a word, for the rule kinds.
"""

from __future__ import annotations

import re


class Unparseable(Exception):
    """The string is not something we can segment safely; leave it alone."""


# --- the pre-pass --------------------------------------------------------------

_BLANKS = " \t"
_OPERATOR_CHARS = ";&|()<>\n"
_QUOTING = "\\'\"`$"  # characters that start an escape, a quote or an expansion
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=")  # NAME=, NAME[i]+= …
# Reserved words after which the next word is again in command position.
_KEEP_COMMAND_POSITION = frozenset({"!", "{", "then", "do", "else", "elif", "if", "while", "until"})
# What ends a case clause's command list.
_CASE_END = "case"

# Region kinds recorded by the scanner (see ``_Scanner.regions``).
SINGLE_QUOTED, DOUBLE_QUOTED, ANSI_C_QUOTED = "single-quoted", "double-quoted", "ansi-c-quoted"
BACKTICK, SUBSTITUTION, PARAMETER = "backtick", "substitution", "parameter"
ARITHMETIC, TEST, COMMENT = "arithmetic", "test", "comment"
HEREDOC, QUOTED_HEREDOC = "heredoc", "quoted-heredoc"


class Prepared:
    """The bashlex-ready text plus the regions that were overwritten."""

    __slots__ = ("text", "masks", "literals")

    def __init__(self, text: str, masks: list[tuple[int, int]], literals=()):
        self.text = text
        self.masks = masks
        self.literals = literals  # '…' and $'…' spans: nothing in them ever runs

    def literal(self, at: int) -> bool:
        """Whether position ``at`` is inside a single-quoted string."""
        return any(start < at < end for start, end in self.literals)

    def masked(self, start: int, end: int) -> bool:
        """Whether any of ``[start, end)`` was overwritten by the pre-pass."""
        return any(s < end and start < e for s, e in self.masks)


def prepare(text: str) -> Prepared:
    """Return ``text`` with unreadable constructs overwritten, same length."""
    scanner = _scan(text)
    chars = list(text)
    for start, stop, head, fill in scanner.edits:
        for index in range(start, stop):
            chars[index] = fill
        chars[start : start + len(head)] = head
    masks = sorted((start, stop) for start, stop, _, _ in scanner.edits if stop > start)
    literals = [(start, stop) for start, stop, kind in scanner.regions if kind in (SINGLE_QUOTED, ANSI_C_QUOTED)]
    return Prepared("".join(chars), masks, literals)


def regions(text: str) -> list[tuple[int, int, str]]:
    """The quoting contexts of ``text`` as ``(start, stop, kind)``; raises ``Unparseable``."""
    return _scan(text).regions


def _scan(text: str) -> "_Scanner":
    scanner = _Scanner(text)
    end = scanner.commands(0, None)
    if end != len(text) or scanner.pending:
        raise Unparseable("unbalanced input")
    return scanner


class _Scanner:
    """Recursive-descent scan of shell text that records same-length edits."""

    def __init__(self, text: str):
        self.s = text
        self.n = len(text)
        self.edits: list[tuple[int, int, str, str]] = []
        self.pending: list[tuple[str, bool, bool]] = []  # heredoc (delimiter, strip tabs, quoted)
        # Quoting contexts as (start, stop, kind), innermost last among overlapping
        # ones; read by ``dp.shell.placement`` to judge where a placeholder sits.
        self.regions: list[tuple[int, int, str]] = []

    def edit(self, start: int, stop: int, head: str, fill: str = " ") -> None:
        self.edits.append((start, stop, head, fill))

    def mask(self, start: int, stop: int, head: str, fill: str = " ") -> None:
        """Overwrite ``[start, stop)`` except the command substitutions in it.

        ``[[ $(grep …) ]]`` becomes ``:  $(grep …)   `` and ``a=( $(ls) )``
        ``a=__$(ls)__``: bashlex still sees (and dp rewrites) the commands they run.
        """
        kept = []
        for sub_start, sub_stop, kind in sorted(self.regions):
            if kind not in (SUBSTITUTION, BACKTICK) or not (start + len(head) <= sub_start and sub_stop <= stop):
                continue
            if not kept or sub_start >= kept[-1][1]:
                kept.append((sub_start, sub_stop))
        at = start
        for sub_start, sub_stop in kept:
            self.edit(at, sub_start, head if at == start else "", fill)
            at = sub_stop
        self.edit(at, stop, head if at == start else "", fill)

    # A command list, until ``closer`` (')' or '`'), or a case clause's end,
    # or the end of the text. Returns the index just past the closer.
    def commands(self, i: int, closer) -> int:
        s, n = self.s, self.n
        command_position = True
        redirect_target = False
        while i < n:
            c = s[i]
            if c == "\n":
                i = self.heredoc_bodies(i + 1) if self.pending else i + 1
                command_position = True
                continue
            if c in _BLANKS:
                i += 1
                continue
            if c == "\\" and s.startswith("\\\n", i):
                i += 2
                continue
            if c == "#":
                i = self.comment(i)
                continue
            if closer == "`" and c == "`":
                return i + 1
            if c == ")":
                if closer == ")":
                    return i + 1
                raise Unparseable("unexpected )")
            if closer == _CASE_END and c == ";" and s.startswith(";;", i):
                return i
            if c == ";" and s.startswith(";&", i) and closer == _CASE_END:
                return i
            if c in ";&|":
                if s.startswith(";;", i):
                    raise Unparseable(";; outside case")
                i += 2 if s[i : i + 2] in ("&&", "||", "|&", ";&") else 1
                if s.startswith(">", i) and c == "&":  # &> and &>> redirects
                    i += 2 if s.startswith(">>", i) else 1
                    redirect_target = True
                    continue
                command_position = True
                continue
            if c == "(":
                if command_position and s.startswith("((", i):
                    stop = self.arithmetic(i + 2)
                    self.mask(i, stop, ":")
                    self.regions.append((i, stop, ARITHMETIC))
                    i, command_position = stop, False
                    continue
                after = self.skip_blanks(i + 1)
                if not command_position and after < n and s[after] == ")":
                    i, command_position = after + 1, True  # f() { …; }
                    continue
                i, command_position = self.commands(i + 1, ")"), False
                continue
            if c in "<>":
                if s.startswith(("<(", ">("), i):
                    start, i = i, self.commands(i + 2, ")")
                    self.regions.append((start, i, SUBSTITUTION))
                    command_position = False
                    continue
                if s.startswith("<<<", i):
                    i += 3
                elif s.startswith("<<", i):
                    i = self.heredoc_operator(i)
                    continue
                else:
                    i += 2 if s[i : i + 2] in (">>", ">&", "<&", "<>", ">|") else 1
                redirect_target = True
                continue
            start = i
            i = self.word(i, closer)
            word = s[start:i]
            if redirect_target:
                redirect_target = False
                continue
            if not command_position:
                continue
            if closer == _CASE_END and word == "esac":
                return start
            if word == "[[":
                i = self.double_bracket(i)
                self.mask(start, i, ":")
                self.regions.append((start, i, TEST))
                command_position = False
            elif word == "for" and s.startswith("((", self.skip_blanks(i)):
                i = self.arithmetic(self.skip_blanks(i) + 2)
                # for ((…)) → while :   (same length, same body); `for ((…)) do` needs the ;
                separated = s.startswith((";", "\n"), self.skip_blanks(i))
                self.mask(start, i, "while :" if separated else "while :;")
                command_position = False
            elif word == "coproc":
                i = self.coproc(start, i)
            elif word == "select":
                self.edit(start, i, "for")  # select NAME in …; do …; done reads like a for loop
                command_position = False
            elif word == "time":
                i = self.time_options(start, i)
            elif word == "case":
                i = self.case(start, i)
                command_position = False
            elif word not in _KEEP_COMMAND_POSITION and not ASSIGNMENT.match(word):
                command_position = False
        if closer is not None and closer != _CASE_END:
            raise Unparseable(f"missing {closer}")
        return i

    def comment(self, i: int) -> int:
        """Skip a comment from its ``#`` to (not past) the end of its line."""
        newline = self.s.find("\n", i)
        stop = self.n if newline < 0 else newline
        self.regions.append((i, stop, COMMENT))
        return stop

    def coproc(self, start: int, i: int) -> int:
        """``coproc [NAME] command``: blank out the keyword (and NAME before a compound command)."""
        self.edit(start, i, "")
        after = self.skip_blanks(i)
        name_end = after
        while name_end < self.n and (self.s[name_end].isalnum() or self.s[name_end] == "_"):
            name_end += 1
        followed = self.s.startswith(("{", "("), self.skip_blanks(name_end))
        if name_end > after and followed and name_end < self.n and self.s[name_end] in _BLANKS:
            self.edit(after, name_end, "")
            return name_end
        return i

    def skip_blanks(self, i: int) -> int:
        while i < self.n and self.s[i] in _BLANKS:
            i += 1
        return i

    # One shell word starting at i; returns the index just past it.
    def word(self, i: int, closer=None) -> int:
        s, n = self.s, self.n
        start = i
        while i < n:
            c = s[i]
            if c in _BLANKS or c in _OPERATOR_CHARS:
                if c == "(" and ASSIGNMENT.fullmatch(s[start:i]):
                    stop = self.commands(i + 1, ")")
                    self.mask(i, stop, "", "_")
                    i = stop
                    continue
                return i
            if c == "`" and closer == "`":
                return i
            if c == "'":
                self.check_single_quoted(start, i)
            i = self.quoted_part(i) if c in _QUOTING else i + 1
        return min(i, n)

    def check_single_quoted(self, word_start: int, i: int) -> None:
        """Refuse the quoting that sends bashlex 0.18 into an endless loop.

        A single-quoted ``'…${…'`` whose ``${`` is not closed inside the quotes,
        in a word with anything before or after it (``echo 'a${'b``).
        """
        s = self.s
        stop = self.single_quoted(i + 1)
        segment = s[i + 1 : stop - 1]
        opened = segment.rfind("${")
        if opened < 0 or "}" in segment[opened:]:
            return
        if i > word_start or (stop < self.n and s[stop] not in _BLANKS and s[stop] not in _OPERATOR_CHARS):
            raise Unparseable("quoting that bashlex cannot read")

    def quoted_part(self, i: int, in_double_quotes: bool = False) -> int:
        """End of the escape, quoted string, substitution or expansion starting at i."""
        c = self.s[i]
        if c == "\\":
            return i + 2
        if c == "'" and in_double_quotes:
            return i + 1
        if c == "$":
            return self.dollar(i, in_double_quotes)
        if c == "'":
            stop, kind = self.single_quoted(i + 1), SINGLE_QUOTED
        elif c == '"':
            stop, kind = self.double_quoted(i + 1), DOUBLE_QUOTED
        else:
            stop, kind = self.commands(i + 1, "`"), BACKTICK
        self.regions.append((i, stop, kind))
        return stop

    def single_quoted(self, i: int) -> int:
        close = self.s.find("'", i)
        if close < 0:
            raise Unparseable("open single quote")
        return close + 1

    def double_quoted(self, i: int) -> int:
        s, n = self.s, self.n
        while i < n:
            c = s[i]
            if c == '"':
                return i + 1
            i = self.quoted_part(i, in_double_quotes=True) if c in _QUOTING else i + 1
        raise Unparseable("open double quote")

    # $'…', $"…", $((…)), $(…), ${…} or a plain $.
    def dollar(self, i: int, in_double_quotes: bool) -> int:
        s = self.s
        if s.startswith("$((", i):
            stop = self.arithmetic(i + 3)
            self.mask(i, stop, "$", "_")
            kind = ARITHMETIC
        elif s.startswith("$(", i):
            stop, kind = self.commands(i + 2, ")"), SUBSTITUTION
        elif s.startswith("${", i):
            stop, kind = self.parameter(i + 2, in_double_quotes), PARAMETER
        elif not in_double_quotes and s.startswith("$'", i):
            stop, kind = self.ansi_c_quoted(i + 2), ANSI_C_QUOTED
        else:
            return i + 1
        self.regions.append((i, stop, kind))
        return stop

    def ansi_c_quoted(self, i: int) -> int:
        s, n = self.s, self.n
        while i < n:
            if s[i] == "\\":
                i += 2
            elif s[i] == "'":
                return i + 1
            else:
                i += 1
        raise Unparseable("open $' quote")

    def parameter(self, i: int, in_double_quotes: bool) -> int:
        s, n = self.s, self.n
        depth = 1
        while i < n:
            c = s[i]
            if c == "}":
                depth -= 1
                if depth == 0:
                    return i + 1
                i += 1
            elif c == "{":
                depth += 1
                i += 1
            else:
                i = self.quoted_part(i, in_double_quotes) if c in _QUOTING else i + 1
        raise Unparseable("open ${")

    # The body of $((…)) or ((…)), starting after the opening parentheses.
    def arithmetic(self, i: int) -> int:
        s, n = self.s, self.n
        depth = 0
        while i < n:
            c = s[i]
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    if s.startswith("))", i):
                        return i + 2
                    raise Unparseable("arithmetic closed by a single )")
                depth -= 1
            elif c in _QUOTING:
                i = self.quoted_part(i)
                continue
            i += 1
        raise Unparseable("open arithmetic")

    # << or <<- and its delimiter; the body is read at the next newline.
    def heredoc_operator(self, i: int) -> int:
        start = i
        i += 2
        strip_tabs = self.s.startswith("-", i)
        if strip_tabs:
            i += 1
        i = self.skip_blanks(i)
        word_start = i
        i = self.word(i)
        if i == word_start:
            raise Unparseable("heredoc without a delimiter")
        word = self.s[word_start:i]
        delimiter = re.sub(r"\\(.)|['\"]", lambda m: m.group(1) or "", word)
        self.pending.append((delimiter, strip_tabs, delimiter != word))
        self.edit(start, i, "<", "_")
        return i

    # Heredoc bodies start at i (just after a newline); blank them out.
    def heredoc_bodies(self, i: int) -> int:
        s, n = self.s, self.n
        pending, self.pending = self.pending, []
        for delimiter, strip_tabs, quoted in pending:
            body_start = i
            while True:
                if i >= n:
                    raise Unparseable(f"heredoc {delimiter!r} is not terminated")
                newline = s.find("\n", i)
                line_end = n if newline < 0 else newline
                line = s[i:line_end]
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    self.edit(body_start, line_end, "")
                    self.regions.append((body_start, i, QUOTED_HEREDOC if quoted else HEREDOC))
                    i = line_end + 1 if newline >= 0 else n
                    break
                i = line_end + 1
        return i

    # [[ … ]]: tokens up to the word ]] (the caller overwrites it all).
    def double_bracket(self, i: int) -> int:
        s, n = self.s, self.n
        while i < n:
            c = s[i]
            if c in " \t\n":
                i += 1
            elif s.startswith("]]", i) and (i + 2 == n or s[i + 2] in " \t\n;&|)"):
                return i + 2
            elif c in "()<>&|!;":
                i += 1
            else:
                i = self.word(i)
        raise Unparseable("open [[")

    # `time` and its -p / -- : overwritten, the command after it is the one run.
    def time_options(self, start: int, i: int) -> int:
        end = i
        while True:
            after = self.skip_blanks(end)
            if self.s.startswith(("-p ", "-p\t", "-- ", "--\t"), after):
                end = after + 2
            else:
                break
        self.edit(start, end, "")
        return end

    # case WORD in (pattern) cmds ;; … esac  →  {       cmds ;  … }
    def case(self, start: int, i: int) -> int:
        s, n = self.s, self.n
        i = self.skip_blanks(i)
        i = self.word(i)  # the subject
        i = self.skip_blank_lines(i)
        if not (s.startswith("in", i) and (i + 2 == n or s[i + 2] in " \t\n;")):
            raise Unparseable("case without in")
        self.edit(start, i + 2, "{")
        i += 2
        while True:
            i = self.skip_blank_lines(i)
            if i >= n:
                raise Unparseable("case without esac")
            if s.startswith("esac", i) and (i + 4 == n or s[i + 4] in " \t\n;&|)"):
                self.edit(i, i + 4, "}")
                return i + 4
            pattern_start = i
            if s[i] == "(":
                i += 1
            while True:  # pattern words separated by |
                i = self.skip_blanks(i)
                if i >= n:
                    raise Unparseable("open case pattern")
                if s[i] == ")":
                    i += 1
                    break
                if s[i] == "|":
                    i += 1
                    continue
                stop = self.word(i)
                if stop == i:
                    raise Unparseable("bad case pattern")
                i = stop
            self.edit(pattern_start, i, "")
            body_start = i
            i = self.commands(i, _CASE_END)
            # An empty clause must not leave a bare ';' behind (a syntax error).
            separator = ";" if self.has_commands(body_start, i) else ""
            width = 3 if s.startswith(";;&", i) else 2 if s.startswith((";;", ";&"), i) else 0
            if width:
                self.edit(i, i + width, separator)
                i += width

    def has_commands(self, start: int, stop: int) -> bool:
        return self.skip_blank_lines(start) < stop

    def skip_blank_lines(self, i: int) -> int:
        s, n = self.s, self.n
        while i < n:
            if s[i] in " \t\n":
                i += 1
            elif s[i] == "#":
                i = self.comment(i)
            else:
                break
        return i


# --- tokenisation helpers --------------------------------------------------------


def plain_runs(word: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` runs of ``word`` that are literal, unquoted text.

    Quoted strings, escapes, ``$`` expansions and command substitutions are
    excluded: rules never rewrite inside them.
    """
    scanner = _Scanner(word)
    runs = []
    run_start = i = 0
    n = len(word)
    while i < n:
        c = word[i]
        if c in _QUOTING:
            if run_start < i:
                runs.append((run_start, i))
            stop = scanner.quoted_part(i)
            if c == "$" and stop == i + 1:  # $name, $1, $@ …
                match = _PARAMETER_NAME.match(word, stop)
                stop = match.end() if match else stop
            i = run_start = stop
        else:
            i += 1
    if run_start < n:
        runs.append((run_start, n))
    return runs


_PARAMETER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]")
