"""Between programs: which program each command runs, and how it reads the values it receives.

``dp.shell.codeflow`` walks the script and follows values through variables;
this module judges each simple command by the program it runs:

* **launchers** (``dp.shell.launchers``): ``stdbuf -oL sh -c``, ``docker run
  IMAGE sh -c``, ``uv run …``, ``xargs``, ``find -exec`` — the command a
  launcher runs is judged in turn; a value that could become the launcher's
  option or its command is refused. A program dp does not know that carries
  a shell, an interpreter or a launcher among its words (``prlimit … sh -c``,
  ``cmake -E env … sh -c``, ``gosu user sh -c``) is a launcher too, judged
  from each such word;
* **an unnamed program**: a command word that is not a literal (``$SHELL``,
  ``$S``, ``"$(which sh)"``) could be any program, so every value the command
  receives is refused;
* **the program's reading** (``dp.shell.sinks``): its code positions, a
  script read from standard input or from another descriptor
  (``bash /dev/fd/3 3<<< …``), a file written from a value and then run, a
  word dp cannot read where the program reads its options (``sh $C …``), and
  a shell's own ``-c`` script judged with the taint it inherits;
* **options** (``dp.shell.options``): the values a program may read as an
  option are noted, to be checked again when the value is known.
"""

from __future__ import annotations

import re

from dp.shell import launchers, options, sinks, sinktable
from dp.shell.codeflow import APPENDED, MAX_DEPTH, POSITIONAL, ZERO, Command, Flow
from dp.shell.lexer import Unparseable
from dp.shell.made import file_key
from dp.shell.names import known_name
from dp.shell.segment import Word
from dp.shell.wrappers import WRAPPERS, is_assignment

