"""The one Bash scanner: command lists, words, quotes and expansions (stdlib only).

A recursive-descent walk over shell text, one method per construct. It
records two things as it goes:

* ``regions`` — the quoting contexts it passed through (``'…'``, ``"…"``,
  ``$( )``, heredoc bodies, arithmetic, comments …), innermost last among
  overlapping ones; ``dp.shell.placement`` judges template placeholders with them.
* ``edits`` — same-length overwrites of what bashlex 0.18 cannot read, made
  by ``dp.shell.constructs`` (``case``, ``[[ ]]``, heredocs …); the lexer's
  ``prepare`` applies them.

Text it cannot close (an open quote, a missing ``)``, an unterminated
heredoc) raises ``Unparseable``. The command-list loop is the hot path of
the hook: it handles blanks, newlines and plain words inline and calls a
method only for punctuation and for words in command position.
"""

from __future__ import annotations

from dp.shell import constructs
from dp.shell.syntax import (
    AFTER_ASSIGNMENT,
    ANSI_C_QUOTED,
    ARITHMETIC,
    ASSIGNMENT,
    BACKTICK,
    BLANKS,
    CASE_END,
    COMMENT,
    DOUBLE_QUOTED,
    KEEP_COMMAND_POSITION,
    OPERATOR_CHARS,
    PARAMETER,
    QUOTING,
    SINGLE_QUOTED,
    SUBSTITUTION,
    SUBSTITUTION_END,
    Unparseable,
    escaped_quote_end,
)

# Characters that may end a command list: the closers ) and `, and ;; / ;& in a case clause.
_LIST_ENDS = ")`;"
# Two-character control operators (one character otherwise: ; & |).
_TWO_CHAR_OPERATORS = frozenset({"&&", "||", "|&", ";&"})
_TWO_CHAR_REDIRECTIONS = frozenset({">>", ">&", "<&", "<>", ">|"})
# Argument (or redirection target) words after which bashlex 0.18 takes a reserved word for a keyword.
_BRACES = frozenset({"{", "}"})


