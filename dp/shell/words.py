"""The hook's gate: which words of a Bash string could name a command.

Runs on every Bash call, so it is plain string work (no ``re``): plain quoted
strings are dropped (they never run anything), command separators become
spaces, and each remaining word is reduced to its basename. The result is a
superset of the command names in the string; the store is asked only for
rules about these words, and bashlex runs only when one has a rule.
"""

_SEPARATORS = str.maketrans(dict.fromkeys(";&|()<>`{}$=", " "))


def command_words(text: str) -> set[str]:
    """Every word that could be a command name in ``text``: by basename (what kind of program,
    for paving), and a word with a ``/`` also whole (the one program a path names, for a rule
    that names that path)."""
    if "'" in text or '"' in text or "\\" in text:
        text = _drop_plain_quotes(text)
    words = text.translate(_SEPARATORS).split()
    return ({word.rpartition("/")[2] for word in words} | {word for word in words if "/" in word}) - {""}


def _drop_plain_quotes(text: str) -> str:
    """Blank out '…' and "…" strings, except double-quoted ones holding $( ) or backticks."""
    if '"' not in text and "\\" not in text:
        # Only single quotes (the usual case): every other piece between them is quoted; an
        # unclosed last quote keeps its words. One split, whatever the number of quotes.
        pieces = text.split("'")
        if len(pieces) % 2:
            return " ".join(pieces[::2])
        return " ".join(pieces[:-1:2]) + pieces[-1]
    out = []
    i, n = 0, len(text)
    escaped = -1  # index of the last backslash-escaped character
    # The next ' " and \ at or after i (n: none left), each found again only once passed: a
    # search from i per step would make 1 MiB of '' pairs cost seconds (quadratic).
    found = {"'": -1, '"': -1, "\\": -1}
    while i < n:
        at = next_mark(text, found, i)
        if at >= n:
            out.append(text[i:])
            break
        out.append(text[i:at])
        mark = text[at]
        if mark == "\\":
            out.append(text[at + 1 : at + 2])
            escaped = at + 1
            i = at + 2
        elif mark == "'":
            ansi_c = at > 0 and text[at - 1] == "$" and escaped != at - 1  # $'…': \' does not close it
            close = closing_quote(text, at, escapes=ansi_c)
            if close >= n:
                out.append(text[at + 1 :])  # unbalanced: keep the words
                break
            out.append(" ")
            i = close + 1
        else:
            close = double_quoted_end(text, at)
            inner = text[at + 1 : close]
            out.append(f" {inner} " if "$(" in inner or "`" in inner else " ")
            i = close + 1
    return "".join(out)


def next_mark(text: str, found: dict, i: int) -> int:
    """Where the first of ``found``'s marks occurs at or after ``i`` (``len(text)``: none left).
    ``found`` remembers each mark's next place and searches again only once it is passed, so a
    scan over a text full of marks stays linear; start it with every place at -1."""
    for mark, place in found.items():
        if place < i:
            place = text.find(mark, i)
            found[mark] = len(text) if place < 0 else place
    return min(found.values())


def double_quoted_end(text: str, at: int) -> int:
    """Index of the quote closing the ``"…"`` opened at ``at``; ``len(text)`` when it is not closed.

    A ``$( )`` or backquote inside it is code whose own quotes nest: in
    ``echo "$(echo "x" | sort)"`` the second quote opens a string inside the
    substitution, it does not close the first, so ``sort`` stays among the words.
    One pass, a stack of what closes each open part: ``"`` a string, ``)`` a
    parenthesis in code, a backquote a backquoted substitution.
    """
    close = closing_quote(text, at, escapes=True)
    if "$(" not in text[at + 1 : close] and "`" not in text[at + 1 : close]:
        return close  # the usual string: no substitution before its first closing quote
    n, i, closes = len(text), at + 1, ['"']
    while i < n:
        c, top = text[i], closes[-1]
        if c == "\\":
            i += 2
            continue
        if c == top:
            closes.pop()
            if not closes:
                return i
        elif top == '"':
            if c == "`" or (c == "$" and text.startswith("(", i + 1)):
                closes.append(c if c == "`" else ")")
                i += c == "$"
        elif c == "'":  # in code, '…' holds nothing that opens or closes
            close = text.find("'", i + 1)
            i = n if close < 0 else close
        elif c in "\"`(":
            closes.append(")" if c == "(" else c)
        i += 1
    return n


def closing_quote(text: str, at: int, escapes: bool) -> int:
    """Index of the quote closing the one at ``at``; ``len(text)`` or more when it is not closed.

    With ``escapes`` a backslash escapes the next character, as in ``"…"`` and
    ``$'…'``; in ``'…'`` nothing does.
    """
    quote, close, n = text[at], at + 1, len(text)
    if not escapes:
        close = text.find(quote, close)
        return n if close < 0 else close
    while close < n and text[close] != quote:
        close += 2 if text[close] == "\\" else 1
    return close
