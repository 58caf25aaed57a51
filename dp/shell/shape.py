"""The shape of a Bash command: program, subcommand and flags, never arguments.

The capture hook records a successful call only as its shape, so this runs on
every captured tool call: plain string work (no ``re``, no bashlex), a small
quote-aware splitter that is right for the commands agents type and merely
coarse for exotic ones (a shape is a grouping key, not something executed).

``git -C repo commit -m "fix: x" --amend`` → ``("git", "commit", ["-C", "-m", "--amend"])``.
A runner stays with the program it runs (``npx tsc -p .`` → ``("npx tsc", "", ["-p"])``), and
an interpreter's shape stops at its script (``python foo.py --verbose`` → ``("python", "", [])``):
the shape says what the agent ran, never a script's options as the interpreter's.
"""

from __future__ import annotations

from dp.shell.secrets import secret_parts
from dp.shell.words import closing_quote
from dp.shell.wrappers import RUNNER_OPTIONS_WITH_VALUES, RUNNERS, basename, is_assignment, program_index

# Commands whose first plain argument names an action rather than data. Only
# these get a subcommand in their shape: for any other program that word can
# be a file name or a secret, and shapes never keep arguments.
SUBCOMMAND_PROGRAMS = frozenset(
    {
        "apt", "apt-get", "brew", "bd", "bun", "cargo", "conda", "deno", "docker", "dp", "gcloud", "gh",
        "git", "go", "gt", "hatch", "helm", "kubectl", "make", "npm", "pdm", "pip", "pip3", "pipx",
        "pnpm", "poetry", "rustup", "systemctl", "terraform", "uv", "yarn",
    }
)
# Options of those programs that take the next word as their value, so the
# subcommand is found after it (`git -C dir status`).
_GLOBAL_OPTIONS_WITH_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--prefix", "-f", "--file", "--manifest-path"})
# Programs whose options are single-dash words (`find -name`, `java -jar`, `go test -run`): for these a
# single-dash word is an option's name; for any other program only its first letter surely is (option_name).
LONG_SINGLE_DASH = frozenset(
    {
        "c++", "cc", "clang", "clang++", "consul", "convert", "dig", "ffmpeg", "ffplay", "ffprobe", "find", "g++",
        "gcc", "go", "gofmt", "jarsigner", "java", "javac", "keytool", "kotlinc", "ld", "magick", "nomad",
        "openssl", "packer", "scalac", "swift", "swiftc", "terraform", "tofu", "vault", "xcodebuild", "xmllint",
    }
)
# Interpreters whose first plain word is a script (the words after it are the script's, never the
# interpreter's options): {family: (options that take a value, options whose value is the code to run)}.
INTERPRETERS = {
    "python": ({"-W", "-X", "-Q"}, {"-c", "-m"}),
    "node": ({"-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions",
              "--env-file", "--title"}, {"-e", "--eval", "-p", "--print"}),
    "ruby": ({"-I", "-r", "-C", "-E"}, {"-e"}),
    "perl": ({"-I", "-M", "-m"}, {"-e", "-E"}),
    "php": ({"-d", "-c"}, {"-r"}),
    "bash": ({"-o", "-O", "+o", "+O"}, {"-c"}),
    "sh": ({"-o", "+o"}, {"-c"}),
    "zsh": ({"-o", "+o"}, {"-c"}),
    "dash": ({"-o", "+o"}, {"-c"}),
    "Rscript": (set(), {"-e"}),
    "lua": ({"-l"}, {"-e"}),
}
_OPERATORS = frozenset(";&|()\n")
# Where a run of plain characters in a word may end (a quote, a blank, an operator, an expansion).
_WORD_ENDS = frozenset(" \t'\"\\`$") | _OPERATORS
MAX_FLAGS = 20
MAX_COMMANDS = 16


