"""Where a template value flows in a Bash script: the walk, the taint, and the verdicts it gathers.

A value is data only where dp can show it is. This module reads the script
once (bashlex, through ``dp.shell.lexer``'s pre-pass) into simple commands,
follows each value from its placeholder through the variables it taints, and
hands every place a value reaches to the two judges:

* **inside the script** (``dp.shell.positions``): bash's data positions, an
  allowlist — a value, or a variable holding one, is data only as a quoted
  argument of a command named by a literal, a redirection's file, or an
  assignment's value; anywhere else (unquoted, the command word, arithmetic,
  a variable's name, ``declare -i``/``-n``/``-a``, ``"$@"`` run as a command,
  ``compgen``/``bind``/``eval`` …) it is refused;
* **between programs** (``dp.shell.programflow``): the program a command runs
  (through launchers, ``xargs``, ``find -exec``, a shell's own ``-c`` script)
  and which of its arguments it reads as code (``dp.shell.sinks``), or as an
  option (``dp.shell.options``: checked again when the value is known).

Taint follows assignment (``V={{v}}``, ``export``, ``declare``/``local`` with
any attribute, arrays), ``read``/``mapfile`` from a tainted input, ``for``,
``printf -v``, ``set --`` and a function's arguments; a value written to a file
(``> f``, ``tee f``, any program given the value and naming ``f``) taints the
file. Everything is flow-insensitive and errs toward refusal: a variable
tainted anywhere is tainted everywhere.
"""

from __future__ import annotations

import re

from dp.shell.flowtree import Command, Tree
from dp.shell.made import COPIERS, copied, file_key, may_write
from dp.shell.names import known_name
from dp.shell.segment import Word
from dp.shell.sinks import Sink
from dp.shell.wrappers import is_assignment

MAX_DEPTH = 3  # shells inside shells' -c scripts judged with the outer taint
DECLARATIONS = frozenset({"export", "declare", "typeset", "local", "readonly"})
# read and mapfile/readarray → their options that take a separate value (mapfile's -t takes none: it
# strips the newline, and the word after it is the array).
_READERS = {"read": frozenset({"-d", "-p", "-t", "-n", "-N", "-u", "-i"}),
            **dict.fromkeys(("mapfile", "readarray"), frozenset({"-d", "-n", "-O", "-s", "-u", "-C", "-c"}))}
OUTPUT = (">", ">>", ">|", "&>", "&>>")
TEST_ARITHMETIC = re.compile(r"(?<!\S)-(eq|ne|lt|le|gt|ge|v|R)(?!\S)")
# A declaration's option cluster that makes its names references to other variables (`-n`, `-gn`).
_NAMEREF = re.compile(r"-[a-zA-Z]*n[a-zA-Z]*")
POSITIONAL = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*")
ZERO = "0"  # a -c script's $0: the word after the script (sh -c '"$0"' {{v}})
_LITERAL_KINDS = ("single-quoted", "ansi-c-quoted", "quoted-heredoc")


APPENDED = Word(-1, -1, "appended", "appended")  # what xargs adds to the command it runs




class Verdict:
    """What the walk found: the placeholders refused (``Sink``s), and those a program may read as
    an option (origin span → (program, kind), checked again when the value is known)."""

    __slots__ = ("sinks", "options")

    def __init__(self, sinks, options):
        self.sinks, self.options = sinks, options


def judge(masked: str, spans, heredocs, regions, judges) -> Verdict:
    """The verdict on the placeholders (``spans`` in ``masked``, each overwritten by plain letters).

    ``heredocs`` and ``regions`` are the scanner's (``dp.shell.lexer.layout``);
    ``judges`` are called on the walked flow in turn (``dp.shell.placement``
    passes the between-programs judge, then bash's data positions). Raises
    ``Unparseable`` when the parser cannot read the script: unjudged is never
    accepted.
    """
    flow = Flow(masked, regions, heredocs, {span: frozenset([span]) for span in spans}, {}, 0, judges)
    flow.run()
    return Verdict(sorted(flow.found.values(), key=lambda sink: sink.start), dict(flow.options))


