"""Where a template value flows in a Bash script, and which program would run it: judged by structure.

``dp.shell.sinks`` knows how each program reads its arguments; this module
follows a value from its placeholder to every program that could receive it,
the way bash would carry it:

* **launchers** (``dp.shell.launchers``): ``stdbuf -oL sh -c``, ``docker run
  IMAGE sh -c``, ``uv run …``, ``busybox sh``, ``xargs``, ``find -exec`` — the
  command a launcher runs is judged in turn, and a value that names that
  command is refused;
* **an unnamed program**: a command word that is not a literal (``$SHELL``,
  ``$S``, ``"$(which sh)"``) could be any program, so every value the command
  receives is refused;
* **variables**: a value assigned to a variable (``V={{v}}``, ``export``,
  ``declare``, ``read``, ``for V in``, ``printf -v``, ``set --``, a function's
  arguments) taints it, and each later ``$V`` is judged as the value itself —
  in a code position, in arithmetic, inside a shell's own ``-c '… $V …'``
  script when it is exported, in a program variable (``PAGER``, ``GIT_SSH_COMMAND``);
* **standard input**: a value anywhere upstream of a program that reads its
  script from stdin (pipes, through compound commands, here-strings,
  heredocs, ``/dev/stdin``, ``-s``) is code;
* **files**: a file written from a value (``> f``, ``tee f``) and then run
  (``sh f``, ``source f``, ``sh < f``) carries it.

Everything here is flow-insensitive and errs toward refusal: a variable
tainted anywhere is tainted everywhere. The verdicts are ``sinks.Sink``s on
the placeholders the value came from.
"""

from __future__ import annotations

import re
from typing import Optional

from dp.shell import launchers, sinks
from dp.shell.sinks import Sink
from dp.shell.wrappers import WRAPPERS, basename, is_assignment

MAX_DEPTH = 3  # shells inside shells' -c scripts judged with the outer taint
_DECLARATIONS = frozenset({"export", "declare", "typeset", "local", "readonly"})
_READERS = frozenset({"read", "mapfile", "readarray"})
_READ_VALUE_OPTIONS = frozenset({"-d", "-p", "-t", "-n", "-N", "-u", "-i", "-C", "-c", "-O", "-s"})
_OUTPUT = (">", ">>", ">|", "&>", "&>>")
_NOT_NAMED = frozenset("$`*?[")
_FOLLOWED_KINDS = frozenset({sinks.SHELL, sinks.INTERPRETER, sinks.ALL})
TEST_ARITHMETIC = re.compile(r"(?<!\S)-(eq|ne|lt|le|gt|ge|v)(?!\S)")
_SUBSCRIPT = re.compile(r"(?:^|(?<=[\s;&|(]))[A-Za-z_][A-Za-z0-9_]*\[([^\]\n]*)\]\+?=")
_SAME_SHELL = frozenset({"eval", "trap"})  # they run their text in this shell, with all its variables
# A declaration's option cluster that makes its names references to other variables (`-n`, `-gn`).
_NAMEREF = re.compile(r"-[a-zA-Z]*n[a-zA-Z]*")
_POSITIONAL = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*")


class Word:
    """One word of a command: its span in the script, its value as bash sees it, its source text."""

    __slots__ = ("start", "end", "value", "raw", "masked")

    def __init__(self, start: int, end: int, value: str, raw: str, masked: bool = False):
        self.start, self.end, self.value, self.raw, self.masked = start, end, value, raw, masked


_APPENDED = Word(-1, -1, "appended", "appended")  # what xargs adds to the command it runs


class Command:
    """A simple command: its words, ``NAME=value`` assignments, redirections, and what feeds its stdin."""

    __slots__ = ("start", "end", "words", "assigns", "redirects", "stdin")

    def __init__(self, start, end, words, assigns, redirects, stdin):
        self.start, self.end = start, end
        self.words = words
        self.assigns = assigns  # (name, value start, value end)
        self.redirects = redirects  # (operator, start, end, target Word or None)
        self.stdin = stdin  # regions (start, end) whose values reach its standard input


