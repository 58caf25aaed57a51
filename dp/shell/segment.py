"""Find the simple commands of a Bash string, with spans on the original text.

``simple_commands(text)`` runs the lexer's pre-pass, parses the result with
bashlex under a size cap and a wall-clock guard, and walks the tree. Every
span it reports indexes the caller's original string, so edits can be made
in place (right to left) without re-joining tokens. Any failure — text we
cannot read, a bashlex error, a timeout — returns None: the caller then
leaves the command alone.
"""

from __future__ import annotations

from dp.shell.syntax import RESERVED_WORDS
from dp.shell.words import next_mark
from dp.shell.wrappers import basename, program_index

# Longer commands are left alone rather than risk a slow parse.
MAX_PARSE_CHARS = 100_000
# CPU budget for one parse (bashlex can loop forever on some inputs); the
# wall-clock ceiling is a few times this (see dp.shell.guard).
PARSE_SECONDS = 0.3


class Word:
    """One shell word: its span, its unquoted value and its source text.

    ``masked`` words overlap what the lexer's pre-pass overwrote (``$(( ))``,
    a heredoc in a substitution …): bashlex never saw their text, so their
    value is just the source and rules must not edit inside them.
    """

    __slots__ = ("start", "end", "value", "raw", "masked")

    def __init__(self, start: int, end: int, value: str, raw: str, masked: bool = False):
        self.start, self.end, self.value, self.raw, self.masked = start, end, value, raw, masked

    def __repr__(self) -> str:
        return f"Word({self.start}, {self.end}, {self.raw!r})"


class SimpleCommand:
    """A simple command: whole span, the command word past any wrappers, its arguments."""

    __slots__ = ("start", "end", "word", "args", "redirects", "run_by", "stdin_redirected", "prefix")

    def __init__(self, start, end, word: Word, args: list, redirects: list, run_by: str = "", prefix=()):
        self.start = start
        self.end = end
        self.word = word
        self.args = args
        self.prefix = list(prefix)  # the wrappers' words before the command word (`sudo -u bob`)
        self.redirects = redirects  # (start, end) spans of its redirections
        # The program that runs this command itself (`xargs`, `find -exec`), adding
        # arguments at run time; '' when the shell runs it. A shell script can't take its place.
        self.run_by = run_by
        # Whether its standard input is a pipe or a file (`a | grep x`, `grep x < f`),
        # not the terminal or whatever the caller left there.
        self.stdin_redirected = False

    @property
    def name(self) -> str:
        """The command word's basename (``/usr/bin/scp`` → ``scp``): what kind of program it is."""
        return basename(self.word.value)

    @property
    def program(self) -> str:
        """The program as the command names it: a bare name PATH finds (``python``), or the path
        the agent chose (``.venv/bin/python``), which names that one program. Rules are keyed on
        this, so a rule for ``python`` never drops the virtual environment a path names."""
        return self.word.value

    def __repr__(self) -> str:
        return f"SimpleCommand({self.name!r}, {self.start}, {self.end})"


def command_word_index(words: list[Word]) -> int:
    """Index of the word that names the program run, past any wrappers."""
    return program_index([word.value for word in words])


def simple_commands(text: str) -> list[SimpleCommand] | None:
    """The simple commands of ``text`` in source order, or None if unparseable."""
    if len(text) > MAX_PARSE_CHARS:
        return None
    plain = _plain_words(text)
    if plain is not None:
        return _plain_commands(plain)
    return _parsed_commands(text)


# What a word made only of these characters means needs no parser: no quoting, expansion,
# operator, redirection or comment can be in it, so its value is its text. A glob's * and ? are
# in the word's value as typed (bashlex does not expand them either).
_PLAIN_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:@%+,=-*?")
# What '…' or "…" may hold for the quotes to mean nothing but "this is text": printable ASCII
# without what expands, escapes or ends a quote in either kind ($ ` \ ! ' ").
_QUOTED_CHARACTERS = frozenset(chr(code) for code in range(32, 127)) - frozenset("$`\\!'\"")
_QUOTES = ("'", '"')


