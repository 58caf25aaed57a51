"""Where a template value would become code: the programs that read it as code, as data in one place.

A ``{{ }}`` value in a recipe travels as data (``dp.shell.placement``): the
shell never parses it. What makes a value code is the *program that reads
it*: ``sh -c``, ``eval``, ``python3 -c``, ``ssh HOST``, ``awk`` program text,
arithmetic … parse the string they receive, so the value would run however
it was quoted. ``SINKS`` lists those programs, each with the argument
positions it reads as code, the reason, and the safe way to write the step;
``code_sinks`` finds the placeholders that sit there, on the parsed command
(``dp.shell.segment``, wrappers resolved by ``dp.shell.wrappers``, so
``sudo``/``timeout``/``nice``/``nohup``/``xargs``/``find -exec`` around a sink are
seen through).

A program not listed is data: its arguments are what people write recipes
for. The list is not every program that can be talked into running
something (``git -c``, ``rsync -e`` …); it is the shells, evaluators,
interpreters and remote/wrapped runners that exist to run a string.
"""

from __future__ import annotations

import re
from typing import Optional

from dp.shell.wrappers import WRAPPERS, basename, is_assignment, program_index

# How a program reads its arguments as code (the kinds of SINKS entries).
ALL = "all"  # every argument is code (eval, ssh, watch …)
FIRST = "first"  # the first operand is code, the rest data (trap ACTION SIGNAL, source FILE ARGS)
INTERPRETER = "interpreter"  # its own options and script operand are code; after those, data (argv)
PROGRAM_TEXT = "program-text"  # awk, sed, jq: the program operand (unless given as a file) and code options
FORMAT = "format"  # printf: the format operand and -v NAME
NAMES = "names"  # declare, read …: variable names (a name's [subscript] is arithmetic, which runs $( ))
TEST_V = "test-v"  # [ -v NAME ]: the name's subscript is arithmetic

_ARGUMENT = "pass it as an argument of a fixed script instead"
_SHELL = ("it runs its command string (or the script it is given) as shell code",
          "pass it as an argument: sh -c '… \"$1\"' _ {{x}}")
_INLINE = ("it runs inline program text (and its own options can name code to load)",
           "pass it as an argument after the program text (python3 -c '…sys.argv[1]…' {{x}}), "
           "or in the environment")
_RUNS_COMMAND = ("it runs its arguments as a command line",
                 "run a fixed script that reads the value from a file or the environment")