def code_sinks(masked: str, spans, heredocs=(), regions=None) -> list[Sink]:
    """The placeholders (``spans`` in ``masked``, each overwritten by plain letters) some program runs as code.

    ``heredocs`` and ``regions`` are the scanner's (``dp.shell.lexer.layout``).
    Raises ``Unparseable`` when the parser cannot read the script: unjudged is
    never accepted.
    """
    if regions is None:
        from dp.shell.lexer import layout

        regions, heredocs = layout(masked)
    flow = _Flow(masked, regions, heredocs, {span: frozenset([span]) for span in spans}, {}, 0)
    return sorted(flow.sinks(), key=lambda sink: sink.start)


class _Flow:
    """One script's walk, taint and verdicts (a shell's ``-c`` script gets its own, one level deeper)."""

    def __init__(self, text, regions, heredocs, placeholders, taint, depth):
        self.text, self.regions, self.heredocs, self.depth = text, regions, heredocs, depth
        self.placeholders = placeholders  # span → origins (the outer placeholders it stands for)
        self.taint: dict[str, frozenset] = dict(taint)  # variable → origins
        self.commands: list[Command] = []
        self.loops: list[tuple[str, int, int]] = []
        self.functions: set[str] = set()
        self.values: dict[tuple[int, int], frozenset] = {}
        self.via: dict[tuple[int, int], str] = {}
        self.written: dict[str, frozenset] = {}
        self.found: dict[tuple[int, int], Sink] = {}

    # --- the walk ---------------------------------------------------------------------------------

    def sinks(self) -> list[Sink]:
        from dp.shell.bashlex_loader import load
        from dp.shell.guard import Timeout, deadline
        from dp.shell.lexer import Unparseable, prepare
        from dp.shell.segment import MAX_PARSE_CHARS, PARSE_SECONDS

        if len(self.text) > MAX_PARSE_CHARS:
            raise Unparseable("too long to judge")
        prepared = prepare(self.text)
        try:
            with deadline(PARSE_SECONDS * 3):
                trees = load().parse(prepared.text)
            for tree in trees:
                self._walk(tree, prepared, [])
        except (Timeout, RecursionError, Exception) as exc:  # bashlex raises its own errors
            if isinstance(exc, Unparseable):
                raise
            raise Unparseable("the parser could not read it") from None
        self.commands.sort(key=lambda command: command.start)
        self._spread_taint()
        self._note_written()
        for span, origins in self.values.items():
            self._place(span, origins)
        for command in self.commands:
            self._assignments(command)
            self._judge(command.words, command, wrapped=False, env=self._prefix_env(command))
        return list(self.found.values())

    def _walk(self, node, prepared, stdin: list) -> None:
        kind = node.kind
        if kind == "command":
            self._command(node, prepared, stdin)
            return
        if kind == "pipeline":
            parts = [part for part in node.parts if part.kind != "pipe"]
            for i, part in enumerate(parts):
                self._walk(part, prepared, stdin + [tuple(earlier.pos) for earlier in parts[:i]])
            return
        if kind == "function":
            self.functions.add(node.parts[0].word)
        if kind == "for" and len(node.parts) > 1 and node.parts[1].kind == "word":
            words = [part for part in node.parts[3:] if part.kind == "word"]
            if words:
                self.loops.append((node.parts[1].word, words[0].pos[0], words[-1].pos[1]))
        own = stdin + self._redirect_sources(getattr(node, "redirects", None) or ())
        for attribute in ("parts", "list"):
            for child in getattr(node, attribute, None) or ():
                if hasattr(child, "kind") and child.kind != "redirect":
                    self._walk(child, prepared, own)
        for attribute in ("command", "output"):
            child = getattr(node, attribute, None)
            if child is not None and hasattr(child, "kind"):
                self._walk(child, prepared, own)

    def _command(self, node, prepared, stdin) -> None:
        if prepared.literal(node.pos[0]):
            return  # bashlex reads `$( … )` inside some '…' strings: nothing there runs
        words, assigns, redirects = [], [], []
        for part in node.parts:
            start, end = part.pos
            raw = self.text[start:end]
            if part.kind == "word":
                masked = prepared.masked(start, end)
                words.append(Word(start, end, raw if masked else part.word, raw, masked))
            elif part.kind == "assignment":
                name = raw.split("=", 1)[0].rstrip("+")
                assigns.append((name, start + raw.index("=") + 1, end))
            elif part.kind == "redirect":
                operator = raw.lstrip("0123456789")
                operator = next((op for op in ("<<<", "<<", "&>>", "&>", ">>", ">|", ">&", "<&", "<>", ">", "<")
                                 if operator.startswith(op)), "")
                target = part.output if hasattr(part.output, "kind") and part.output.kind == "word" else None
                redirects.append((operator, start, end, Word(*target.pos, target.word, self.text[
                    target.pos[0]:target.pos[1]]) if target is not None else None))
        own = stdin + self._redirect_sources([part for part in node.parts if part.kind == "redirect"])
        self.commands.append(Command(node.pos[0], node.pos[1], words, assigns, redirects, own))
        for part in node.parts:  # substitutions inside the words run with this command's stdin
            self._substitutions(part, prepared, own)

    def _substitutions(self, node, prepared, stdin) -> None:
        for child in getattr(node, "parts", None) or ():
            if child.kind in ("commandsubstitution", "processsubstitution"):
                self._walk(child.command, prepared, stdin)
            else:
                self._substitutions(child, prepared, stdin)

    def _redirect_sources(self, redirects) -> list[tuple[int, int]]:
        """The regions a command's (or compound's) own redirections feed to its stdin."""
        sources = []
        for redirect in redirects:
            start, end = redirect.pos
            operator = self.text[start:end].lstrip("0123456789")
            if operator.startswith("<<<"):
                sources.append((start, end))
            elif operator.startswith("<<"):
                body = self._heredoc_at(start, end)
                if body:
                    sources.append(body)
            elif operator.startswith("<") and not operator.startswith("<&"):
                target = self.text[start:end].lstrip("0123456789<").strip().strip("'\"")
                sources.append(("file", target))
        return sources

    def _heredoc_at(self, start: int, end: int):
        for operator, *_, body_start, body_end, _line_end in self.heredocs:
            if start <= operator < end:
                return body_start, body_end
        return None

    # --- values and taint ---------------------------------------------------------------------------

    def _spread_taint(self) -> None:
        """Taint variables from the values assigned to them, to a fixed point; then every tainted ``$V``
        (and bare name in arithmetic) is a value too, standing for the placeholders it came from."""
        self.values = dict(self.placeholders)
        heads = [(command.words[0].start, command.words[0].end) for command in self.commands if command.words]
        for _ in range(8):
            before = dict(self.taint)
            # What a program prints is not its command word: `X=$({{cmd}})` holds the program's output.
            named = frozenset().union(*[self.values[span] for span in self.values
                                        if any(s <= span[0] and span[1] <= e for s, e in heads)])
            for name, start, end in self._assignment_regions():
                self._taint(name, self._origins_in(start, end) - (named - self._origins_outside(start, end, heads)))
            for command in self.commands:
                self._taint_from(command)
            self._find_references()
            if self.taint == before:
                break

    def _taint(self, name: str, origins: frozenset) -> None:
        if origins and not origins <= self.taint.get(name, frozenset()):
            self.taint[name] = self.taint.get(name, frozenset()) | origins

    def _assignment_regions(self):
        for command in self.commands:
            yield from command.assigns
            if command.words and command.words[0].value in _DECLARATIONS | {"env"}:
                for word in command.words[1:]:
                    if is_assignment(word.value):
                        equals = word.raw.index("=") if "=" in word.raw else len(word.raw)
                        yield word.value.split("=", 1)[0].rstrip("+"), word.start + equals + 1, word.end
        yield from self.loops

    def _taint_from(self, command: Command) -> None:
        """``read``/``mapfile`` from a tainted stdin, ``printf -v``, ``set --`` and function arguments."""
        if not command.words:
            return
        name, args = command.words[0].value, command.words[1:]
        if name in _READERS:
            origins = self._stdin_origins(command)
            skip = False
            for word in args:
                if skip:
                    skip = False
                elif word.value in _READ_VALUE_OPTIONS:
                    skip = True
                elif not word.value.startswith("-"):
                    self._taint(word.value, origins)
        elif name == "printf" and len(args) > 1 and args[0].value == "-v":
            self._taint(args[1].value, self._origins_in(args[1].end, command.end))
        elif name in _DECLARATIONS and any(_NAMEREF.fullmatch(word.value) for word in args):
            # `declare -n r=V`: r is another name for V, whichever V it names later; taint it with all.
            for word in args:
                if not word.value.startswith(("-", "+")):
                    self._taint(word.value.split("=", 1)[0], self._everything())
        elif (name == "set" and args) or name in self.functions:
            origins = self._origins_in(args[0].start, command.end) if args else frozenset()
            for positional in _POSITIONAL:
                self._taint(positional, origins)

    def _find_references(self) -> None:
        """Each ``$V``/``${V…}`` of a tainted V outside single quotes, and V's bare name in arithmetic."""
        literal = [(start, end) for start, end, kind in self.regions
                   if kind in ("single-quoted", "ansi-c-quoted", "quoted-heredoc")]
        arithmetic = [(start, end) for start, end, kind in self.regions if kind == "arithmetic" or (
            kind == "test" and TEST_ARITHMETIC.search(self.text, start, end))]
        if self.taint:  # `${!x}` reads the variable x names, which may be any tainted one
            for match in re.finditer(r"\$\{![^}]*\}", self.text):
                if not _inside(literal, match.start()):
                    self._reference(match.span(), self._everything(), match.group())
        for name, origins in self.taint.items():
            escaped = re.escape(name)
            pattern = rf"\$(?:{escaped}(?![A-Za-z0-9_])|\{{[#!]?{escaped}(?![A-Za-z0-9_])[^}}]*\}})"
            for match in re.finditer(pattern, self.text):
                if not _inside(literal, match.start()):
                    self._reference(match.span(), origins, f"${name}")
            if name not in _POSITIONAL:
                for start, end in arithmetic:
                    for match in re.finditer(rf"(?<![$A-Za-z0-9_]){escaped}(?![A-Za-z0-9_])", self.text[start:end]):
                        self._reference((start + match.start(), start + match.end()), origins, name)

    def _everything(self) -> frozenset:
        """Every placeholder a tainted variable carries: what an indirect reference may reach."""
        return frozenset().union(*self.taint.values())

    def _reference(self, span, origins, shown: str) -> None:
        if span in self.placeholders:
            return
        self.values[span] = self.values.get(span, frozenset()) | origins
        self.via[span] = shown

    def _origins_in(self, start: int, end: int) -> frozenset:
        origins = frozenset()
        for span, from_values in self.values.items():
            if start <= span[0] and span[1] <= end:
                origins |= from_values
        body = self._bodies_in(start, end)
        for body_start, body_end in body:
            origins |= self._origins_in(body_start, body_end)
        return origins

    def _origins_outside(self, start: int, end: int, heads) -> frozenset:
        """The origins of values in ``[start, end)`` that are not a command word there."""
        origins = frozenset()
        for span, from_values in self.values.items():
            if start <= span[0] and span[1] <= end and not any(s <= span[0] and span[1] <= e for s, e in heads):
                origins |= from_values
        return origins

    def _bodies_in(self, start: int, end: int):
        return [(body_start, body_end) for operator, *_, body_start, body_end, _line_end in self.heredocs
                if start <= operator < end and not (start <= body_start and body_end <= end)]

    def _stdin_origins(self, command: Command) -> frozenset:
        origins = frozenset()
        for source in command.stdin:
            if source[0] == "file":
                origins |= self.written.get(_file(source[1]), frozenset())
            else:
                origins |= self._origins_in(*source)
        return origins

    def _values_within(self, start: int, end: int) -> list[tuple[int, int]]:
        found = [span for span in self.values if start <= span[0] and span[1] <= end]
        for body_start, body_end in self._bodies_in(start, end):
            found += self._values_within(body_start, body_end)
        return found

    def _note_written(self) -> None:
        """Files written from a value (``> f``, ``>> f``, ``tee f``): running them runs the value."""
        for command in self.commands:
            origins = self._origins_in(command.start, command.end) | self._stdin_origins(command)
            if not origins:
                continue
            for operator, _, _, target in command.redirects:
                if operator in _OUTPUT and target is not None:
                    self.written[_file(target.value)] = self.written.get(_file(target.value), frozenset()) | origins
            if command.words and basename(command.words[0].value) == "tee":
                for word in command.words[1:]:
                    if not word.value.startswith("-"):
                        self.written[_file(word.value)] = self.written.get(_file(word.value), frozenset()) | origins

    # --- verdicts -----------------------------------------------------------------------------------

    def _add(self, span, program: str, reason: str, alternative: str, cause=None) -> None:
        """A sink for every placeholder the value at ``span`` came from."""
        shown = f"{program} (through {self.via[span]})" if span in self.via else program
        for origin in self.values.get(span, frozenset()):
            if origin not in self.found:
                sink = Sink(origin, shown, reason, alternative)
                sink.cause = cause
                self.found[origin] = sink

    def _add_all(self, start: int, end: int, program: str, reason: str, alternative: str, cause=None) -> None:
        for span in self._values_within(start, end):
            self._add(span, program, reason, alternative, cause)

    def _add_origins(self, origins, program: str, reason: str, alternative: str) -> None:
        for origin in origins:
            if origin not in self.found:
                self.found[origin] = Sink(origin, program, reason, alternative)

    def _place(self, span, origins) -> None:
        """Places that are code whatever reads them: arithmetic (for a ``$V``), array subscripts, ``${V@P}``."""
        if span in self.via and _inside([(s, e) for s, e, kind in self.regions if kind == "arithmetic" or (
                kind == "test" and TEST_ARITHMETIC.search(self.text, s, e))], span[0]):
            self._add(span, "arithmetic", *sinks.ARITHMETIC)
        if span in self.via and self.text.startswith("@P}", span[1] - 3):
            self._add(span, "a prompt expansion", *sinks.PROMPT)
        for match in _SUBSCRIPT.finditer(self.text):
            if match.start(1) <= span[0] and span[1] <= match.end(1):
                self._add(span, "an array assignment", *sinks.SUBSCRIPT)

    def _assignments(self, command: Command) -> None:
        """``NAME=value`` where NAME is a program variable (``PAGER``, ``GIT_SSH_COMMAND``), bare or exported."""
        for name, start, end in command.assigns:
            if sinks.is_program_variable(name):
                self._add_all(start, end, f"{name}=", *sinks.PROGRAM_VARIABLE)
        if command.words and command.words[0].value in _DECLARATIONS:
            for word in command.words[1:]:
                self._assigned_word(word)

    def _assigned_word(self, word: Word) -> None:
        if is_assignment(word.value) and sinks.is_program_variable(word.value.split("=", 1)[0].rstrip("+")):
            self._add_all(word.start, word.end, f"{word.value.split('=', 1)[0]}=", *sinks.PROGRAM_VARIABLE)

    def _prefix_env(self, command: Command) -> set:
        return {name for name, _, _ in command.assigns}

    def _judge(self, words, command: Command, wrapped: bool, env: set) -> bool:
        """Judge one command's words (a launcher's tail when ``wrapped``); True when what xargs
        appends (``_APPENDED``) lands in a code position."""
        if not words:
            return False
        head = words[0]
        if head is _APPENDED:
            return True
        if head.masked:
            return False  # `[[ … ]]`, `(( … ))`: judged where the placeholder sits (dp.shell.placement)
        in_head = self._values_within(head.start, head.end)
        if in_head or _NOT_NAMED & set(head.raw) and head.value not in ("[", "[["):
            if in_head and wrapped:
                for span in in_head:
                    self._add(span, sinks.COMMAND_WORD_SINK, *sinks.COMMAND_WORD)
            elif in_head and head.raw.startswith("$"):  # an unquoted $V: the value split into a command line
                for span in in_head:
                    self._add(span, sinks.UNNAMED_SINK, *sinks.UNNAMED, cause=(head.start, head.end))
            for word in words[1:]:
                if word is not _APPENDED:
                    self._add_all(word.start, word.end, sinks.UNNAMED_SINK, *sinks.UNNAMED, cause=(head.start, head.end))
            self._add_origins(self._stdin_origins(command), sinks.UNNAMED_SINK, *sinks.UNNAMED)
            return any(word is _APPENDED for word in words[1:])
        name, args = sinks.program_name(head.value), words[1:]
        if name == "xargs":
            return self._xargs(args, command)
        if name == "find":
            return self._find(args, command)
        launcher = launchers.LAUNCHERS.get(basename(head.value))
        if launcher is not None:
            spec, at = launchers.tail_start(launcher, [word.value for word in args])
            if spec is not None:
                return self._launch(basename(head.value), spec, args, at, command, env)
        return self._program(name, args, command, env)

    def _program(self, name: str, args, command: Command, env: set) -> bool:
        reading = sinks.reading(name, args)
        if reading is None:
            return False
        kind, _, reason, alternative = sinks.SINKS[name]
        appended = False
        for start, end, option in reading.spans:
            if start < 0:
                appended = True
                continue
            shown = name if not option else f"{name}, read as an option" if option == sinks.AS_OPTION \
                else f"{name} {option}"
            self._add_all(start, end, shown, reason, alternative)
            literal = self.text[start:end]
            if _file(_unquoted(literal)) in self.written and not self._values_within(start, end):
                self._add_origins(self.written[_file(_unquoted(literal))], shown, *sinks.FILE_SCRIPT)
            if kind == sinks.SHELL and "c" in option and end > start and not self._values_within(start, end):
                self._inner_script(name, option, args, start, command, env)
            elif name in _SAME_SHELL and end > start and not self._values_within(start, end):
                self._inner_script(name, option, args, start, command, env, same_shell=True)
            if reading.stdin is False and any(mark in literal for mark in ("$(", "`", "<(")):
                self._add_origins(self._stdin_origins(command), shown, *sinks.STDIN_SCRIPT)
            if name in sinks.RUNS_INPUT and sinks.RUNS_INPUT[name].search(literal):
                self._add_origins(self._stdin_origins(command), f"{name} (its program runs its input)",
                                  *sinks.STDIN_SCRIPT)
        if reading.stdin:
            self._add_origins(self._stdin_origins(command), name, *sinks.STDIN_SCRIPT)
        return appended

    def _inner_script(self, name: str, option: str, args, start: int, command: Command, env: set,
                      same_shell: bool = False) -> None:
        """A shell's own ``-c '…'`` script, judged with what it inherits: exported tainted variables and
        the values given as its positional parameters (``sh -c 'eval "$1"' _ {{v}}``); for ``eval`` and
        ``trap``, whose text this shell runs, every tainted variable (``trap 'eval "$V"' EXIT``)."""
        if self.depth >= MAX_DEPTH:
            return
        position = next((i for i, word in enumerate(args) if word.start == start), None)
        if position is None:
            return
        inherited = {name_: origins for name_, origins in self.taint.items()
                     if same_shell or name_ in env or name_ in self._exported()}
        after = args[position + 2:]  # $0 first, then $1 …
        origins = frozenset().union(*[self._origins_in(word.start, word.end) for word in after]) \
            if after and not same_shell else None
        if origins:
            inherited.update({positional: origins for positional in _POSITIONAL})
        if not inherited:
            return
        from dp.shell.lexer import Unparseable, layout

        script = args[position].value
        try:
            regions, heredocs = layout(script)
            inner = _Flow(script, regions, heredocs, {}, inherited, self.depth + 1).sinks()
        except Unparseable:
            self._add_origins(frozenset().union(*inherited.values()), f"{name} {option}",
                              "its script could not be read, and it receives the value", sinks.SHELL_ALTERNATIVE)
            return
        for sink in inner:  # the inner script's values are the outer placeholders already
            self._add_origins([(sink.start, sink.end)], f"{f'{name} {option}'.strip()} (its script: {sink.program})",
                              sink.reason, sink.alternative)

    def _exported(self) -> set:
        exported = set()
        for command in self.commands:
            if not command.words:
                continue
            head, args = command.words[0].value, command.words[1:]
            if head == "set" and any(word.value in ("-a", "allexport") for word in args):
                return set(self.taint)
            if head == "export" or (head in ("declare", "typeset") and any(
                    word.value.startswith("-") and "x" in word.value for word in args)):
                exported |= {word.value.split("=", 1)[0] for word in args if not word.value.startswith("-")}
        return exported

    def _launch(self, name: str, spec: launchers.Launcher, args, at: int, command: Command, env: set) -> bool:
        """A launcher's own words (a value may not become its option or program), then the command it runs."""
        shown = "a wrapper" if name in WRAPPERS else name
        i, positional, env = at, spec.positional, set(env)
        while i < len(args):
            word, value = args[i], args[i].value
            if value == "--":
                i += 1
                break
            if value.startswith("-") and value != "-" and word is not _APPENDED:
                option = value.split("=", 1)[0]
                if option in spec.tail_options:
                    i += 1
                    break
                if option in spec.code:
                    target = word if "=" in value or i + 1 >= len(args) else args[i + 1]
                    if shown == "a wrapper":
                        self._add_all(target.start, target.end, shown, *sinks.WRAPPER_OPTION)
                    else:
                        self._add_all(target.start, target.end, f"{name} {option}", *sinks.LAUNCHED)
                    i += 1 if "=" in value else 2
                    continue
                if not ("=" in value and value.startswith("--") and option in spec.values):
                    self._add_all(word.start, word.end, "a wrapper", *sinks.WRAPPER_OPTION)
                i += 2 if option in spec.values and "=" not in value else 1
                continue
            if spec.assignments and is_assignment(value):
                self._assigned_word(word)
                env.add(value.split("=", 1)[0])
                i += 1
                continue
            if positional:
                if spec.code and word is not _APPENDED:
                    self._add_all(word.start, word.end, "a wrapper", *sinks.WRAPPER_OPTION)
                positional -= 1
                i += 1
                continue
            break
        appended = self._judge(args[i:], command, wrapped=True, env=env)
        if spec.guessed:
            known = i < len(args) and args[i] is not _APPENDED and (
                sinks.program_name(args[i].value) in sinks.SINKS or basename(args[i].value) in launchers.LAUNCHERS)
            for k in range(at, len(args) if not known else i):
                if k != i and _followed(args[k]) and not self._values_within(args[k].start, args[k].end):
                    appended = self._judge(args[k:], command, wrapped=True, env=env) or appended
        return appended

    def _xargs(self, args, command: Command) -> bool:
        """``xargs [options] COMMAND``: its input becomes COMMAND's arguments (pasted into them with -I)."""
        values = {"-I", "-L", "-n", "-P", "-s", "-E", "-d", "-a", "--arg-file", "--delimiter", "--max-args",
                  "--max-procs", "--max-chars", "--eof", "--max-lines"}
        i, replace = 0, False
        while i < len(args) and args[i].value.startswith("-") and args[i].value != "--":
            value = args[i].value
            replace = replace or value in ("-I", "-i", "--replace") or value.startswith(("-I", "--replace="))
            if value not in values:
                self._add_all(args[i].start, args[i].end, "a wrapper", *sinks.WRAPPER_OPTION)
            i += 2 if value in values else 1
        if i < len(args) and args[i].value == "--":
            i += 1
        tail = args[i:]
        if not tail:
            return False
        appended = self._judge(tail + [_APPENDED], command, wrapped=True, env=set())
        head = sinks.program_name(tail[0].value)
        if replace and head in sinks.SINKS and not self._values_within(tail[0].start, tail[0].end):
            self._add_origins(self._stdin_origins(command), f"xargs -I … {head}", *sinks.STDIN_SCRIPT)
        elif appended:
            self._add_origins(self._stdin_origins(command), f"xargs {head}", *sinks.STDIN_SCRIPT)
        return False

    def _find(self, args, command: Command) -> bool:
        """``find … -exec COMMAND … ;``: each command find runs is judged as a launcher's tail."""
        i = 0
        while i < len(args):
            if args[i].value in ("-exec", "-execdir", "-ok", "-okdir"):
                end = i + 1
                while end < len(args) and args[end].value not in (";", "+"):
                    end += 1
                self._judge(args[i + 1:end], command, wrapped=True, env=set())
                i = end
            i += 1
        return False


def _followed(word: Word) -> bool:
    """Whether a word names a shell, interpreter, runner or launcher (judged wherever a guessed launcher has it)."""
    if word is _APPENDED or word.value.startswith("-"):
        return False
    entry = sinks.SINKS.get(sinks.program_name(word.value))
    return (entry is not None and entry[0] in _FOLLOWED_KINDS) or basename(word.value) in launchers.LAUNCHERS


def _inside(spans, at: int) -> bool:
    return any(start <= at < end for start, end in spans)


def _file(path: str) -> str:
    return path[2:] if path.startswith("./") else path


def _unquoted(text: str) -> str:
    return text.strip("'\"")