# Between the simple commands of a plain list, standing as words of their own: what bashlex reads
# as a list's or a pipeline's operator.
_PLAIN_OPERATORS = frozenset(("&&", "||", ";", "|"))


def _plain_words(text: str) -> list[tuple[str, str]] | None:
    """``text``'s words, ``(source, value)``, when it is simple commands of plain words, single
    spaces apart, one after the other (``&&``, ``||``, ``;``) or in a pipeline (``|``), each
    operator a word of its own. A plain word may hold whole quoted strings of plain text
    (``'fix it'``, ``--message="a b"``), whose value is the text between the quotes.

    Most commands agents run look like this (``grep -rn foo src``, ``npm ci && npm test``,
    ``git log --oneline | head -5``, ``git commit -m 'fix it'``): bashlex would find exactly
    these commands, so it is not even loaded for them. A command's first word that is an
    assignment or a reserved word (``time``, ``if``) means more than words, and goes to the
    parser, as does an operator with no command on either side.
    """
    sources = _split_on_spaces(text)
    if sources is None:
        return None
    words = []
    first = True  # the next word starts a command
    for source in sources:
        if source in _PLAIN_OPERATORS:
            if first:
                return None
            first = True
            words.append((source, source))
            continue
        value = _plain_value(source)
        if value is None:
            return None
        if first:
            if "=" in source or source in RESERVED_WORDS:
                return None
            first = False
        words.append((source, value))
    return None if first else words


def _split_on_spaces(text: str) -> list[str] | None:
    """``text`` split at each space outside quotes; None when a quote is not closed.

    Each quote is found once (the next of each kind is remembered until passed), so even
    100,000 characters of quote pairs split in linear time.
    """
    if "'" not in text and '"' not in text:
        return text.split(" ")
    words, i, n = [""], 0, len(text)
    following = {quote: -1 for quote in _QUOTES}  # the next ' and " at or after i (n: none left)
    while i < n:
        at = next_mark(text, following, i)
        pieces = text[i:at].split(" ")
        words[-1] += pieces[0]
        words.extend(pieces[1:])
        if at >= n:
            break
        close = text.find(text[at], at + 1)
        if close < 0:
            return None
        words[-1] += text[at : close + 1]
        i = close + 1
    return words


def _plain_value(source: str) -> str | None:
    """The value of a word of plain characters and quoted plain text, or None for any other word."""
    if not source:
        return None
    if _PLAIN_CHARACTERS.issuperset(source):
        return source
    value, i, n = [], 0, len(source)
    while i < n:
        if source[i] in _QUOTES:
            close = source.index(source[i], i + 1)  # _split_on_spaces saw it closed
            part, allowed, i = source[i + 1 : close], _QUOTED_CHARACTERS, close + 1
        else:
            end = min((place for place in (source.find(quote, i) for quote in _QUOTES) if place >= 0), default=n)
            part, allowed, i = source[i:end], _PLAIN_CHARACTERS, end
        if not allowed.issuperset(part):
            return None
        value.append(part)
    return "".join(value)


def _plain_commands(words: list[tuple[str, str]]) -> list[SimpleCommand]:
    """The simple commands of plain words (and those they run through ``find -exec``)."""
    found: list[SimpleCommand] = []
    command: list = []
    piped, start = False, 0
    for source, value in [*words, (";", ";")]:  # the last command ends like the others
        if source in _PLAIN_OPERATORS:
            found.extend(_plain_command(command, piped))
            piped, command = source == "|", []  # every command after a | reads the pipe
        else:
            command.append(Word(start, start + len(source), value, source, False))
        start += len(source) + 1
    return found


def _plain_command(words: list[Word], piped: bool) -> list[SimpleCommand]:
    values = [word.value for word in words]
    index = program_index(values)
    run_by = "xargs" if any(basename(value) == "xargs" for value in values[:index]) else ""
    command = SimpleCommand(words[0].start, words[-1].end, words[index], words[index + 1 :], [], run_by,
                            words[:index])
    command.stdin_redirected = piped
    return [command, *find_exec_commands(command)]


