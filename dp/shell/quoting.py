"""The literal value of a shell word as Bash would pass it, when it can be known statically.

bashlex's word values are not exact for backslashes inside double quotes
(``"foo\\|bar"`` reaches the program as ``foo\\|bar``, bashlex says
``foo|bar``), and a translation that re-spells a pattern or an option value
must know exactly what the program received. ``literal(raw)`` reads the
quoting itself: unquoted backslashes escape any character, ``'…'`` is
verbatim, ``"…"`` keeps a backslash unless it escapes ``$ ` " \\`` or a
newline. Anything the shell would expand — ``$name``, ``${…}``, ``$(…)``,
backticks, ``$'…'``, an
unquoted ``~`` at the start, or (with ``globs=False``) an unquoted ``* ? [`` —
makes the value unknown (None).

``with_heredoc(line, text)`` is the inverse direction: a command line fed
``text`` on its standard input, spelled so Bash passes it unchanged.
"""

from __future__ import annotations

_DOUBLE_QUOTE_ESCAPES = '$`"\\\n'


def literal(raw: str, globs: bool = True) -> str | None:
    """The value Bash passes for the word ``raw``; None when it depends on expansions."""
    out = []
    i, n = 0, len(raw)
    if raw.startswith("~"):
        return None
    while i < n:
        c = raw[i]
        if c == "\\":
            if i + 1 < n and raw[i + 1] != "\n":
                out.append(raw[i + 1])
            i += 2
        elif c == "'":
            close = raw.find("'", i + 1)
            if close < 0:
                return None
            out.append(raw[i + 1 : close])
            i = close + 1
        elif c == '"':
            i = _double_quoted(raw, i + 1, out)
            if i < 0:
                return None
        elif c == "$" and not _plain_dollar(raw, i, quoted=False):
            return None
        elif c == "`" or (not globs and c in "*?["):
            return None
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _double_quoted(raw: str, i: int, out: list) -> int:
    """Append the value of a "…" body starting at ``i``; the index after it, or -1."""
    n = len(raw)
    while i < n:
        c = raw[i]
        if c == '"':
            return i + 1
        if c == "`" or (c == "$" and not _plain_dollar(raw, i, quoted=True)):
            return -1
        if c == "\\" and i + 1 < n and raw[i + 1] in _DOUBLE_QUOTE_ESCAPES:
            if raw[i + 1] != "\n":
                out.append(raw[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return -1


def _plain_dollar(raw: str, i: int, quoted: bool) -> bool:
    """Whether the ``$`` at ``i`` is a literal dollar (``"^(a|$)"``, ``a$``), not an expansion."""
    after = raw[i + 1 : i + 2]
    if not after:
        return True
    if after.isalnum() or after in "_{(@*#?$!-":
        return False
    return quoted or after not in "'\""


def with_heredoc(line: str, text: str, delimiter: str = "DP_STDIN") -> str:
    """``line`` fed ``text`` as a quoted heredoc: nothing in the body expands.

    The delimiter grows (``DP_STDIN_``, …) until no line of ``text`` equals it,
    so the body cannot end early; a missing final newline is added, since the
    delimiter must stand on its own line.
    """
    lines = text.splitlines()
    while delimiter in lines:
        delimiter += "_"
    body = text if text.endswith("\n") or not text else text + "\n"
    return f"{line} <<'{delimiter}'\n{body}{delimiter}"
