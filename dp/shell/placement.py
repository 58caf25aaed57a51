"""Where a template's placeholders sit in a Bash script, and how each is rendered there as data.

Recipe aliases and YAML recipe steps are shell text with ``{{ }}``
placeholders. A value must reach the program as data wherever the author
put it — a plain word, inside ``"…"`` or ``'…'``, glued to quoted text, in an
assignment, in a heredoc body (quoted or not) — and never end the construct
it sits in. So the placeholder itself is never where the value goes:

* **plain words** and **double quotes** take a reference that bash expands
  exactly once and never parses (``"${DP_VAR_x}"``; an alias recipe's typed
  words, which are shell words already);
* **single quotes** (and ``$'…'``) are closed around it and reopened:
  ``'host={{h}}'`` becomes ``'host='"${DP_VAR_h}"''``;
* **heredoc bodies** take the reference unquoted (bash expands a body once,
  without splitting), and a **quoted** heredoc (``<<'EOF'``, ``<<-"EOF"``)
  holding a placeholder becomes an unquoted one with its static text
  escaped, so it prints byte for byte what the quoted one printed with the
  value inlined — and a value line equal to the delimiter ends nothing.

Where the *reading program* makes a value code (``sh -c``, ``eval``,
``python3 -c``, arithmetic …) is ``dp.shell.sinks``; a few places cannot be
rendered as data at all (inside backticks and ``${…}``, a heredoc's
delimiter) and are refused with the way to write them. ``plan`` judges a
template once, ``rewrite`` renders it with each surface's own reference
(``wrap``), both on the one Bash scanner in ``dp.shell.lexer``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from dp.shell import codeflow, lexer, positions, programflow, sinktable
from dp.shell.optioncheck import option_problem  # noqa: F401  (the render-time check, as callers know it)

# The contexts a placeholder is rendered in (``wrap`` receives one of these).
WORD, DOUBLE, SINGLE, HEREDOC_BODY = "word", "double-quoted", "single-quoted", "heredoc"
_QUOTE_CONTEXTS = {
    lexer.DOUBLE_QUOTED: (DOUBLE, "", ""),
    lexer.SINGLE_QUOTED: (SINGLE, "'", "'"),  # context, closer before, reopener after
    lexer.ANSI_C_QUOTED: (SINGLE, "'", "$'"),
    lexer.HEREDOC: (HEREDOC_BODY, "", ""),
    lexer.QUOTED_HEREDOC: (HEREDOC_BODY, "", ""),
}
# Contexts in which a placeholder is a plain word again (or harmless text, in a comment).
_WORD_CONTEXTS = frozenset({lexer.SUBSTITUTION, lexer.TEST, lexer.COMMENT, None})
# Places no rendering can keep a value as data: what they are, and how to write it instead.
_UNPLACEABLE = {
    lexer.BACKTICK: ("inside backticks `…`", "use it as a plain word inside $( … ) instead"),
    lexer.PARAMETER: ("inside a parameter expansion ${…} (a pattern or an arithmetic index)",
                      "assign it to a variable first (v=PLACEHOLDER) and expand that"),
    "heredoc-delimiter": ("used as a heredoc delimiter", "use a fixed word as the delimiter"),
}
_HEREDOC_OPERATOR = re.compile(r"(?<!<)<<-?[ \t]*['\"\\]?\Z")
_SAFE_DELIMITER = re.compile(r"[A-Za-z0-9_.+-]+")
_BODY_SPECIALS = frozenset("\\$`")


class Problem:
    """A placeholder dp refuses: where, and the one line saying why and what to write instead."""

    __slots__ = ("start", "end", "line", "code", "text", "program", "cause")

    def __init__(self, template: str, span: tuple[int, int], text: str, code: bool, program: str = ""):
        self.start, self.end = span
        self.line = template.count("\n", 0, self.start) + 1
        self.code = code  # a code sink (a step may opt in), not a place no rendering can keep data
        self.text = text
        self.program = program  # the sink's program (``sh -c``), or ``sinktable.COMMAND_WORD_SINK``
        self.cause = None  # the command word span that made it code (``sinktable.UNNAMED_SINK``)


class Plan:
    """A judged template: each placeholder's context, the heredocs to unquote, the problems, and the
    placeholders a program may read as an option (span → (program, kind): ``option_problem``)."""

    __slots__ = ("contexts", "unquote", "problems", "options")

    def __init__(self):
        self.contexts: dict[tuple[int, int], tuple[str, str, str]] = {}
        self.unquote: list[tuple] = []
        self.problems: list[Problem] = []
        self.options: dict[tuple[int, int], tuple[str, str]] = {}


def plan(text: str, placeholders, blanks=()) -> Plan:
    """Judge where each placeholder span of ``text`` sits; ``blanks`` (``{% … %}``) read as blanks.

    Raises ``lexer.Unparseable`` when the script is not complete Bash (an
    open quote, an unterminated heredoc): where anything sits cannot be told.
    """
    result = Plan()
    placeholders = sorted(placeholders)
    for span in placeholders:
        if _HEREDOC_OPERATOR.search(text, 0, span[0]):
            result.problems.append(_unplaceable(text, span, "heredoc-delimiter"))
    if result.problems:
        return _numbered(result)
    masked = _masked(text, placeholders, blanks)
    regions, heredocs = lexer.layout(masked)
    for span in placeholders:
        _place(text, masked, regions, span, result)
    for heredoc in heredocs:
        if heredoc[5] and _within(placeholders, heredoc[6], heredoc[7]):
            result.unquote.append(heredoc)
    # Between programs first: a program's own reason names the sink better than the allowlist's.
    verdict = codeflow.judge(masked, placeholders, heredocs, regions, (programflow.judge, positions.judge))
    result.options = verdict.options
    for sink in verdict.sinks:
        tag = text[sink.start:sink.end]
        message = (f"line {{line}}: {tag} would run as code in {sink.program}: {sink.reason}; "
                   f"{sink.alternative.replace('{{x}}', tag)}")
        problem = Problem(text, (sink.start, sink.end), message, code=True, program=sink.program)
        problem.cause = sink.cause
        result.problems.append(problem)
    return _numbered(result)


def _numbered(result: Plan) -> Plan:
    """The problems in order, each naming its line."""
    for problem in result.problems:
        problem.text = problem.text.replace("{line}", str(problem.line))
    result.problems.sort(key=lambda problem: problem.start)
    return result


def _place(text: str, masked: str, regions, span, result: Plan) -> None:
    region = _innermost(regions, *span)
    kind = region[2] if region else None
    if kind not in _UNPLACEABLE and _in_arithmetic(masked, regions, span):
        kind = lexer.ARITHMETIC  # quoted or not: `$(( "{{n}}" ))` still evaluates the value
    if kind in _UNPLACEABLE:
        result.problems.append(_unplaceable(text, span, kind))
    elif kind == lexer.ARITHMETIC:
        tag = text[span[0]:span[1]]
        reason, alternative = sinktable.ARITHMETIC
        result.problems.append(Problem(text, span, f"line {{line}}: {tag} would run as code in arithmetic: "
                                                   f"{reason}; {alternative.replace('{{x}}', tag)}", code=True))
        result.contexts[span] = (WORD, "", "")
    elif kind is None or kind in _WORD_CONTEXTS:
        result.contexts[span] = (WORD, "", "")
    else:
        result.contexts[span] = _QUOTE_CONTEXTS[kind]


def _in_arithmetic(masked: str, regions, span) -> bool:
    """Whether arithmetic (``$(( ))``, ``(( ))``, ``[[ … -eq … ]]``) encloses ``span`` with no
    command substitution in between (inside ``$( )`` it is a command again)."""
    enclosing = sorted((region for region in regions if region[0] <= span[0] and span[1] <= region[1]),
                       key=lambda region: region[1] - region[0])
    for start, end, kind in enclosing:
        if kind in (lexer.SUBSTITUTION, lexer.BACKTICK):
            return False
        if kind == lexer.ARITHMETIC or (kind == lexer.TEST and codeflow.TEST_ARITHMETIC.search(masked, start, end)):
            return True
    return False


def _unplaceable(text: str, span, kind: str) -> Problem:
    tag = text[span[0]:span[1]]
    where, advice = _UNPLACEABLE[kind]
    return Problem(text, span, f"line {{line}}: {tag} is {where}, where bash would read it again as code; "
                               f"{advice.replace('PLACEHOLDER', tag)}", code=False)


def rewrite(text: str, judged: Plan, wrap: Callable[[str, str, tuple], str], blanks=()) -> str:
    """``text`` with every placeholder rendered by ``wrap(tag, context, span)`` for its context.

    Single quotes are closed and reopened around it, and each quoted heredoc
    holding one becomes unquoted, its static text escaped (``\\ $ ```` outside
    the placeholders and ``blanks``) and its delimiter renamed when it is not
    a plain word.
    """
    edits = []
    for (start, end), (context, closer, reopener) in judged.contexts.items():
        edits.append((start, end, closer + wrap(text[start:end], context, (start, end)) + reopener))
    skip = sorted([*judged.contexts, *blanks])
    for operator, word_start, word_end, delimiter, _tabs, _quoted, body_start, body_end, after in judged.unquote:
        lines = set(text[body_start:body_end].split("\n"))
        renamed = delimiter if _SAFE_DELIMITER.fullmatch(delimiter) else "DP_EOF"
        while renamed != delimiter and renamed in lines:
            renamed += "_"
        edits.append((word_start, word_end, renamed))
        if renamed != delimiter:
            line_end = text.find("\n", body_end, after) if "\n" in text[body_end:after] else after
            edits.append((body_end, line_end, renamed))
        edits += [(i, i + 1, "\\" + text[i]) for i in range(body_start, body_end)
                  if text[i] in _BODY_SPECIALS and not _inside(skip, i)]
    out, position = [], 0
    for start, end, replacement in sorted(edits):
        out.append(text[position:start])
        out.append(replacement)
        position = end
    out.append(text[position:])
    return "".join(out)


def _masked(text: str, placeholders, blanks) -> str:
    """``text`` with placeholders as plain letters and blanks as spaces (same length)."""
    chars = list(text)
    for spans, fill in ((placeholders, "x"), (blanks, " ")):
        for start, end in spans:
            chars[start:end] = fill * (end - start)
    return "".join(chars)


def _within(spans, start: int, end: int) -> list:
    return [span for span in spans if start <= span[0] and span[1] <= end]


def _inside(spans, i: int) -> bool:
    return any(start <= i < end for start, end in spans)


def _innermost(regions, start: int, end: int):
    """The smallest region holding ``[start, end)`` (regions nest), or None at the top level."""
    best = None
    for region in regions:
        if region[0] <= start and end <= region[1] and (best is None or region[1] - region[0] < best[1] - best[0]):
            best = region
    return best
