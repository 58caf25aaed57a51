"""Where a template's placeholders sit in a Bash script, and which places are safe.

Recipe aliases and YAML recipe steps are shell text with placeholders. A
placeholder in plain word position becomes one or more whole shell words,
which bash takes as data. Everywhere else bash reads what was spliced in a
second time: inside ``"…"`` a ``$(…)`` still runs, inside ``'…'`` a quote ends
the string, a heredoc body expands ``$(…)`` (and a line equal to the
delimiter ends it early), arithmetic evaluates ``a[$(…)]``, backticks and
``${…}`` re-parse their text, a newline ends a comment. A quoted string may
also be code to another command (``trap '…'``, ``bash -c "…"``). So the
templates are judged once, when they are written: this module says where
each placeholder sits, using the one Bash scanner in ``dp.shell.lexer``.
"""

from __future__ import annotations

import re

from dp.shell import lexer

TEST_ARITHMETIC, HEREDOC_DELIMITER = "test-arithmetic", "heredoc-delimiter"
# What each context is called in messages, and how to write the placeholder instead.
_CONTEXTS = {
    lexer.DOUBLE_QUOTED: ('inside double quotes "…"', None),
    lexer.SINGLE_QUOTED: ("inside single quotes '…'", None),
    lexer.ANSI_C_QUOTED: ("inside $'…' quotes", None),
    lexer.BACKTICK: ("inside backticks `…`", "use it as a plain word inside $( … ) instead"),
    lexer.PARAMETER: ("inside a parameter expansion ${…}",
                      "assign it to a variable first (v=PLACEHOLDER) and expand that"),
    lexer.ARITHMETIC: ("inside arithmetic $(( )) or (( ))",
                       "assign it to a variable first (v=PLACEHOLDER) and use $v"),
    lexer.HEREDOC: ("in a heredoc body", "print it as a plain word instead: printf '%s\\n' PLACEHOLDER"),
    lexer.QUOTED_HEREDOC: ("in a heredoc body", "print it as a plain word instead: printf '%s\\n' PLACEHOLDER"),
    lexer.COMMENT: ("in a comment", "move it out of the comment"),
    TEST_ARITHMETIC: ("in an arithmetic comparison [[ … -eq … ]]", "compare with a plain [ … -eq … ] instead"),
    HEREDOC_DELIMITER: ("used as a heredoc delimiter", "use a fixed word as the delimiter"),
}
_QUOTES = {
    lexer.DOUBLE_QUOTED: ('"', '"', '"'),  # opener, closer, reopener
    lexer.SINGLE_QUOTED: ("'", "'", "'"),
    lexer.ANSI_C_QUOTED: ("$'", "'", "$'"),
}
# Contexts in which a placeholder is a plain word again.
_CODE = frozenset({lexer.SUBSTITUTION, lexer.TEST})
_TEST_ARITHMETIC = re.compile(r"(?<!\S)-(eq|ne|lt|le|gt|ge)(?!\S)")


class Misplaced:
    """A placeholder outside plain word position: where, in what, and the safe way to write it."""

    __slots__ = ("start", "end", "context", "line", "description", "advice")

    def __init__(self, text: str, span: tuple[int, int], context: str, advice: str):
        self.start, self.end = span
        self.context = context
        self.line = text.count("\n", 0, self.start) + 1
        self.description = _CONTEXTS[context][0]
        self.advice = advice


def misplaced(text: str, placeholders, blanks=(), allowed=frozenset()) -> list[Misplaced]:
    """The placeholders (``(start, end)`` spans) of ``text`` that are not plain words.

    ``blanks`` are other template tags (``{% … %}``), read as blanks; contexts
    in ``allowed`` are tolerated. Raises ``lexer.Unparseable`` when the script
    is not complete Bash (an open quote, an unterminated heredoc), where no
    place can be judged.
    """
    delimiters = [span for span in placeholders if _HEREDOC_OPERATOR.search(text, 0, span[0])]
    if delimiters:
        return [Misplaced(text, span, HEREDOC_DELIMITER, _CONTEXTS[HEREDOC_DELIMITER][1]) for span in delimiters]
    chars = list(text)
    for spans, fill in ((placeholders, "x"), (blanks, " ")):
        for start, end in spans:
            chars[start:end] = fill * (end - start)
    masked = "".join(chars)
    regions = lexer.regions(masked)
    by_region: dict[tuple, list] = {}
    for span in placeholders:
        region = _innermost(regions, *span)
        if region is None:
            continue
        context = region[2]
        if context == lexer.TEST and _TEST_ARITHMETIC.search(masked, region[0], region[1]):
            context = TEST_ARITHMETIC
        if context not in _CODE and context not in allowed:
            by_region.setdefault((region[0], region[1], context), []).append(span)
    found = []
    for (start, end, context), spans in by_region.items():
        hint = _CONTEXTS[context][1]
        for span in spans:
            if hint is None:
                advice = "write it as a plain word: " + _unquoted(text, (start, end), spans, context)
            else:
                advice = hint.replace("PLACEHOLDER", text[span[0]:span[1]])
            found.append(Misplaced(text, span, context, advice))
    return sorted(found, key=lambda item: item.start)


def reparsing_commands(template: str) -> list[str]:
    """The commands that read a ``{{`` placeholder of ``template`` as shell code again.

    ``eval``, ``ssh`` and ``trap`` re-parse their arguments, ``sh -c`` (and
    ``bash``, ``dash``, ``zsh``, ``ksh``, ``su -c``) its script text, though
    not the arguments after it. The placeholder may be a plain word to Bash,
    so ``misplaced`` accepts it; whoever writes it is warned, by tool name
    (``sh -c``), since dp cannot keep the value inert there.
    """
    return [" ".join((match.group(1) or match.group(2)).split()) for match in _REPARSED.finditer(template)]


_REPARSED = re.compile(
    r"(?:^|[\s;&|(`])(eval|ssh|trap)\s[^\n]*?\{\{"
    r"|(?:^|[\s;&|(`])((?:ba|da|z|k)?sh\s+-c|su\s+-c)\s+(?:\"[^\"]*|'[^']*|[^\s'\"]*)\{\{"
)
_HEREDOC_OPERATOR = re.compile(r"(?<!<)<<-?[ \t]*['\"\\]?\Z")


def _innermost(regions, start: int, end: int):
    """The smallest region holding ``[start, end)`` (regions nest), or None at the top level."""
    best = None
    for region in regions:
        if region[0] <= start and end <= region[1] and (best is None or region[1] - region[0] < best[1] - best[0]):
            best = region
    return best


def _unquoted(text: str, region: tuple[int, int], spans, context: str) -> str:
    """The line(s) of ``text`` holding ``region``, its placeholders moved out of the quotes."""
    opener, closer, reopener = _QUOTES[context]
    pieces = []
    position = region[0] + len(opener)
    for start, end in spans:
        pieces.append(text[position:start])
        pieces.append(text[start:end])
        position = end
    pieces.append(text[position:region[1] - len(closer)])
    out = []
    for index, piece in enumerate(pieces):
        if index % 2:
            out.append(piece)  # a placeholder, now outside the quotes
        elif piece:
            out.append((opener if index == 0 else reopener) + piece + closer)
    line_start = text.rfind("\n", 0, region[0]) + 1
    line_end = text.find("\n", region[1])
    tail = text[region[1]:] if line_end < 0 else text[region[1]:line_end]
    return text[line_start:region[0]] + "".join(out) + tail
