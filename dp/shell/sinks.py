"""Where a program reads a template value as code: the programs, their code positions, as data in one place.

A ``{{ }}`` value in a recipe travels as data (``dp.shell.placement``): the
shell never parses it. What makes a value code is the *program that reads
it*: ``sh -c``, ``eval``, ``python3 -c``, ``ssh HOST``, ``awk`` program text,
``sqlite3``'s SQL (``.shell``), ``git -c alias.x=!…``, ``rsync -e``, arithmetic
… parse the string they receive, so the value would run however it was
quoted. ``SINKS`` lists those programs, each with the kind of reading (which
argument positions are code, and whether standard input is a script), the
reason, and the safe way to write the step; ``reading`` applies it to one
command's arguments. How a whole script carries a value there — through
launchers (``dp.shell.launchers``), variables, pipes, heredocs and files — is
``dp.shell.codeflow``.

Option parsing is done as the programs do it: a shell's ``--``, ``+o``,
``-o NAME`` and clusters (``-ec``); an interpreter's code option and script
operand; and for programs with an option that runs a program (``rsync -e``,
``tar --to-command``, ``git fetch --upload-pack``, ``vim +cmd``), a value that
could itself be read as that option (before ``--``) is code too.

A program not listed is data: its arguments are what people write recipes
for (``grep {{pattern}} src``, ``cargo init --name {{name}}``). Environment
variables that name a program (``GIT_SSH_COMMAND``, ``PAGER``, ``EDITOR`` …)
are ``PROGRAM_VARIABLES``, whatever program runs.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase

from dp.shell.names import known_name
from dp.shell.sinktable import (
    ALL,
    AS_OPTION,
    FIRST,
    FORMAT,
    GIT,
    GIT_PROGRAM_KEYS,
    GIT_SUBCOMMANDS,
    INTERPRETER,
    NAMES,
    OPTIONS,
    PROGRAM_PREFIXES,
    PROGRAM_SUFFIXES,
    PROGRAM_TEXT,
    PROGRAM_VARIABLES,
    SHELL,
    SINKS,
    STDIN_SCRIPTS,
    TEST_V,
    reads_input,
)


class Sink:
    """A placeholder a program would read as code: which one, why, and the safe way instead."""

    __slots__ = ("start", "end", "program", "reason", "alternative", "cause")

    def __init__(self, span: tuple[int, int], program: str, reason: str, alternative: str):
        self.start, self.end = span
        self.program, self.reason, self.alternative = program, reason, alternative
        self.cause = None  # the command word that made it code (an unnamed program), when that matters


def program_name(word: str) -> str:
    """The SINKS key a command word names: ``/usr/bin/python3.12`` → ``python3``, ``lua5.4`` → ``lua``,
    Homebrew's ``gsed`` → ``sed``."""
    name = known_name(word)
    if name in SINKS:
        return name
    for stripped in (re.sub(r"\.[0-9][0-9.]*$", "", name), re.sub(r"[-.]?[0-9][0-9.]*$", "", name)):
        if stripped in SINKS:
            return stripped
    return name


def is_program_variable(name: str) -> bool:
    """Whether an environment variable ``name`` holds a program or code some program runs."""
    return (name in PROGRAM_VARIABLES or name.endswith(PROGRAM_SUFFIXES) or name.startswith(PROGRAM_PREFIXES))


def is_git_program_key(name: str) -> bool:
    return any(fnmatchcase(name.lower(), pattern) for pattern in GIT_PROGRAM_KEYS)


class Reading:
    """How one program reads its arguments: the code positions and whether stdin is a script."""

    __slots__ = ("spans", "stdin")

    def __init__(self, spans, stdin: bool):
        self.spans = spans  # (start, end, option): code positions in the arguments' text
        self.stdin = stdin


def reading(name: str, args) -> Reading | None:
    """The code positions of ``args`` (words with start, end, value, raw) when ``name`` runs them,
    or None for a program that reads them all as data."""
    entry = SINKS.get(name)
    if entry is None:
        return None
    kind, parameters = entry[0], entry[1]
    spans, stdin = _CODE_WORDS[kind](args, parameters)
    return Reading(spans, stdin or name in STDIN_SCRIPTS)