_NOT_NAMED = frozenset("$`*?[{")  # expansions, globs, braces ({e,}val is eval)
_RUNS_FILES = frozenset({sinks.SHELL, sinks.INTERPRETER, sinks.FIRST})  # kinds whose code operand may be a file
_SAME_SHELL = frozenset({"eval", "trap"})  # they run their text in this shell, with all its variables
# Kinds of program whose options can make a later value code (a word dp cannot read there may be one).
_PARSES_OPTIONS = frozenset({sinks.SHELL, sinks.INTERPRETER, sinks.PROGRAM_TEXT, sinks.OPTIONS, sinks.GIT})
# A word that is wholly an expansion: it may be any option (or several, unquoted).
_WILD = re.compile(r'"?\$(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*]|\(.*\))"?|\$\(.*\)|`.*`', re.S)
# A reference that may start with any piece of the value: ${V#…}, ${V##…}, ${V:n}, ${V/…}, ${V//…}.
_CUT = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]*\])?(?:#|:[^-=?+]|/)")
UNKNOWN_OPTION = ("{word} is not a literal and stands where {program} reads its options, so it may be one "
                  "(-c, -e …) that makes the value code",
                  "write the options literally, and put -- before a variable that names a file")


def judge(flow: Flow) -> None:
    """Judge every command of ``flow`` by the program it runs."""
    programs = Programs(flow)
    for command in flow.commands:
        programs.judge(command.words, command, wrapped=False, env={name for name, _, _ in command.assigns})


class Programs:
    """The between-programs verdicts of one script."""

    def __init__(self, flow: Flow):
        self.flow = flow

    def judge(self, words, command: Command, wrapped: bool, env: set) -> bool:
        """Judge one command's words (a launcher's tail when ``wrapped``); True when what xargs
        appends (``APPENDED``) lands in a code position."""
        if not words:
            return False
        head = words[0]
        if head is APPENDED:
            return True
        if head.masked:
            return False  # `[[ … ]]`, `(( … ))`: judged where the placeholder sits (dp.shell.placement)
        if self.flow.values_within(head.start, head.end) or _NOT_NAMED & set(head.raw) and head.value not in (
                "[", "[["):
            return self._unnamed(head, words, command, wrapped)
        made = self.flow.made.get(file_key(head.value), "")
        if made is None:  # a program the step made from one it does not name (ln -s "$S" x), or an alias
            return self._unnamed(head, words, command, wrapped)
        if made:  # ./x after ln -s /bin/sh x is sh
            head = Word(head.start, head.end, made, head.raw)
            words = [head, *words[1:]]
        self._run_written(head, words[1:])
        name, args = sinks.program_name(head.value), words[1:]
        if name == "xargs":
            return self._xargs(args, command)
        if known_name(head.value) in launchers.PER_FILE:
            return self._per_file(known_name(head.value), args, command)
        found = launchers.launcher_for(head.value, [word.value for word in args])
        if found is not None:
            return self._launch(known_name(head.value), *found, args, command, env)
        return self._program(name, args, command, env)

    def _unnamed(self, head, words, command: Command, wrapped: bool) -> bool:
        """A command word dp cannot name: the program is chosen when it runs, and may be a shell."""
        flow, in_head = self.flow, self.flow.values_within(head.start, head.end)
        cause = (head.start, head.end)
        if in_head and wrapped:
            for span in in_head:
                flow.add(span, sinktable.COMMAND_WORD_SINK, *sinktable.COMMAND_WORD)
        elif in_head and head.raw.startswith("$"):  # an unquoted $V: the value split into a command line
            for span in in_head:
                flow.add(span, sinktable.UNNAMED_SINK, *sinktable.UNNAMED, cause=cause)
        for word in words[1:]:
            if word is not APPENDED:
                flow.add_all(word.start, word.end, sinktable.UNNAMED_SINK, *sinktable.UNNAMED, cause=cause)
        flow.add_origins(flow.stdin_origins(command), sinktable.UNNAMED_SINK, *sinktable.UNNAMED)
        return any(word is APPENDED for word in words[1:])

    def _run_written(self, head, args) -> None:
        """``./s.sh`` run as a command, after a value was written to it; a program started after a value was
        written to a file it runs by convention (``make`` and a Makefile, ``python -m pytest`` and a conftest.py)."""
        flow = self.flow
        if "/" in head.value and file_key(head.value) in flow.written:
            flow.add_origins(flow.written[file_key(head.value)], head.value, *sinktable.FILE_SCRIPT)
        modules = [args[i + 1].value for i, word in enumerate(args[:-1]) if word is not APPENDED and word.value == "-m"]
        for program in (known_name(head.value), *modules):
            conventions = sinktable.CONVENTIONAL_SCRIPTS.get(program, ())
            for path, origins in flow.written.items():
                if sinktable.path_is(path, conventions):
                    reason = sinktable.CONVENTIONAL_SCRIPT[0].format(program=program, file=path)
                    flow.add_origins(origins, program, reason, sinktable.CONVENTIONAL_SCRIPT[1])

    # --- a program's own reading ----------------------------------------------------------------------

    def _program(self, name: str, args, command: Command, env: set) -> bool:
        flow = self.flow
        self._options(name, args)
        reading = sinks.reading(name, args)
        if reading is None:
            return False
        kind, _, reason, alternative = sinks.SINKS[name]
        if kind in _PARSES_OPTIONS:
            self._wild_options(name, kind, args)
        appended = False
        for start, end, option in reading.spans:
            if start < 0:
                appended = True
                continue
            shown = _shown(name, option)
            flow.add_all(start, end, shown, reason, alternative)
            self._code_text(name, kind, option, args, start, end, command, env, shown)
        if reading.stdin:
            flow.add_origins(flow.stdin_origins(command), name, *sinktable.STDIN_SCRIPT)
        return appended

    def _code_text(self, name, kind, option, args, start, end, command, env, shown) -> None:
        """What a literal code position carries: a written file, a shell's own script, a substitution
        reading stdin, a program that runs its input."""
        flow, literal = self.flow, self.flow.text[start:end]
        has_values = bool(flow.values_within(start, end))
        if file_key(literal) in flow.written and not has_values and kind in _RUNS_FILES and not option:
            flow.add_origins(flow.written[file_key(literal)], shown, *sinktable.FILE_SCRIPT)
        if kind in _RUNS_FILES and not option and sinktable.reads_input(literal.strip("'\"")):
            flow.add_origins(flow.stdin_origins(command), shown, *sinktable.STDIN_SCRIPT)  # source /dev/stdin
        if any(mark in literal for mark in ("$(", "`", "<(")):
            flow.add_origins(flow.stdin_origins(command), shown, *sinktable.STDIN_SCRIPT)
            flow.add_origins(flow.files_read_in(start, end), shown, *sinktable.FILE_SCRIPT)
        if end > start and not has_values and (kind == sinks.SHELL and "c" in option or name in _SAME_SHELL):
            self._inner_script(name, option, args, start, command, env, same_shell=name in _SAME_SHELL)
        if name in sinktable.RUNS_INPUT and sinktable.RUNS_INPUT[name].search(literal):
            flow.add_origins(flow.stdin_origins(command), f"{name} (its program runs its input)",
                             *sinktable.STDIN_SCRIPT)
            self._given_to_a_runner(name, start, end, command)

    def _given_to_a_runner(self, name: str, start: int, end: int, command: Command) -> None:
        """Program text that runs commands (awk's system(), python's subprocess …): every value the program
        is given — its arguments, its variables, its environment — may be what it runs."""
        flow = self.flow
        shown = f"{name} (its program runs what it is given)"
        for span in flow.values_within(command.start, command.end):
            if not start <= span[0] < end:
                flow.add(span, shown, *sinktable.RUNS_GIVEN)
        exported = self._exported()
        flow.add_origins(frozenset().union(*[origins for variable, origins in flow.taint.items()
                                             if variable in exported]), shown, *sinktable.RUNS_GIVEN)

    def _options(self, name: str, args) -> None:
        """Values the program may read as an option: noted, to be checked when they are known (a
        function of the script reads its arguments as ``$1`` …, which ``dp.shell.positions`` judges)."""
        if name in self.flow.functions:
            return
        for word, kind in options.positions(name, args):
            if kind == options.START:
                self._leading_option(name, word)
            else:
                self.flow.option(self._inside_option(word), name, kind)

    def _leading_option(self, name: str, word) -> None:
        """The values that begin ``word``, each checked as itself, a piece split off it, or a piece cut from it."""
        flow = self.flow
        for span in self._leading_spans(word):
            kind = options.START
            if span in flow.via and _CUT.match(flow.text, span[0]):
                kind = options.CUT
            elif span in flow.via and flow.via[span].lstrip("$") in flow.split:
                kind = options.SPLIT
            flow.option(flow.values[span], name, kind)

    def _leading_spans(self, word) -> list:
        start = word.start + len(word.raw) - len(word.raw.lstrip("\"'$"))
        return [span for span in self.flow.values_within(word.start, word.end) if span[0] <= start]

    def _leading(self, word) -> frozenset:
        """The origins of the values that begin ``word`` (after its opening quote)."""
        return frozenset().union(*[self.flow.values[span] for span in self._leading_spans(word)])

    def _inside_option(self, word) -> frozenset:
        """The origins of values inside an option word's name (``--{{mode}}``), before any ``=``."""
        equals = word.raw.find("=")
        end = word.end if equals < 0 else word.start + equals
        return frozenset().union(*[self.flow.values[span] for span in self.flow.values_within(word.start, end)])

    def _wild_options(self, name: str, kind: str, args) -> None:
        """A word dp cannot read (``$C``) where the program still reads options: the values after it."""
        marks = ("-", "+") if kind == sinks.SHELL else ("-",)  # `sh +e -c $C …`: a shell's +e is an option too
        takes_value, i = options.takes_value(name, command_string=False), 0
        while i < len(args):
            word = args[i]
            if word is APPENDED or word.value == "--":
                return
            if _WILD.fullmatch(word.raw) and not self.flow.values_within(word.start, word.end):
                self._after_wild(name, word, args[i + 1:])
                return
            if not word.value.startswith(marks):
                return  # the first operand: options end here for the programs that need them before it
            i += 2 if takes_value(word.value.split("=", 1)[0]) and "=" not in word.value else 1

    def _after_wild(self, name: str, word, later) -> None:
        reason, alternative = UNKNOWN_OPTION
        for after in later:
            if after is not APPENDED:
                self.flow.add_all(after.start, after.end, name, reason.format(word=word.raw, program=name),
                                  alternative)

    def _inner_script(self, name: str, option: str, args, start: int, command: Command, env: set,
                      same_shell: bool = False) -> None:
        """A shell's own ``-c '…'`` script, judged with what it inherits: exported tainted variables and
        the values given as its positional parameters (``sh -c 'eval "$1"' _ {{v}}``); for ``eval`` and
        ``trap``, whose text this shell runs, every tainted variable (``trap 'eval "$V"' EXIT``)."""
        flow = self.flow
        position = next((i for i, word in enumerate(args) if word.start == start), None)
        if flow.depth >= MAX_DEPTH or position is None:
            return
        inherited = self._inherited(args, position, env, same_shell)
        stdin = flow.stdin_origins(command)
        if not inherited and not stdin:
            return
        label = f"{name} {option}".strip()
        try:
            inner = flow.inner(args[position].value, inherited, stdin)
        except Unparseable:
            flow.add_origins(frozenset().union(stdin, *inherited.values()), label,
                             "its script could not be read, and it receives the value", sinktable.SHELL_ALTERNATIVE)
            return
        for sink in inner:  # the inner script's values are the outer placeholders already
            flow.add_origins([(sink.start, sink.end)], f"{label} (its script: {sink.program})",
                             sink.reason, sink.alternative)

    def _inherited(self, args, position: int, env: set, same_shell: bool) -> dict:
        """What a -c script at ``args[position]`` is given: tainted variables it sees, and the values after
        it as ``$0`` and its positional parameters (none for eval and trap, which run in this shell)."""
        flow = self.flow
        inherited = {variable: origins for variable, origins in flow.taint.items()
                     if same_shell or variable in env or variable in self._exported()}
        if same_shell:
            return inherited
        after = args[position + 2:]  # $0 first, then $1 …
        origins = frozenset().union(*[flow.origins_in(word.start, word.end) for word in after]) if after else None
        if origins:
            inherited.update({positional: origins for positional in POSITIONAL})
        zero = args[position + 1] if position + 1 < len(args) else APPENDED
        if zero is not APPENDED and flow.origins_in(zero.start, zero.end):
            inherited[ZERO] = flow.origins_in(zero.start, zero.end)  # sh -c '"$0"' {{v}}: $0 is the value
        return inherited

    def _exported(self) -> set:
        exported = set()
        for command in self.flow.commands:
            if not command.words:
                continue
            head, args = command.words[0].value, command.words[1:]
            if head == "set" and any(word.value in ("-a", "allexport") for word in args):
                return set(self.flow.taint)
            if head == "export" or (head in ("declare", "typeset") and any(
                    word.value.startswith("-") and "x" in word.value for word in args)):
                exported |= {word.value.split("=", 1)[0] for word in args if not word.value.startswith("-")}
        return exported

    # --- launchers --------------------------------------------------------------------------------------

    def _launch(self, name: str, spec: launchers.Launcher, at: int, args, command: Command, env: set) -> bool:
        """A launcher's own words (a value may not become its option or program), then the command it runs."""
        i, env = self._launcher_words(name, spec, args, at, set(env))
        if i >= len(args) and spec.shell_options & {word.value for word in args if word is not APPENDED}:
            self.flow.add_origins(self.flow.stdin_origins(command), f"{name} (a shell)", *sinktable.STDIN_SCRIPT)
        appended = self.judge(args[i:], command, wrapped=True, env=env)
        if spec.guessed:
            appended = self._guessed_tails(args, at, i, command, env) or appended
        return appended

    def _launcher_words(self, name: str, spec: launchers.Launcher, args, i: int, env: set) -> tuple[int, set]:
        """Past the launcher's options, assignments and positional words: (where its command starts, env)."""
        positional = spec.positional
        while i < len(args):
            word, value = args[i], args[i].value
            if value == "--":
                return i + 1, env
            if value.startswith("-") and value != "-" and word is not APPENDED:
                if value.split("=", 1)[0] in spec.tail_options:
                    return i + 1, env
                i = self._launcher_option(name, spec, args, i)
            elif spec.assignments and is_assignment(value):
                from dp.shell.positions import assigned_word

                assigned_word(self.flow, word)
                env.add(value.split("=", 1)[0])
                i += 1
            elif positional:
                self._launcher_positional(name, spec, word)
                positional -= 1
                i += 1
            else:
                return i, env
        return i, env

    def _launcher_option(self, name: str, spec: launchers.Launcher, args, i: int) -> int:
        """One option of a launcher: a value in it may be another of its options; its value may be a command."""
        flow, word, value = self.flow, args[i], args[i].value
        option = value.split("=", 1)[0]
        shown = "a wrapper" if name in WRAPPERS else name
        if option in spec.code:
            target = word if "=" in value or i + 1 >= len(args) else args[i + 1]
            if shown == "a wrapper":
                flow.add_all(target.start, target.end, shown, *sinktable.WRAPPER_OPTION)
            else:
                flow.add_all(target.start, target.end, f"{name} {option}", *sinktable.LAUNCHED)
            return i + (1 if "=" in value else 2)
        if not spec.unknown and not ("=" in value and value.startswith("--") and option in spec.values):
            flow.add_all(word.start, word.end, "a wrapper", *sinktable.WRAPPER_OPTION)
        flow.option(self._leading(word), name, options.START)
        return i + (2 if option in spec.values and "=" not in value else 1)

    def _launcher_positional(self, name: str, spec: launchers.Launcher, word) -> None:
        if spec.code and word is not APPENDED:
            self.flow.add_all(word.start, word.end, "a wrapper", *sinktable.WRAPPER_OPTION)
        if word is not APPENDED:
            self.flow.option(self._leading(word), name, options.START)

    def _guessed_tails(self, args, at: int, i: int, command: Command, env: set) -> bool:
        """A launcher whose options dp does not all know: each shell, interpreter or launcher among its
        words is judged as if the command started there."""
        flow, appended = self.flow, False
        known = i < len(args) and args[i] is not APPENDED and launchers.is_followed(args[i].value)
        for k in range(at, len(args) if not known else i):
            if k != i and _followed(args[k]) and not flow.values_within(args[k].start, args[k].end):
                appended = self.judge(args[k:], command, wrapped=True, env=env) or appended
        return appended

    def _xargs(self, args, command: Command) -> bool:
        """``xargs [options] COMMAND``: its input becomes COMMAND's arguments (pasted into them with -I)."""
        flow, i, replace = self.flow, 0, False
        while i < len(args) and args[i].value.startswith("-") and args[i].value != "--":
            value = args[i].value
            replace = replace or value in ("-I", "-i", "--replace") or value.startswith(("-I", "--replace="))
            if value not in launchers.XARGS_VALUES:
                flow.add_all(args[i].start, args[i].end, "a wrapper", *sinktable.WRAPPER_OPTION)
            i += 2 if value in launchers.XARGS_VALUES else 1
        if i < len(args) and args[i].value == "--":
            i += 1
        tail = args[i:]
        if not tail:
            return False
        appended = self.judge(tail + [APPENDED], command, wrapped=True, env=set())
        head = sinks.program_name(tail[0].value)
        if replace and head in sinks.SINKS and not flow.values_within(tail[0].start, tail[0].end):
            flow.add_origins(flow.stdin_origins(command), f"xargs -I … {head}", *sinktable.STDIN_SCRIPT)
        elif appended:
            flow.add_origins(flow.stdin_origins(command), f"xargs {head}", *sinktable.STDIN_SCRIPT)
        return False

    def _per_file(self, name: str, args, command: Command) -> bool:
        """``find … -exec COMMAND … ;``, ``fd … -x COMMAND …``: each command the search runs is judged as
        a launcher's tail (``--exec=sh``: the program is the option's value)."""
        self._options(name, args)
        opening, closing = launchers.PER_FILE[name]
        i = 0
        while i < len(args):
            word = args[i]
            option, glued = word.value.partition("=")[::2] if word.value.startswith("--") else (word.value, "")
            if option in opening:
                end = i + 1
                while end < len(args) and args[end].value not in closing:
                    end += 1
                head = [_after_equals(word)] if glued else []
                self.judge(head + args[i + 1:end], command, wrapped=True, env=set())
                i = end
            i += 1
        return False


def _after_equals(word):
    """The value of a ``--option=VALUE`` word, as a word of its own (where the value starts in the script)."""
    at = word.raw.find("=") + 1
    return Word(word.start + at, word.end, word.value.split("=", 1)[1], word.raw[at:])


def _shown(name: str, option: str) -> str:
    if not option:
        return name
    return f"{name}, read as an option" if option == sinks.AS_OPTION else f"{name} {option}"


def _followed(word) -> bool:
    """Whether a word names a shell, interpreter, runner or launcher (judged wherever a guessed launcher has it)."""
    return word is not APPENDED and not word.value.startswith("-") and launchers.is_followed(word.value)