class Flow:
    """One script's walk, taint and verdicts (a shell's ``-c`` script gets its own, one level deeper)."""

    def __init__(self, text, regions, heredocs, placeholders, taint, depth, judges):
        self.text, self.regions, self.heredocs, self.depth, self.judges = text, regions, heredocs, depth, judges
        self.placeholders = placeholders  # span → origins (the outer placeholders it stands for)
        self.taint: dict[str, frozenset] = dict(taint)  # variable → origins
        self.assigned: dict[str, frozenset] = {}  # variable → origins given to it directly (not by a nameref)
        self.split: set[str] = set()  # variables that may hold a piece of a value (read, mapfile, for)
        self.inherited = frozenset(taint)  # names tainted from outside (a -c script's environment)
        self.commands: list[Command] = []
        self.loops: list[tuple[str, int, int]] = []
        self.functions: set[str] = set()
        self.values: dict[tuple[int, int], frozenset] = {}
        self.via: dict[tuple[int, int], str] = {}
        self.written: dict[str, frozenset] = {}
        self.made: dict[str, str | None] = {}  # a program the step names itself (ln -s /bin/sh x) → it, or None
        self.outer_stdin: frozenset = frozenset()  # a -c script's: what its shell reads, every command may too
        self.found: dict[tuple[int, int], Sink] = {}
        self.options: dict[tuple[int, int], tuple[str, str]] = {}

    # --- the walk ---------------------------------------------------------------------------------

    def run(self) -> None:
        self._parse()
        self.commands.sort(key=lambda command: command.start)
        for _ in range(8):  # a value written to a file, read back into a variable, written again …
            before = (dict(self.taint), dict(self.written))
            self._spread_taint()
            self._note_written()
            if (self.taint, self.written) == before:
                break
        self._note_made()
        for judge_flow in self.judges:
            judge_flow(self)

    def _parse(self) -> None:
        tree = Tree(self.text, self.heredocs)
        tree.read()
        self.commands, self.loops, self.functions = tree.commands, tree.loops, tree.functions
        self.split |= tree.split

    def inner(self, script: str, inherited: dict, stdin: frozenset = frozenset()) -> list[Sink]:
        """The sinks of a shell's own script (``sh -c '…'``, ``eval '…'``) run with ``inherited`` taint, its
        commands reading the values of the shell's own input (``stdin``: ``sh -c 'read l; eval "$l"' <<< …``)."""
        from dp.shell.lexer import layout

        regions, heredocs = layout(script)
        flow = Flow(script, regions, heredocs, {}, inherited, self.depth + 1, self.judges)
        flow.outer_stdin = stdin
        flow.run()
        return list(flow.found.values())

    # --- values and taint ---------------------------------------------------------------------------

    def _spread_taint(self) -> None:
        """Taint variables from the values assigned to them, to a fixed point; then every tainted ``$V``
        (and bare name in arithmetic) is a value too, standing for the placeholders it came from."""
        self.values = dict(self.placeholders)
        heads = [(command.words[0].start, command.words[0].end) for command in self.commands if command.words]
        for _ in range(8):
            before = dict(self.taint)
            # What a program prints is not its command word: `X=$({{cmd}})` holds the program's output.
            named = frozenset().union(*[self.values[span] for span in self.values if _within(heads, span)])
            for name, start, end in self.assignment_regions():
                self._taint(name, self.origins_in(start, end) - (named - self._origins_outside(start, end, heads))
                            | self.files_read_in(start, end))
            for command in self.commands:
                self._taint_from(command)
            self._find_references()
            if self.taint == before:
                break

    def _taint(self, name: str, origins: frozenset, direct: bool = True) -> None:
        if origins and direct:
            self.assigned[name] = self.assigned.get(name, frozenset()) | origins
        if origins and not origins <= self.taint.get(name, frozenset()):
            self.taint[name] = self.taint.get(name, frozenset()) | origins

    def assignment_regions(self):
        """(name, value start, value end) of every assignment: bare, a declaration's word, ``env``'s, ``for``."""
        for command in self.commands:
            yield from command.assigns
            if command.words and command.words[0].value in DECLARATIONS | {"env"}:
                for word in command.words[1:]:
                    if is_assignment(word.value):
                        equals = word.raw.index("=") if "=" in word.raw else len(word.raw)
                        yield word.value.split("=", 1)[0].rstrip("+").split("[", 1)[0], word.start + equals + 1, \
                            word.end
        yield from self.loops

    def _taint_from(self, command: Command) -> None:
        """``read``/``mapfile`` from a tainted input, ``printf -v``, namerefs, ``set --`` and function arguments."""
        if not command.words:
            return
        name, args = command.words[0].value, command.words[1:]
        if name in _READERS:
            self._taint_read(args, self.stdin_origins(command), _READERS[name])
        elif name == "printf" and len(args) > 1 and args[0].value == "-v":
            self._taint(args[1].value, self.origins_in(args[1].end, command.end))
        elif name in DECLARATIONS and any(_NAMEREF.fullmatch(word.value) for word in args):
            # `declare -n r=V`: r is another name for V, whichever V it names later; taint it with all.
            for word in args:
                if not word.value.startswith(("-", "+")):
                    self._taint(word.value.split("=", 1)[0], self.everything(), direct=False)
        elif (name == "set" and args) or name in self.functions:
            origins = self.origins_in(args[0].start, command.end) if args else frozenset()
            for positional in POSITIONAL:
                self._taint(positional, origins, direct=False)

    def _taint_read(self, args, origins: frozenset, value_options: frozenset) -> None:
        skip = False
        for word in args:
            if skip:
                skip = False
            elif word.value in value_options:
                skip = True
            elif not word.value.startswith("-"):
                self._taint(word.value, origins)
                self.split.add(word.value)

    def _find_references(self) -> None:
        """Each ``$V``/``${V…}`` of a tainted V outside single quotes, and V's bare name in arithmetic."""
        literal = self.spans_of(*_LITERAL_KINDS)
        if self.taint:  # `${!x}` reads the variable x names, which may be any tainted one
            for match in re.finditer(r"\$\{![A-Za-z_][A-Za-z0-9_]*\}", self.text):
                if not _inside(literal, match.start()):
                    self._reference(match.span(), self.everything(), match.group())
        for name, origins in self.taint.items():
            escaped = re.escape(name)
            pattern = rf"\$(?:{escaped}(?![A-Za-z0-9_])|\{{[#!]?{escaped}(?![A-Za-z0-9_])[^}}]*\}})"
            for match in re.finditer(pattern, self.text):
                if not _inside(literal, match.start()):
                    self._reference(match.span(), origins, f"${name}")
            if name not in POSITIONAL and name != ZERO:
                self._bare_names(name, origins)

    def _bare_names(self, name: str, origins: frozenset) -> None:
        """A tainted variable's bare name where bash evaluates names: arithmetic, a subscript, an offset."""
        for start, end in self.arithmetic_spans():
            for match in re.finditer(rf"(?<![$A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", self.text[start:end]):
                self._reference((start + match.start(), start + match.end()), origins, name)

    def arithmetic_spans(self) -> list[tuple[int, int]]:
        """Where bash evaluates arithmetic: ``$(( ))``, ``(( ))``, ``[[ -eq/-v ]]``, and inside ``${…}``
        an array subscript or a substring's offset and length (``${a[n]}``, ``${s:n:m}``)."""
        spans = [(start, end) for start, end, kind in self.regions if kind == "arithmetic" or (
            kind == "test" and TEST_ARITHMETIC.search(self.text, start, end))]
        for start, end in self.spans_of("parameter"):
            spans += _evaluated_parts(self.text, start, end)
        for match in _SUBSCRIPT_ASSIGNMENT.finditer(self.text):
            spans.append(match.span(1))
        return spans

    def spans_of(self, *kinds: str) -> list[tuple[int, int]]:
        return [(start, end) for start, end, kind in self.regions if kind in kinds]

    def everything(self) -> frozenset:
        """Every placeholder a tainted variable carries: what an indirect reference may reach."""
        return frozenset().union(*self.taint.values()) if self.taint else frozenset()

    def _reference(self, span, origins, shown: str) -> None:
        if span in self.placeholders:
            return
        self.values[span] = self.values.get(span, frozenset()) | origins
        self.via[span] = shown

    def origins_in(self, start: int, end: int) -> frozenset:
        origins: frozenset = frozenset()
        for span, from_values in self.values.items():
            if start <= span[0] and span[1] <= end:
                origins |= from_values
        for body_start, body_end in self._bodies_in(start, end):
            origins |= self.origins_in(body_start, body_end)
        return origins

    def _origins_outside(self, start: int, end: int, heads) -> frozenset:
        """The origins of values in ``[start, end)`` that are not a command word there."""
        origins: frozenset = frozenset()
        for span, from_values in self.values.items():
            if start <= span[0] and span[1] <= end and not _within(heads, span):
                origins |= from_values
        return origins

    def _bodies_in(self, start: int, end: int):
        return [(body_start, body_end) for operator, *_, body_start, body_end, _line_end in self.heredocs
                if start <= operator < end and not (start <= body_start and body_end <= end)]

    def stdin_origins(self, command: Command) -> frozenset:
        origins: frozenset = self.outer_stdin
        for source in command.stdin:
            if source[0] == "file":
                origins |= self.written.get(file_key(source[1]), frozenset())
            else:
                origins |= self.origins_in(*source) | self.files_read_in(*source)
        return origins

    def files_read_in(self, start: int, end: int) -> frozenset:
        """The values written to files that the commands within ``[start, end)`` read back: a file named
        among their words or given as their input (``cat f | sh``, ``sh -c "$(cat f)"``, ``x=$(< f)``)."""
        origins: frozenset = frozenset()
        for command in self.commands if self.written else ():
            if start <= command.start and command.end <= end:
                for word in command.words[1:]:
                    origins |= self.written.get(file_key(word.value), frozenset())
                for source in command.stdin:
                    if source[0] == "file":
                        origins |= self.written.get(file_key(source[1]), frozenset())
        return origins

    def values_within(self, start: int, end: int) -> list[tuple[int, int]]:
        found = [span for span in self.values if start <= span[0] and span[1] <= end]
        for body_start, body_end in self._bodies_in(start, end):
            found += self.values_within(body_start, body_end)
        return found

    def _note_written(self) -> None:
        """Files a value may have been written to: a redirection's file (``> f``), and every file a
        command that receives a value names (``tee f``, ``cp /dev/stdin f <<< …``, ``dd of=f``), or reads one
        written before (``mv tmp.json package.json``): running them runs the value."""
        for command in self.commands:
            origins = self.origins_in(command.start, command.end) | self.stdin_origins(command) | \
                self.files_read_in(command.start, command.end)
            if not origins:
                continue
            named = [target.value for operator, _, _, target in command.redirects
                     if operator in OUTPUT and target is not None]
            for operator, _, _, target in command.redirects:
                if operator == ">&" and target is not None:
                    named += self._descriptor_written(target, origins)
            if command.words and may_write(command.words[0].value):
                named += [word.value.rsplit("=", 1)[-1] for word in command.words[1:]
                          if not word.value.startswith("-") and not self.values_within(word.start, word.end)]
            for path in named:
                self.written[file_key(path)] = self.written.get(file_key(path), frozenset()) | origins
                self._startup_file(file_key(path), origins)

    def _note_made(self) -> None:
        """Programs the step makes under a name of its own: ``ln -s /bin/sh x``, ``cp``, ``install``, ``mv``
        (``./x`` is then sh: a source that is not a literal makes it unknown), and ``alias`` names (what an
        alias runs is not followed: unknown)."""
        for command in self.commands:
            head = known_name(command.words[0].value) if command.words else ""
            if head == "alias":
                self.made.update({word.value.split("=", 1)[0]: None for word in command.words[1:] if "=" in word.value})
            elif head in COPIERS:
                sources, target = copied(command.words[1:], COPIERS[head])
                for source in sources:
                    literal = not (set("$`*?[") & set(source.raw)) and not self.values_within(source.start, source.end)
                    program = known_name(source.value) if literal else None
                    for made in (target, f"{target.rstrip('/')}/{source.value.rsplit('/', 1)[-1]}"):
                        self.made[file_key(made)] = program

    def _startup_file(self, path: str, origins: frozenset) -> None:
        """A value written to a file that later shells or programs run (``~/.bashrc``, ``.git/hooks/…``)."""
        from dp.shell import sinktable

        if sinktable.path_is(path, sinktable.STARTUP_FILES):
            self.add_origins(origins, path, *sinktable.STARTUP_FILE)

    def _descriptor_written(self, target, origins: frozenset) -> list[str]:
        """``>&3``: keyed as ``/dev/fd/3``, where a ``3> >(…)`` reads it (``dp.shell.flowtree``). A
        descriptor that is not a literal number (``>&"${COPROC[1]}"``, ``>&$fd``) may be any program's
        input: the values written to it are refused."""
        if target.value.isdigit():
            return [f"/dev/fd/{target.value}"]
        if target.value != "-":
            from dp.shell import sinktable

            self.add_origins(origins, sinktable.DESCRIPTOR_SINK, *sinktable.DESCRIPTOR)
        return []

    # --- verdicts -----------------------------------------------------------------------------------

    def add(self, span, program: str, reason: str, alternative: str, cause=None) -> None:
        """A sink for every placeholder the value at ``span`` came from."""
        shown = f"{program} (through {self.via[span]})" if span in self.via else program
        for origin in self.values.get(span, frozenset()):
            if origin not in self.found:
                sink = Sink(origin, shown, reason, alternative)
                sink.cause = cause
                self.found[origin] = sink

    def add_all(self, start: int, end: int, program: str, reason: str, alternative: str, cause=None) -> None:
        for span in self.values_within(start, end):
            self.add(span, program, reason, alternative, cause)

    def add_origins(self, origins, program: str, reason: str, alternative: str) -> None:
        for origin in origins:
            if origin not in self.found:
                self.found[origin] = Sink(origin, program, reason, alternative)

    def option(self, origins, program: str, kind: str) -> None:
        """Placeholders whose value a program may read as an option (checked when the value is known);
        of two places, the stricter check."""
        from dp.shell.optioncheck import STRICTER

        for origin in origins:
            known = self.options.get(origin)
            if known is None or STRICTER.get(kind, -1) > STRICTER.get(known[1], -1):
                self.options[origin] = (program, kind)

    def quoted(self, span) -> bool:
        """Whether the value at ``span`` is inside double quotes (or a heredoc body), not in a ``$( )``
        nested deeper: bash expands it there as one word, never split or globbed."""
        enclosing = sorted(((start, end, kind) for start, end, kind in self.regions
                            if start <= span[0] and span[1] <= end and (start, end) != tuple(span)
                            and kind != "parameter"), key=lambda region: region[1] - region[0])
        return bool(enclosing) and enclosing[0][2] in ("double-quoted", "heredoc")


# `a[SUBSCRIPT]=` and `a[SUBSCRIPT]+=`: the subscript of an indexed array is arithmetic.
_SUBSCRIPT_ASSIGNMENT = re.compile(r"(?:^|(?<=[\s;&|(]))[A-Za-z_][A-Za-z0-9_]*\[([^\]\n]*)\]\+?=")
_PARAMETER_NAME = re.compile(r"\$\{[#!]?[A-Za-z_][A-Za-z0-9_]*|\$\{[#!]?[0-9@*]")


def _evaluated_parts(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Inside ``${…}`` at ``[start, end)``: the subscript (``[n]``) and a substring's ``:offset:length``."""
    name = _PARAMETER_NAME.match(text, start)
    if not name:
        return []
    at, parts = name.end(), []
    if text.startswith("[", at):
        close = text.find("]", at, end)
        if close < 0:
            return []
        parts.append((at + 1, close))
        at = close + 1
    if text.startswith(":", at) and not text.startswith((":-", ":=", ":?", ":+"), at):
        parts.append((at + 1, end - 1))
    return parts


def _within(spans, span) -> bool:
    return any(start <= span[0] and span[1] <= end for start, end in spans)


def _inside(spans, at: int) -> bool:
    return any(start <= at < end for start, end in spans)