def _operands(args, with_values=frozenset(), pairs=frozenset()):
    """(word, option) for each argument: ``"option"`` for an option word, the option's name for
    its value(s), None for an operand."""
    i, options_done = 0, False
    while i < len(args):
        value = args[i].value
        if not options_done and value == "--":
            options_done = True
        elif not options_done and value.startswith("-") and value != "-":
            yield args[i], "option"
            skip = 2 if value in pairs else 1 if value in with_values else 0
            for offset in range(1, skip + 1):
                if i + offset < len(args):
                    yield args[i + offset], value
            i += skip
        else:
            yield args[i], None
        i += 1


def _span(word, option: str = "") -> tuple[int, int, str]:
    return word.start, word.end, option


def _all(args, _parameters):
    return [_span(word) for word in args], False


def _first(args, parameters):
    for word, option in _operands(args, parameters):
        if option is None:
            return [_span(word)], False
    return [], False


def _shell(args, parameters):
    """A shell's options as the shells parse them: ``--``/``-`` end them, ``+o``/``-o NAME`` and
    clusters (``-ec``, ``+e``); then ``-c``'s command string, ``-s`` or no script (stdin), or the script file."""
    state = _ShellOptions(parameters)
    i = 0
    while i < len(args) and not state.done:
        i = state.read(args, i)
    operands = args[i:]
    if state.command:
        # The command string; when there is none yet, it comes later (xargs appends it).
        return state.code + [_span(operands[0], state.command) if operands else (-1, -1, state.command)], False
    if state.from_stdin or not operands:
        return state.code, True
    return state.code + [_span(operands[0])], reads_input(operands[0].value)


class _ShellOptions:
    """A shell's option words, read one at a time: the code positions among them, and what they say."""

    def __init__(self, parameters):
        self.value_letters, self.code_long = parameters
        self.code, self.command, self.from_stdin, self.done = [], "", False, False

    def read(self, args, i: int) -> int:
        """Read the option word at ``i`` (and its values); the index after them."""
        value = args[i].value
        if value in ("--", "-"):
            self.done = True
            return i + 1
        if value.startswith("--") and len(value) > 2:
            return self._long(args, i)
        if len(value) > 1 and value[0] in "-+":
            return self._cluster(args, i)
        self.done = True
        return i

    def _long(self, args, i: int) -> int:
        value = args[i].value
        name = value.split("=", 1)[0]
        coded = name in self.code_long
        self.code.append(_span(args[i], name if coded else ""))
        if coded and "=" not in value and i + 1 < len(args):
            i += 1
            self.code.append(_span(args[i], name))
            if name in ("--command", "--commands", "--execute"):
                self.command = self.command or name
        return i + 1

    def _cluster(self, args, i: int) -> int:
        value = args[i].value
        letters = value[1:]
        self.code.append(_span(args[i], value if "c" in letters else ""))
        at = i
        for letter in letters:
            if letter in self.value_letters and at + 1 < len(args):
                at += 1
                self.code.append(_span(args[at], value))
        if value[0] == "-":
            self.command = value if "c" in letters else self.command
            self.from_stdin = self.from_stdin or "s" in letters
        return at + 1


def _interpreter(args, parameters):
    """Options (and their values) and the script operand; operands after a code option are argv, unless
    a ``magic`` option makes them files the program opens through a shell (perl -n/-p)."""
    code_options, with_values, reads_stdin, magic = parameters
    code, seen_code, cluster, opened = [], False, "", False
    for word, option in _operands(args, code_options | with_values):
        if option == "option":
            is_code = is_code_option(word.value, code_options)
            code.append(_span(word, word.value if is_code else ""))
            seen_code = seen_code or is_code
            opened = opened or _magic(word.value, magic)
            cluster = word.value if is_code and word.value not in code_options else cluster
        elif option is not None:
            code.append(_span(word, option if option in code_options else ""))
        elif is_code_option(word.value, code_options):  # `deno eval CODE`
            seen_code, cluster = True, word.value
            code.append(_span(word))
        elif opened:
            code.append(_span(word, "(a file it opens)" if not cluster else cluster))
            cluster = ""
        else:
            return _script_operand(code, word, seen_code, cluster, reads_stdin)
    return code, reads_stdin and not seen_code