class Shape:
    """One simple command's shape."""

    __slots__ = ("command", "subcommand", "flags")

    def __init__(self, command: str, subcommand: str = "", flags: tuple = ()):
        self.command = command
        self.subcommand = subcommand
        self.flags = tuple(flags)

    def __eq__(self, other) -> bool:
        return isinstance(other, Shape) and (self.command, self.subcommand, self.flags) == (
            other.command, other.subcommand, other.flags)

    def __repr__(self) -> str:
        return f"Shape({self.command!r}, {self.subcommand!r}, {list(self.flags)!r})"

    @property
    def program(self) -> str:
        """The program run: the last word of ``npx tsc``, the command itself otherwise."""
        return self.command.rsplit(" ", 1)[-1]

    def label(self) -> str:
        """``git commit -m`` — how the shape is shown."""
        return " ".join(part for part in (self.command, self.subcommand, *self.flags) if part)


def split_commands(text: str) -> list[list[str]]:
    """The simple commands of ``text`` as lists of unquoted words.

    Splits on unquoted ``; & | ( ) newline``; quotes and backslashes are
    removed from words; ``$( … )`` and backticks are treated as separators, so
    the commands inside them count too.
    """
    return [[value for value, _, _ in words] for words in split_words(text, MAX_COMMANDS, bodies=False)]


def split_words(text: str, limit: int | None = None, bodies: bool = True) -> list[list[tuple[str, int, int]]]:
    """``split_commands`` with each word's place: ``(value, start, end)`` in ``text``, for
    ``dp.capture.redact``, which replaces secrets where they were typed. At most ``limit`` commands.
    Without ``bodies``, a heredoc's body is skipped: its lines are the input of the command, no commands
    (``python3 - <<'PY'`` then a script's ``class Cart:``); redaction reads them as words too."""
    scan = _Placed(text, bodies)
    i, n = 0, len(text)
    while i < n:
        i = scan.step(i)
    scan.end_word(min(i, n))
    scan.end_command()
    return scan.commands if limit is None else scan.commands[:limit]


class _Placed:
    """``split_words``' scan: the commands so far, the current command's words with their places,
    and the word being read (its parts, whether a quote made it exist even if empty, its start)."""

    def __init__(self, text: str, bodies: bool = True) -> None:
        self.text, self.bodies = text, bodies
        self.heredocs: list[tuple[str, bool]] = []  # begun on this line, without bodies: (delimiter, strip tabs)
        self.commands: list[list[tuple[str, int, int]]] = []
        self.words: list[tuple[str, int, int]] = []
        self.word: list[str] = []
        self.quoted, self.start = False, 0

    def step(self, i: int) -> int:
        """Read what starts at ``i``; the index after it."""
        text, c = self.text, self.text[i]
        if c in "'\"\\" or c == "$" and text[i + 1 : i + 2] in ("'", '"'):
            self.begin(i)
            part, i = _unquoted(text, i + (c == "$"))
            self.word.append(part)
            self.quoted = True  # the word exists even if empty ('')
            return i
        if c in " \t" or c in _OPERATORS or c in "`$" and (c == "`" or text.startswith("$(", i)):
            return self.separate(c, i)
        if c == "<":
            self.note_heredoc(i)  # the operator and its word are read as any other characters
        if c == "#" and not self.word and not self.quoted:
            return _line_end(text, i)  # a comment
        self.begin(i)
        end = i + 1
        while end < len(text) and text[end] not in _WORD_ENDS:  # the run of plain characters, at once
            end += 1
        self.word.append(text[i:end])
        return end

    def separate(self, c: str, i: int) -> int:
        """End the word at the blank or operator ``c`` at ``i`` (and the command at an operator); the index
        after it, and after the bodies of the heredocs begun on a line it ends."""
        self.end_word(i)
        if c not in " \t":
            self.end_command()
        if c == "\n" and self.heredocs:
            return self.past_bodies(i + 1)
        return i + (2 if c == "$" else 1)

    def note_heredoc(self, i: int) -> None:
        """Where bodies are skipped, remember the heredoc whose ``<<`` (not ``<<<``, nor a shift in ``(( ))``)
        is at ``i``."""
        text, line = self.text, self.text.rfind("\n", 0, i) + 1
        if not self.bodies and text.startswith("<<", i) and text[i + 2 : i + 3] != "<" and \
                text.rfind("((", line, i) <= text.rfind("))", line, i):
            self.heredocs.append(_delimiter(text, i + 2))

    def past_bodies(self, i: int) -> int:
        """The index after the bodies of the heredocs begun on the line that ended before ``i``."""
        for delimiter, strip in self.heredocs:
            while i < len(self.text):
                end = _line_end(self.text, i)
                line = self.text[i:end]
                i = end + 1
                if (line.lstrip("\t") if strip else line) == delimiter:
                    break
        self.heredocs = []
        return i

    def begin(self, i: int) -> None:
        if not self.word and not self.quoted:
            self.start = i

    def end_word(self, i: int) -> None:
        if self.word or self.quoted:
            self.words.append(("".join(self.word), self.start, i))
            self.word, self.quoted = [], False

    def end_command(self) -> None:
        if self.words:
            self.commands.append(self.words)
        self.words = []