# program → (kind, parameters, reason, safe alternative).
# INTERPRETER parameters: (options whose value is code and after which operands are data,
#                          options that take a separate value, whether stdin is code without a script).
# PROGRAM_TEXT parameters: (options whose value is program text, options giving the program as a file,
#                           options that take one value, options that take two values).
# FIRST parameters: options to skip. NAMES parameters: options whose value is data.
SINKS: dict[str, tuple[str, tuple, str, str]] = {
    **{shell: (INTERPRETER, ({"-c"}, {"-o", "-O", "+O", "+o"}, True), *_SHELL)
       for shell in ("sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "busybox")},
    **{python: (INTERPRETER, ({"-c", "-m"}, {"-W", "-X", "-Q"}, True), *_INLINE)
       for python in ("python", "python2", "python3", "pypy", "pypy3")},
    "node": (INTERPRETER, ({"-e", "--eval", "-p", "--print"},
                           {"-r", "--require", "--import", "--loader", "--input-type", "-C", "--conditions"},
                           True), *_INLINE),
    "deno": (INTERPRETER, ({"eval"}, set(), True), *_INLINE),
    "perl": (INTERPRETER, ({"-e", "-E"}, {"-I", "-M", "-m", "-x", "-i"}, True), *_INLINE),
    "ruby": (INTERPRETER, ({"-e"}, {"-r", "-I", "-C", "-E"}, True), *_INLINE),
    "php": (INTERPRETER, ({"-r", "-B", "-R", "-E"}, {"-d", "-c", "-z"}, True), *_INLINE),
    "lua": (INTERPRETER, ({"-e"}, {"-l"}, True), *_INLINE),
    "eval": (ALL, (), "eval runs its arguments as shell code", "run the command itself, not through eval"),
    "let": (ALL, (), "let evaluates arithmetic, and arithmetic runs $( ) in array subscripts",
            "check it is a number first: n={{x}}; case $n in ''|*[!0-9]*) exit 1;; esac; then use $n"),
    "builtin": (ALL, (), "builtin runs the builtin its first word names (eval, source …)",
                "call the builtin by its fixed name"),
    "source": (FIRST, (), "source runs the file it names as shell code", "source a fixed file"),
    ".": (FIRST, (), "source runs the file it names as shell code", "source a fixed file"),
    "trap": (FIRST, ({"-p", "-l", "-P"}), "trap runs its action string as shell code",
             "trap a fixed function that reads the value from a variable: v={{x}}; trap cleanup EXIT"),
    "su": (ALL, (), "su hands its command (and options) to the user's shell",
           "give the value as an argument of a fixed program: sudo -u USER PROGRAM {{x}}"),
    "runuser": (ALL, (), "runuser hands its command (and options) to a shell",
                "give the value as an argument of a fixed program: sudo -u USER PROGRAM {{x}}"),
    "doas": (ALL, (), "doas runs its arguments as a command", "name the program in the recipe; " + _ARGUMENT),
    "ssh": (ALL, (), "ssh runs the words after the host as a remote shell command, and a value before the "
                     "host may be an option (-oProxyCommand=…)",
            "send the value as data on standard input: printf '%s' {{x}} | ssh HOST 'cat > file'"),
    "watch": (ALL, (), "watch runs its arguments through sh -c", _RUNS_COMMAND[1]),
    "parallel": (ALL, (), "parallel runs its arguments through a shell", _RUNS_COMMAND[1]),
    **{runner: (ALL, (), *_RUNS_COMMAND)
       for runner in ("chroot", "setsid", "flock", "unshare", "nsenter", "script", "at", "batch")},
    **{awk: (PROGRAM_TEXT, (set(), {"-f", "--file"}, {"-F", "-v", "--assign", "--field-separator"}, set()),
             "awk runs its program text, which can call system()",
             "pass it as a variable: awk -v v={{x}} '{ print v }' (or read ENVIRON)")
       for awk in ("awk", "gawk", "mawk", "nawk", "busybox-awk")},
    "sed": (PROGRAM_TEXT, ({"-e", "--expression"}, {"-f", "--file"}, {"-l", "--line-length"}, set()),
            "sed runs its script, whose e and w commands run programs and write files",
            "keep the script fixed and give the value as a file operand, or use another tool for the text"),
    "jq": (PROGRAM_TEXT, (set(), {"-f", "--from-file"}, {"-L", "--indent", "--tab"},
                          {"--arg", "--argjson", "--slurpfile", "--rawfile"}),
           "jq reads its filter as a program", "pass it with --arg: jq --arg v {{x}} '.[$v]'"),
    "printf": (FORMAT, (), "printf reads its format for % directives and escapes, and -v names a variable "
                           "whose [subscript] is arithmetic",
               "use a fixed format: printf '%s\\n' {{x}}"),
    **{name: (NAMES, ({"-p", "-d", "-t", "-n", "-N", "-u", "-i"} if name == "read" else set()),
              f"{name} takes variable names, and a name's [subscript] is arithmetic, which runs $( )",
              "use a fixed variable name; give the value after = (export NAME={{x}})")
       for name in ("declare", "typeset", "local", "export", "readonly", "unset", "read", "mapfile",
                    "readarray", "getopts")},
    "[": (TEST_V, (), "-v NAME reads a variable name, whose [subscript] is arithmetic",
          "test a fixed variable name"),
    "test": (TEST_V, (), "-v NAME reads a variable name, whose [subscript] is arithmetic",
             "test a fixed variable name"),
}

# Not programs: where a value sits makes it code whatever reads it.
COMMAND_WORD_SINK = "a wrapped command word"
COMMAND_WORD = ("a wrapper (sudo, timeout, nice, nohup, env, xargs, find -exec …) would run the program it names",
                "name the program in the recipe; " + _ARGUMENT)
WRAPPER_OPTION = ("it could become an option of the wrapper (env -S splits and runs a string)",
                  "give the value to the program the wrapper runs, not to the wrapper")
STDIN_SCRIPT = ("it reads its standard input as a script",
                "write the value to a file and give the program a fixed script that reads it")
SUBSCRIPT = ("an array subscript is arithmetic, which runs $( )", "use a fixed subscript")
ARITHMETIC = ("arithmetic evaluates it, and runs $( ) in array subscripts",
              "check it is a number first: n={{x}}; case $n in ''|*[!0-9]*) exit 1;; esac; then use $n")

_SUBSCRIPT = re.compile(r"(?:^|(?<=[\s;&|(]))[A-Za-z_][A-Za-z0-9_]*\[([^\]\n]*)\]\+?=")


class Sink:
    """A placeholder a program would read as code: which one, why, and the safe way instead."""

    __slots__ = ("start", "end", "program", "reason", "alternative")

    def __init__(self, span: tuple[int, int], program: str, reason: str, alternative: str):
        self.start, self.end = span
        self.program, self.reason, self.alternative = program, reason, alternative


def code_sinks(masked: str, spans, heredocs=()) -> list[Sink]:
    """The placeholders (``spans`` in ``masked``, each overwritten by plain letters) read as code.

    ``heredocs`` are the scanner's heredoc records (``dp.shell.lexer.layout``):
    a body belongs to the command whose redirection opened it. Raises
    ``Unparseable`` when the parser cannot read the script (too long, too
    slow, a construct bashlex does not know): unjudged is never accepted.
    """
    from dp.shell.lexer import Unparseable
    from dp.shell.segment import simple_commands

    commands = simple_commands(masked)
    if commands is None:
        raise Unparseable("the parser could not read it")
    found: dict[tuple[int, int], Sink] = {}
    for match in _SUBSCRIPT.finditer(masked):
        for span in _within(spans, *match.span(1)):
            found.setdefault(span, Sink(span, "an array assignment", *SUBSCRIPT))
    for command in commands:
        for sink in _command_sinks(command, spans):
            found.setdefault((sink.start, sink.end), sink)
        for sink in _stdin_sinks(masked, command, commands, spans, heredocs):
            found.setdefault((sink.start, sink.end), sink)
    return sorted(found.values(), key=lambda sink: sink.start)


def _within(spans, start: int, end: int) -> list[tuple[int, int]]:
    return [span for span in spans if start <= span[0] and span[1] <= end]


def _in_word(spans, word) -> list[tuple[int, int]]:
    return _within(spans, word.start, word.end)


def _command_sinks(command, spans) -> list[Sink]:
    """The placeholders among one simple command's words that its program (or wrapper) runs."""
    words = [*command.prefix, command.word, *command.args]
    index = program_index([word.value for word in words])
    program = words[index]
    # A bare wrapper (`env -S STRING`) is its own program: its words are judged as a wrapper's.
    sinks = _wrapper_sinks(words[:index + 1] if basename(program.value) in WRAPPERS else words[:index], spans)
    if basename(program.value) in WRAPPERS:
        sinks = _wrapper_sinks(words, spans)
    name = basename(program.value)
    if index or command.run_by:  # the program a wrapper or runner runs (`xargs {{x}}`, `find -exec {{x}}`)
        sinks += [Sink(span, COMMAND_WORD_SINK, *COMMAND_WORD) for span in _in_word(spans, program)]
    entry = SINKS.get(name)
    if entry is not None:
        kind, parameters, reason, alternative = entry
        for start, end, option in _CODE_WORDS[kind](words[index + 1:], parameters):
            shown = f"{name} {option}" if option else name
            sinks += [Sink(span, shown, reason, alternative) for span in _within(spans, start, end)]
    return sinks


def _wrapper_sinks(words, spans) -> list[Sink]:
    """Placeholders in a wrapper's own words that could change what it runs (env -S, an option)."""
    bad, i = [], 0
    while i < len(words):
        spec = WRAPPERS.get(basename(words[i].value))
        i += 1
        if spec is None:
            continue
        options_with_values = spec[0]
        while i < len(words) and words[i].value.startswith("-") and words[i].value != "--":
            option = words[i]
            takes_value = option.value in options_with_values
            bad += _in_word(spans, option)
            if option.value in ("-S", "--split-string") and i + 1 < len(words):
                bad += _in_word(spans, words[i + 1])
            i += 2 if takes_value else 1
        while i < len(words) and (is_assignment(words[i].value) or words[i].value == "--"):
            i += 1
    return [Sink(span, "a wrapper", *WRAPPER_OPTION) for span in bad]


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
    return [_span(word) for word in args]


def _first(args, parameters):
    for word, option in _operands(args, parameters):
        if option is None:
            return [_span(word)]
    return []


def _interpreter(args, parameters):
    """Options (and their values) and the script operand; operands after a code option are argv."""
    code_options, with_values, _ = parameters
    code, seen_code, cluster = [], False, ""
    for word, option in _operands(args, code_options | with_values):
        if option == "option":
            is_code = _is_code_option(word.value, code_options)
            code.append(_span(word, word.value if is_code else ""))
            seen_code = seen_code or is_code
            if is_code and word.value not in code_options:
                cluster = word.value  # `sh -ec SCRIPT`: the first operand is the code
        elif option is not None:
            code.append(_span(word, option if option in code_options else ""))
        elif _is_code_option(word.value, code_options):  # `deno eval CODE`
            seen_code, cluster = True, word.value
            code.append(_span(word))
        else:
            if not seen_code or cluster:
                code.append(_span(word, cluster))  # the script file to run, or a cluster's code
            break
    return code


def _is_code_option(value: str, code_options) -> bool:
    """``-c``, ``--eval=…``, or a cluster ending in a code letter (``-ec``, ``-ne``)."""
    if value in code_options or value.split("=", 1)[0] in code_options:
        return True
    letters = {option[1] for option in code_options if len(option) == 2 and option[0] == "-"}
    return value.startswith("-") and not value.startswith("--") and value[-1:] in letters


def _program_text(args, parameters):
    """The program operand (unless a file or code option gave the program) and code options' values."""
    code_options, file_options, with_values, pairs = parameters
    code, program_given = [], False
    for word, option in _operands(args, code_options | file_options | with_values, pairs):
        if option in code_options:
            code.append(_span(word, option))
            program_given = True
        elif option in file_options:
            program_given = True
        elif option == "option":
            given = word.value.split("=", 1)[0]
            if given in code_options:
                code.append(_span(word, given))
            program_given = program_given or given in code_options | file_options
        elif option is None:
            if not program_given:
                code.append(_span(word))
            break
    return code


def _format(args, _parameters):
    code = []
    for word, option in _operands(args, {"-v"}):
        if option == "-v":
            code.append(_span(word, "-v"))
        elif option is None:
            return code + [_span(word)]
    return code


def _names(args, data_options):
    """Variable names: the words that are operands (up to their ``=``), and ``read -a``'s value."""
    code = []
    for word, option in _operands(args, data_options | {"-a"}):
        if option is None or option == "-a":
            equals = word.raw.find("=")
            code.append((word.start, word.end if equals < 0 else word.start + equals, ""))
    return code


def _test_v(args, _parameters):
    return [_span(args[i + 1], "-v") for i in range(len(args) - 1) if args[i].value == "-v"]


_CODE_WORDS = {ALL: _all, FIRST: _first, INTERPRETER: _interpreter, PROGRAM_TEXT: _program_text,
               FORMAT: _format, NAMES: _names, TEST_V: _test_v}


def _reads_script_from_stdin(command) -> Optional[str]:
    """The program's name when it reads a script on standard input (``bash``, ``python3 -``, ``ssh h``)."""
    words = [*command.prefix, command.word, *command.args]
    index = program_index([word.value for word in words])
    name = basename(words[index].value)
    entry = SINKS.get(name)
    if entry is None:
        return None
    kind, parameters = entry[0], entry[1]
    if command.run_by == "xargs" and any(word.value in ("-I", "-i", "--replace") or word.value.startswith(
            ("-I", "--replace=")) for word in command.prefix):
        return f"xargs -I … {name}"  # each input line is pasted into the program's code
    if kind == ALL and name in ("ssh", "su", "runuser", "doas", "at", "batch"):
        return name
    if kind != INTERPRETER:
        return None
    args = words[index + 1:]
    code_options = parameters[0]
    for word, option in _operands(args, parameters[0] | parameters[1]):
        if option == "option" and _is_code_option(word.value, code_options):
            return None
        if option is None:
            return name if word.value == "-" else None
    return name


def _stdin_sinks(masked: str, command, commands, spans, heredocs) -> list[Sink]:
    """Placeholders reaching an interpreter's standard input: its heredoc, here-string or pipe."""
    program = _reads_script_from_stdin(command)
    if program is None:
        return []
    sinks = []
    for start, end in command.redirects:
        if masked.startswith("<<<", start) or masked[start:end].lstrip("0123456789").startswith("<<<"):
            sinks += [Sink(span, program, *STDIN_SCRIPT) for span in _within(spans, start, end)]
    for operator, *_, body_start, body_end, _line_end in heredocs:
        if any(start <= operator < end for start, end in command.redirects):
            sinks += [Sink(span, program, *STDIN_SCRIPT) for span in _within(spans, body_start, body_end)]
    if command.stdin_redirected:
        for earlier in commands:
            if earlier.end <= command.start and _piped(masked[earlier.end:command.start]):
                sinks += [Sink(span, program, *STDIN_SCRIPT) for span in _within(spans, earlier.start, earlier.end)]
    return sinks


def _piped(between: str) -> bool:
    """Whether only a pipeline stands between two commands (so the first feeds the second)."""
    return "|" in between and not any(mark in between for mark in (";", "\n", "&&", "||"))