def _magic(value: str, magic: str) -> bool:
    return bool(magic) and value.startswith("-") and not value.startswith("--") and bool(set(value[1:]) & set(magic))


def _script_operand(code, word, seen_code: bool, cluster: str, reads_stdin: bool):
    """The first operand: the script to run (no code option yet) or a cluster's code; then argv."""
    if not seen_code or cluster:
        return code + [_span(word, cluster)], reads_stdin and not seen_code and reads_input(word.value)
    return code, False


def is_code_option(value: str, code_options) -> bool:
    """``-c``, ``--eval=…``, or a cluster ending in a code letter (``-ec``, ``-ne``)."""
    if value in code_options or value.split("=", 1)[0] in code_options:
        return True
    letters = {option[1] for option in code_options if len(option) == 2 and option[0] == "-"}
    return value.startswith("-") and not value.startswith("--") and value[-1:] in letters


def _program_text(args, parameters):
    """The program operand (unless a file or code option gave the program) and code options' values."""
    code_options, file_options, with_values, pairs = parameters
    code, program_given, from_stdin = [], False, False
    for word, option in _operands(args, code_options | file_options | with_values, pairs):
        if option in code_options:
            code.append(_span(word, option))
            program_given = True
        elif option in file_options:
            program_given = True
            from_stdin = from_stdin or reads_input(word.value)
        elif option == "option":
            given = word.value.split("=", 1)[0]
            if given in code_options:
                code.append(_span(word, given))
            program_given = program_given or given in code_options | file_options
        elif option is None:
            if not program_given:
                code.append(_span(word))
            break
    return code, from_stdin


def _option_words(args, parameters):
    """OPTIONS: values of options that run a program, operands from an index, and (``injectable``)
    any value before ``--`` that the program could read as one of its options."""
    reader = _OptionReader(parameters)
    reader.old_style(args)
    i = reader.start
    while i < len(args):
        i = reader.read(args, i)
    return reader.code, reader.reads_stdin and (reader.operands_from is None or reader.index <= reader.operands_from)


class _OptionReader:
    """The words of an OPTIONS program, read one at a time (``_option_words``)."""

    def __init__(self, parameters):
        (self.code_options, self.with_values, self.operands_from, self.injectable, self.reads_stdin,
         self.plus) = parameters
        self.code, self.index, self.done, self.start = [], 0, False, 0

    def old_style(self, args) -> None:
        """``tar xzf ARCHIVE …``: the first word's letters are options, each taking the next words in turn."""
        if not (args and args[0].value.isalpha() and self.operands_from is None and "-f" in self.with_values):
            return
        at = 0
        for letter in args[0].value:
            option = f"-{letter}"
            if option in self.code_options | self.with_values and at + 1 < len(args):
                at += 1
                word = args[at]
                self.code.append(_span(word, option) if option in self.code_options else (word.start, word.start, ""))
        self.start = at + 1

    def read(self, args, i: int) -> int:
        value = args[i].value
        if not self.done and value == "--":
            self.done = True
        elif not self.done and value.startswith(("-", "+") if self.plus else "-") and value != "-":
            return self._option(args, i)
        else:
            self._operand(args[i])
        return i + 1

    def _option(self, args, i: int) -> int:
        word, value = args[i], args[i].value
        name = value.split("=", 1)[0] if value.startswith("--") else value
        short = value[:2] if not value.startswith("--") else name
        if name in self.code_options or (short in self.code_options and len(short) == 2):
            if "=" in value or (short != value and name not in self.code_options):
                self.code.append(_span(word, short if name not in self.code_options else name))
            elif i + 1 < len(args):
                self.code.append(_span(args[i + 1], name))
                return i + 2
            return i + 1
        if value.startswith("+"):
            self.code.append(_span(word, "+"))
            return i + 1
        readable = self.injectable and not ("=" in value and value.startswith("--"))
        self.code.append((word.start, word.end, AS_OPTION) if readable else (word.start, word.start, ""))
        return i + (2 if name in self.with_values and i + 1 < len(args) else 1)

    def _operand(self, word) -> None:
        if self.operands_from is not None and self.index >= self.operands_from:
            self.code.append(_span(word))
        elif (self.injectable or self.plus) and not self.done:
            self.code.append((word.start, word.end, AS_OPTION))
        self.index += 1