def _parsed_commands(text: str) -> list[SimpleCommand] | None:
    """``simple_commands`` by the lexer's pre-pass and bashlex: any Bash at all."""
    from dp.shell.guard import Timeout, deadline
    from dp.shell.lexer import Unparseable, prepare

    try:
        prepared = prepare(text)
        from dp.shell.bashlex_loader import load

        bashlex = load()
        with deadline(PARSE_SECONDS):
            trees = bashlex.parse(prepared.text)
        found: list[SimpleCommand] = []
        for tree in trees:
            _walk(tree, text, prepared, found, False)
    except (Unparseable, Timeout, RecursionError, Exception):
        return None
    found.sort(key=lambda command: command.start)
    return found


def _walk(node, text: str, prepared, found: list, piped: bool) -> None:
    kind = node.kind
    if kind == "command":
        command = _simple_command(node, text, prepared)
        if command is not None:
            command.stdin_redirected = piped or any(text[start:end].lstrip("0").startswith("<")
                                                    for start, end in command.redirects)
            found.append(command)
            found.extend(find_exec_commands(command))
    children: list = []
    for attribute in ("parts", "list", "redirects"):  # `done < <(grep …)`: a compound's redirections
        children.extend(getattr(node, attribute, None) or ())
    for attribute in ("command", "output"):
        child = getattr(node, attribute, None)
        if child is not None and hasattr(child, "kind"):
            children.append(child)
    for child in children:
        if kind == "pipeline" and child.kind == "pipe":
            piped = True  # every part after a | reads the pipe
        _walk(child, text, prepared, found, piped)


def sequential(between: str) -> bool:
    """Whether the text between two simple commands runs them one after the other, in this shell.

    Only ``&&``, ``;`` and newlines (and blanks) may stand there: a pipe, a
    subshell's parenthesis, ``||``, ``&`` or a keyword means the second may
    run elsewhere, at the same time, or not at all.
    """
    rest = between
    for separator in _SEQUENCE_SEPARATORS:
        rest = rest.replace(separator, " ")
    return not rest.strip()


_SEQUENCE_SEPARATORS = ("&&", ";", "\n")
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def find_exec_commands(command: SimpleCommand) -> list[SimpleCommand]:
    """The commands ``find … -exec CMD ARGS… ;`` runs (up to ``;`` or ``+``)."""
    if command.name != "find":
        return []
    nested = []
    args = command.args
    i = 0
    while i < len(args):
        if args[i].value in _FIND_EXEC and i + 1 < len(args):
            end = i + 1
            while end < len(args) and args[end].value not in (";", "+"):
                end += 1
            word, own_args = args[i + 1], args[i + 2 : end]
            last = own_args[-1] if own_args else word
            nested.append(SimpleCommand(word.start, last.end, word, own_args, [], "find"))
            i = end
        i += 1
    return nested


def _simple_command(node, text, prepared) -> SimpleCommand | None:
    words = []
    redirects = []
    for part in node.parts:
        start, end = part.pos
        if part.kind == "word":
            raw = text[start:end]
            masked = prepared.masked(start, end)
            words.append(Word(start, end, raw if masked else part.word, raw, masked))
        elif part.kind == "redirect":
            redirects.append((start, end))
    if not words or prepared.literal(node.pos[0]):
        return None  # bashlex reads `$( … )` inside some '…' strings (`host:'$(ls)'`): nothing there runs
    index = command_word_index(words)
    if words[index].masked:
        return None  # `[[ … ]]` or `(( … ))`: not a program we could rewrite
    if any(word.raw.startswith("\\") for word in words[: index + 1]):
        return None  # `\grep`, `\time ls`: the shell's own way of bypassing aliases, so dp's too
    start, end = node.pos
    run_by = "xargs" if any(basename(word.value) == "xargs" for word in words[:index]) else ""
    return SimpleCommand(start, end, words[index], words[index + 1 :], redirects, run_by, words[:index])