def _delimiter(text: str, i: int) -> tuple[str, bool]:
    """The delimiter of the heredoc whose ``<<`` ends before ``i`` (its quotes removed), and whether its
    body's lines lose their leading tabs (``<<-``)."""
    strip = text[i : i + 1] == "-"
    i += strip
    while text[i : i + 1] in (" ", "\t"):
        i += 1
    parts = []
    while i < len(text) and text[i] not in " \t<>" and text[i] not in _OPERATORS:
        if text[i] in "'\"\\":
            part, i = _unquoted(text, i)
        else:
            part, i = text[i], i + 1
        parts.append(part)
    return "".join(parts), strip


def _line_end(text: str, i: int) -> int:
    newline = text.find("\n", i)
    return len(text) if newline < 0 else newline


def _unquoted(text: str, i: int) -> tuple[str, int]:
    """The value of the quoted string or escape at ``i``, and the index after it (``$'…'`` and
    ``$"…"`` are read from their quote on: escapes are left as typed)."""
    c = text[i]
    if c == "\\":
        return text[i + 1 : i + 2] or c, i + 2  # a backslash at the very end stays
    ansi = c == "'" and i > 0 and text[i - 1] == "$"
    close = min(closing_quote(text, i, escapes=c == '"' or ansi), len(text))
    return (text[i + 1 : close].replace("\\" + c, c) if c == '"' else text[i + 1 : close]), close + 1


def shape_of(words: list[str]) -> Shape | None:
    """The shape of one simple command's words (None when it runs nothing).

    A secret is never part of it (``dp.shell.secrets``): an option with an attached
    password is its name (``mysql -pSECRET`` → ``-p``) and a password given as the
    next word is skipped, so it cannot be taken for a subcommand or a flag.
    """
    while words and is_assignment(words[0]):
        words = words[1:]
    if not words:
        return None
    index = program_index(words)
    secret = secret_parts(words)
    args = [word[: secret[i]].rstrip("=") if i in secret else word
            for i, word in enumerate(words) if i > index and secret.get(i) != 0]
    command, args = _run_by(basename(words[index]), args)
    program = command.rsplit(" ", 1)[-1]
    if _family(program) in INTERPRETERS:
        args = _interpreter_args(_family(program), args)
    return Shape(command, _subcommand(program, args), _flags(args))