def _git(args, _parameters):
    """``git [-c NAME=VALUE] … SUBCOMMAND …``: program-valued configuration, the subcommand, its options."""
    code, i = _git_options(args)
    if i >= len(args):
        return code, False
    subcommand, rest = args[i], args[i + 1:]
    code.append((subcommand.start, subcommand.end, AS_OPTION))  # a value naming the git command (or an alias)
    if subcommand.value == "config":
        return code + _git_config(rest), False
    parameters = GIT_SUBCOMMANDS.get(subcommand.value)
    if parameters is None:
        return code, False
    if subcommand.value in ("bisect", "submodule"):
        verbs = [word for word in rest if not word.value.startswith("-")]
        if not verbs or verbs[0].value not in ("run", "foreach"):
            return code, False
        return code + [_span(word, verbs[0].value) for word in rest[rest.index(verbs[0]) + 1:]], False
    return code + [(start, end, f"{subcommand.value} {option}" if option and option != AS_OPTION else option)
                   for start, end, option in _option_words(rest, parameters)[0]], False


def _git_options(args) -> tuple[list, int]:
    """git's own options before the subcommand: (their code positions, where the subcommand is)."""
    code, i = [], 0
    while i < len(args):
        value = args[i].value
        if value in ("-c", "--config-env") and i + 1 < len(args):
            code += _git_setting(args[i + 1], value)
            i += 2
            continue
        if value.startswith(("--exec-path=", "--config-env=")):
            code.append(_span(args[i], value.split("=", 1)[0]))
        elif value in ("-C", "--git-dir", "--work-tree", "--namespace", "--exec-path"):
            code.append(_span(args[i + 1], value) if value == "--exec-path" and i + 1 < len(args) else
                        (args[i].start, args[i].start, ""))
            i += 1
        elif not value.startswith("-"):
            break
        else:
            code.append((args[i].start, args[i].end, AS_OPTION))
        i += 1
    return code, i


def _git_setting(word, option: str) -> list[tuple[int, int, str]]:
    """``-c NAME=VALUE``: code where NAME names a program (or is a value itself); else only NAME is judged."""
    name, equals, _ = word.value.partition("=")
    raw_equals = word.raw.find("=")
    if is_git_program_key(name) or option == "--config-env" or raw_equals < 0:
        return [_span(word, f"{option} {name}" if name else option)]
    return [(word.start, word.start + raw_equals, f"{option} NAME")]


def _git_config(args) -> list[tuple[int, int, str]]:
    """``git config [options] NAME VALUE``: NAME (which configuration), VALUE where NAME names a program."""
    operands = [word for word, option in _operands(args, {"-f", "--file", "--blob", "--type", "--default"})
                if option is None]
    if operands and operands[0].value in ("set", "add", "get", "unset", "list", "edit", "rename-section",
                                          "remove-section", "get-regexp", "replace-all"):
        operands = operands[1:]
    if not operands:
        return []
    code = [(operands[0].start, operands[0].end, "config NAME")]
    if len(operands) > 1 and is_git_program_key(operands[0].value):
        code += [_span(word, f"config {operands[0].value}") for word in operands[1:]]
    return code


def _format(args, _parameters):
    code = []
    for word, option in _operands(args, {"-v"}):
        if option == "-v":
            code.append(_span(word, "-v"))
        elif option is None:
            return code + [_span(word)], False
    return code, False


def _names(args, data_options):
    """Variable names: the words that are operands (up to their ``=``), and ``read -a``'s value."""
    code = []
    for word, option in _operands(args, data_options | {"-a"}):
        if option is None or option == "-a":
            equals = word.raw.find("=")
            code.append((word.start, word.end if equals < 0 else word.start + equals, ""))
    return code, False


def _test_v(args, parameters):
    """The values of options that name a variable (``[ -v NAME ]``, ``wait -p NAME``)."""
    named = parameters or ("-v", "-R")
    return [_span(args[i + 1], args[i].value) for i in range(len(args) - 1) if args[i].value in named], False


_CODE_WORDS = {ALL: _all, FIRST: _first, SHELL: _shell, INTERPRETER: _interpreter, PROGRAM_TEXT: _program_text,
               OPTIONS: _option_words, GIT: _git, FORMAT: _format, NAMES: _names, TEST_V: _test_v}