class Scanner:
    """Scan one string; see the module docstring for what it records."""

    __slots__ = ("s", "n", "edits", "pending", "regions", "nested", "heredocs")

    def __init__(self, text: str):
        self.s = text
        self.n = len(text)
        self.edits: list[tuple[int, int, str, str]] = []  # (start, stop, head, fill)
        self.pending: list[tuple] = []  # heredocs to read: (delimiter, strip tabs, quoted, operator span)
        # Each heredoc read: (operator start, delimiter word start, word end, delimiter, strip tabs,
        # quoted, body start, body end, end of the delimiter line) — templates rewrite them.
        self.heredocs: list[tuple] = []
        self.regions: list[tuple[int, int, str]] = []  # (start, stop, kind)
        self.nested = 0  # how many substitutions (command, process, backtick) enclose the scan

    def scan(self) -> Scanner:
        """Scan the whole text; raises ``Unparseable`` unless it is one balanced command list."""
        try:
            end = self.commands(0, None)
        except RecursionError:  # substitutions or groups nested deeper than the scan recurses
            raise Unparseable("nested too deeply") from None
        if end != self.n or self.pending:
            raise Unparseable("unbalanced input")
        return self

    # --- edits -----------------------------------------------------------------

    def edit(self, start: int, stop: int, head: str, fill: str = " ") -> None:
        """Overwrite ``[start, stop)`` with ``head`` followed by ``fill`` characters."""
        self.edits.append((start, stop, head, fill))

    def mask(self, start: int, stop: int, head: str, fill: str = " ") -> None:
        """Overwrite ``[start, stop)`` except the command substitutions in it.

        ``[[ $(grep …) ]]`` becomes ``:  $(grep …)   `` and ``a=( $(ls) )``
        ``a=__$(ls)__``: bashlex still sees (and dp rewrites) the commands they run.
        """
        kept: list = []
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

    # --- command lists -----------------------------------------------------------

    def commands(self, i: int, closer) -> int:
        """A command list from ``i`` until ``closer``; the index just past the closer.

        ``closer`` is ``)`` (a subshell, an array), ``SUBSTITUTION_END`` (the ``)`` of
        ``$( )``, ``<( )``, ``>( )``) or a backtick, ``CASE_END`` for a case clause (which
        ends before its ``;;``/``;&``/``;;&`` or ``esac``), or None (the end of the text).
        """
        s, n = self.s, self.n
        in_case = closer == CASE_END
        command_position: bool | str = True  # the next word may name a command (or a keyword)
        redirect_target = False  # the next word is a redirection's target
        while i < n:
            c = s[i]
            if c in BLANKS:
                i += 1
            elif c == "\n":
                i, command_position = self.newline(i, closer, command_position), True
            elif c in _LIST_ENDS and self.ends_list(i, c, closer):
                return i if c == ";" else i + 1
            elif c in ";&|":
                i = self.control_operator(i, closer)
                if s[i - 1] == ">":  # &> and &>>: a redirection (no control operator ends in >)
                    redirect_target = True
                else:
                    command_position = True
            elif c == "(":
                i, command_position = self.parenthesis(i, command_position)
            elif c in "<>":
                i, command_position, redirect_target = self.redirection(i, command_position, redirect_target)
            elif c == "#":
                i = self.comment(i)
            elif c == "\\" and s.startswith("\\\n", i):
                i = self.continuation(i)
            else:
                start, i = i, self.word(i, closer)
                if command_position and not redirect_target:
                    if in_case and s[start:i] == "esac":
                        return start
                    i, command_position = self.command_word(start, i)
                else:  # an argument or a redirection's target
                    redirect_target = False
                    if s[start:i] in _BRACES:
                        constructs.brace_argument(self, start, i)
        return self.end_of_text(i, closer)

    def continuation(self, i: int) -> int:
        """Past a line continuation between words.

        In a substitution bashlex 0.18 parses the text with its continuations
        taken out, so every position it reports after one is two characters
        short: there the continuation is blanked (one inside a word, see
        ``quoted_part``, becomes ``__`` and the word is masked).
        """
        if self.nested:
            self.edit(i, i + 2, "")
        return i + 2

    def substitution(self, i: int, closer) -> int:
        """The command list of ``$( )``, ``<( )``, ``>( )`` (``closer`` ``SUBSTITUTION_END``) or backticks."""
        self.nested += 1
        stop = self.commands(i, closer)
        self.nested -= 1
        return stop

    def end_of_text(self, i: int, closer) -> int:
        if closer is not None and closer != CASE_END:
            raise Unparseable(f"missing {')' if closer == SUBSTITUTION_END else closer}")
        return i

    def newline(self, i: int, closer=None, command_position=True) -> int:
        """Past a newline, and past the bodies of the heredocs begun on its line.

        In a substitution's list bashlex 0.18 would stop at the newline
        (``constructs.substitution_newline`` overwrites it).
        """
        if closer == SUBSTITUTION_END or closer == "`":
            return constructs.substitution_newline(self, i, command_position is not True)
        return constructs.heredoc_bodies(self, i + 1) if self.pending else i + 1

    def ends_list(self, i: int, c: str, closer) -> bool:
        """Whether the ``)``, backtick or ``;`` at ``i`` ends the list that ``closer`` closes."""
        if c == ";":
            return closer == CASE_END and self.s.startswith((";;", ";&"), i)
        if c == closer or (c == ")" and closer == SUBSTITUTION_END):
            return True
        if c == ")":
            raise Unparseable("unexpected )")
        return False  # a backtick that opens a substitution: part of a word

    def control_operator(self, i: int, closer=None) -> int:
        """Past ``; & | && || |& ;&`` (and ``&>``/``&>>``, a redirection)."""
        s = self.s
        if s.startswith(";;", i):
            raise Unparseable(";; outside case")
        start, first = i, s[i]
        i += 2 if s[i : i + 2] in _TWO_CHAR_OPERATORS else 1
        if first == "&" and s.startswith(">", i):  # &> and &>>
            return i + (2 if s.startswith(">>", i) else 1)
        if closer == SUBSTITUTION_END:
            constructs.substitution_operator(self, start, i)
        return i

    def parenthesis(self, i: int, command_position: bool | str) -> tuple[int, bool | str]:
        """``((…))``, a function's ``()`` or a subshell: (end, command position after it)."""
        if command_position and self.s.startswith("((", i):
            return constructs.arithmetic_command(self, i), False
        after = self.skip_blanks(i + 1)
        if not command_position and self.s.startswith(")", after):
            return after + 1, True  # f() { …; }
        return self.commands(i + 1, ")"), False

    def redirection(self, i: int, command_position: bool | str, redirect_target: bool) -> tuple[int, bool | str, bool]:
        """A redirection, heredoc or process substitution: (end, command position, redirect target)."""
        s = self.s
        if s.startswith(("<(", ">("), i):
            stop = self.substitution(i + 2, SUBSTITUTION_END)
            self.regions.append((i, stop, SUBSTITUTION))
            # As a redirection's target (`< <(ls)`) it ends the redirection.
            return stop, command_position if redirect_target else False, False
        if s.startswith("<<<", i):
            return i + 3, command_position, True
        if s.startswith("<<", i):
            return constructs.heredoc_operator(self, i), command_position, redirect_target
        return i + (2 if s[i : i + 2] in _TWO_CHAR_REDIRECTIONS else 1), command_position, True

    def command_word(self, start: int, i: int) -> tuple[int, bool | str]:
        """A word in command position, which may start a construct: (end, command position after it)."""
        word = self.s[start:i]
        construct = constructs.BY_KEYWORD.get(word)
        if construct is not None:
            return construct(self, start, i)
        if word in KEEP_COMMAND_POSITION:
            return i, True
        return i, AFTER_ASSIGNMENT if ASSIGNMENT.match(word) else False

    def comment(self, i: int) -> int:
        """Skip a comment from its ``#`` to (not past) the end of its line."""
        newline = self.s.find("\n", i)
        stop = self.n if newline < 0 else newline
        self.regions.append((i, stop, COMMENT))
        return stop

    def skip_blanks(self, i: int) -> int:
        while i < self.n and self.s[i] in BLANKS:
            i += 1
        return i

    def skip_blank_lines(self, i: int) -> int:
        """Past blanks, newlines and comments."""
        s, n = self.s, self.n
        while i < n:
            if s[i] in " \t\n":
                i += 1
            elif s[i] == "#":
                i = self.comment(i)
            else:
                break
        return i

    # --- words -------------------------------------------------------------------

    def word(self, i: int, closer=None) -> int:
        """One shell word starting at ``i``; the index just past it."""
        s, n = self.s, self.n
        start = i
        while i < n:
            c = s[i]
            if c in BLANKS or c in OPERATOR_CHARS:
                if c == "(" and ASSIGNMENT.fullmatch(s[start:i]):
                    i = self.array(i)
                    continue
                break
            if c == "`" and closer == "`":
                break
            if c == "'":
                self.check_single_quoted(start, i)
            i = self.quoted_part(i) if c in QUOTING else i + 1
        i = min(i, n)
        if self.nested and "#" in s[start:i]:
            constructs.hash_in_word(self, start, i)
        return i

    def array(self, i: int) -> int:
        """The ``(…)`` of ``a=(…)``: masked as ``__…__`` (its substitutions kept)."""
        stop = self.commands(i + 1, ")")
        self.mask(i, stop, "", "_")
        return stop

    def check_single_quoted(self, word_start: int, i: int) -> None:
        """Refuse the quoting that sends bashlex 0.18 into an endless loop.

        A single-quoted ``'…${…'`` whose ``${`` is not closed inside the quotes,
        in a word with anything before or after it (``echo 'a${'b``). And
        overwrite the inside of ``'…'`` with a backtick in an assignment
        (``p='`x'``), which bashlex reads as a substitution and fails on or,
        inside ``$( )``, silently drops the commands around it.
        """
        s = self.s
        stop = self.single_quoted(i + 1)
        segment = s[i + 1 : stop - 1]
        if "`" in segment and ASSIGNMENT.match(s, word_start):
            self.edit(i + 1, stop - 1, "", "_")
            return
        opened = segment.rfind("${")
        if opened < 0 or "}" in segment[opened:]:
            return
        if i > word_start or (stop < self.n and s[stop] not in BLANKS and s[stop] not in OPERATOR_CHARS):
            raise Unparseable("quoting that bashlex cannot read")

    # --- quotes and expansions -----------------------------------------------------

    def quoted_part(self, i: int, in_double_quotes: bool = False) -> int:
        """End of the escape, quoted string, substitution or expansion starting at i."""
        c = self.s[i]
        if c == "\\":
            if self.nested and self.s.startswith("\\\n", i):
                self.edit(i, i + 2, "", "_")  # a line continuation inside a word (see ``continuation``)
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
            stop, kind = self.substitution(i + 1, "`"), BACKTICK
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
            i = self.quoted_part(i, in_double_quotes=True) if c in QUOTING else i + 1
        raise Unparseable("open double quote")

    def dollar(self, i: int, in_double_quotes: bool) -> int:
        """``$'…'``, ``$"…"``, ``$((…))``, ``$[…]``, ``$(…)``, ``${…}`` or a plain ``$``."""
        s = self.s
        if s.startswith(("$((", "$["), i):
            stop = self.arithmetic(i + 3) if s[i + 1] == "(" else self.arithmetic(i + 2, "]")
            self.mask(i, stop, "$", "_")
            kind = ARITHMETIC
        elif s.startswith("$(", i):
            stop, kind = self.substitution(i + 2, SUBSTITUTION_END), SUBSTITUTION
        elif s.startswith("${", i):
            stop, kind = self.parameter(i + 2, in_double_quotes), PARAMETER
        elif not in_double_quotes and s.startswith("$'", i):
            stop, kind = self.ansi_c_quoted(i + 2), ANSI_C_QUOTED
        else:
            return i + 1
        self.regions.append((i, stop, kind))
        return stop

    def ansi_c_quoted(self, i: int) -> int:
        stop = escaped_quote_end(self.s, i, "'")
        if stop < 0:
            raise Unparseable("open $' quote")
        return stop

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
                i = self.quoted_part(i, in_double_quotes) if c in QUOTING else i + 1
        raise Unparseable("open ${")

    def arithmetic(self, i: int, closing: str = "))") -> int:
        """The body of ``$((…))``, ``((…))`` or the old ``$[…]`` (``closing`` ``]``) from just after its opening."""
        s, n = self.s, self.n
        opening, close = ("(", ")") if closing == "))" else ("[", "]")
        depth = 0
        while i < n:
            c = s[i]
            if c == opening:
                depth += 1
            elif c == close:
                if depth == 0:
                    if s.startswith(closing, i):
                        return i + len(closing)
                    raise Unparseable("arithmetic closed by a single )")
                depth -= 1
            elif c in QUOTING:
                i = self.quoted_part(i)
                continue
            i += 1
        raise Unparseable("open arithmetic")