def _run_by(command: str, args: list[str]) -> tuple[str, list[str]]:
    """``(program, its own words)``: a program a runner runs is named with its runner (``npx tsc``,
    ``uv run pytest``, ``python3 -m pytest``), so the shape says what the agent ran, and its words
    are the program's (the runner's own options are dropped)."""
    size = 1 if (command, *args[:1]) in RUNNERS else 0 if (command,) in RUNNERS else None
    if size is None:
        return command, args
    i = size
    while i < len(args) and args[i].startswith("-") and args[i] != "-":
        if args[i] == "--":
            i += 1
            break
        i += 2 if args[i] in RUNNER_OPTIONS_WITH_VALUES else 1
    module = args[:size] == ["-m"]
    if i >= len(args) or not _is_program(args[i], dots=module):
        return command, args
    return " ".join((command, *args[:size], args[i])), args[i + 1 :]


def _is_program(word: str, dots: bool) -> bool:
    """A program's (or, with ``dots``, a Python module's) name; not a path or a script (``foo.py``)."""
    return (0 < len(word) <= 100 and word[0].isalnum()
            and all(c.isalnum() or c in "-_@+" or dots and c == "." for c in word))


def _family(program: str) -> str:
    """``python3.11`` → ``python``: the interpreter a versioned name is."""
    return program.rstrip("0123456789.") or program


def _interpreter_args(family: str, args: list[str]) -> list[str]:
    """The words that are the interpreter's own: its options up to the script (``python -u foo.py
    --verbose`` → ``-u``: what follows the script is the script's), or up to and with the option whose
    value is the code or module to run (``-c``, ``-e``, ``-m``)."""
    with_values, code = INTERPRETERS[family]
    i = 0
    while i < len(args) and args[i].startswith(("-", "+")) and args[i] not in ("-", "--"):
        if args[i] in code:
            return args[: i + 1]
        i += 2 if args[i] in with_values else 1
    return args[:i]


def shapes(text: str) -> list[Shape]:
    """The shapes of every simple command in a Bash string, in order."""
    found = (shape_of(words) for words in split_commands(text))
    return [shape for shape in found if shape is not None]


def _subcommand(command: str, args: list[str]) -> str:
    if command not in SUBCOMMAND_PROGRAMS:
        return ""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return ""
        if not arg.startswith("-"):
            return arg if _is_word(arg) else ""
        i += 2 if arg in _GLOBAL_OPTIONS_WITH_VALUES else 1
    return ""


def _is_word(text: str) -> bool:
    return 0 < len(text) <= 40 and text[0].isalpha() and all(c.isalnum() or c in "-_:" for c in text)


def _flags(args: list[str]) -> tuple:
    """Flags in order of first use, up to ``--`` and at most ``MAX_FLAGS``."""
    flags = []
    for arg in args:
        if arg == "--":
            break
        flag = _flag(arg)
        if flag and flag not in flags:
            flags.append(flag)
            if len(flags) >= MAX_FLAGS:
                break
    return tuple(flags)


def option_name(program: str, flag: str) -> str:
    """The name of the option ``flag`` spells for ``program``, as it may leave the machine.

    ``--name`` and ``-x`` are names. A longer single-dash word may be a cluster
    (``-la``) or an option with its value attached (``-pSECRET``, ``-aSECRET``
    for a program the secrets table does not know): only its first letter is
    surely a name, so only that is kept, except for the programs whose options
    are single-dash words (``find -name``). '' for what is no option at all.
    """
    flag = _flag(flag)
    program = program.rsplit(" ", 1)[-1]  # the program a runner runs (`npx tsc`)
    if flag.startswith("--") or len(flag) <= 2 or program in LONG_SINGLE_DASH:
        return flag
    return flag[:2]


def _flag(arg: str) -> str:
    """The option ``arg`` spells (``--name=value`` → ``--name``); '' for values, numbers, ``-`` and paths."""
    if len(arg) < 2 or arg[0] != "-" or arg[1].isdigit() or arg[1] == ".":
        return ""
    flag = arg.partition("=")[0] if arg.startswith("--") else arg
    if len(flag) > 40 or not all(c.isalnum() or c in "-_" for c in flag):
        return ""  # `-` followed by text that is not an option name (`-x'y`, paths)
    return flag
