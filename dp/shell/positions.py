"""Bash's data positions: where a value, or a variable holding one, is only data (an allowlist).

A template value travels as data (``dp.shell.placement`` renders every
placeholder as a quoted reference); what bash then does with it depends on
where it stands. Bash hands a value on unparsed in three places only:

* a **quoted expansion in an argument** of a command whose name is a
  literal (``printf '%s\\n' "$V"``, ``"${V}"``, ``"x${V}y"``), where the
  builtin or program takes that argument as data (``DATA_BUILTINS``; a
  program's own reading is ``dp.shell.programflow``'s);
* a **redirection's file** (``> "$V"``, ``< {{f}}``);
* an **assignment's value** (``V={{v}}``, ``local V="$1"``, ``export V=…``),
  which bash never splits.

Everything else is refused, with the reason and the safe spelling: an
unquoted ``$V`` in an argument (split into words, globbed — ``sh $C`` may be
``sh -c``), a variable as the command word (``$V``, ``"$@"``,
``"${args[@]}"``), arithmetic and the places bash evaluates as arithmetic
(``$(( ))``, ``(( ))``, ``let``, ``[[ -eq ]]``, an indexed array's subscript,
``${s:n:m}``), a value used as a variable's name (``${!V}``, ``declare -n``,
``[ -v ]``, ``read``/``printf -v`` names), a value given to a variable that
parses it (``declare -i``/``-n``, or ``declare``/``local`` of an array, which
reads ``(…)`` as its words), and builtins that run their arguments
(``eval``, ``source``, ``trap``, ``compgen``, ``complete``, ``bind``,
``alias``, ``enable``, ``fc`` …: ``dp.shell.sinks``). A builtin listed nowhere
receives no value (``tests/test_shell_positions.py`` checks every builtin is
classified).
"""

from __future__ import annotations

import re

from dp.shell import sinks, sinktable
from dp.shell.codeflow import DECLARATIONS, Flow
from dp.shell.wrappers import is_assignment

# Builtins whose arguments bash passes on as data (their own options aside).
DATA_BUILTINS = frozenset({
    ":", "true", "false", "echo", "cd", "pushd", "popd", "dirs", "pwd", "exit", "return", "shift", "break",
    "continue", "ulimit", "umask", "kill", "jobs", "fg", "bg", "disown", "times", "suspend", "logout", "help",
    "history", "type", "caller", "shopt", "set", "unalias",
})

UNQUOTED = ("unquoted, bash splits it into words and expands globs in them, so one value can become "
            "several arguments or options (sh $C may be sh -c)", 'quote it: "$V"')
AS_COMMAND = ("it is the command bash runs (a variable, \"$@\" or an array as the command word)",
              "name the program in the recipe and give it the value as a quoted argument")
AS_NAME = ("bash reads the value as a variable's name (${!V}, a nameref), and a name's [subscript] is "
           "arithmetic, which runs $( )", 'use a fixed name and expand the value plainly: "$V"')
ATTRIBUTE = ("the variable parses what it is given (declare -i: arithmetic; -n: a variable's name; "
             "an array given to declare/local: its (…) words), which runs $( )",
             "assign it plainly (v={{x}}) and use \"$v\"; check a number first: "
             "case $v in ''|*[!0-9]*) exit 1;; esac")
BUILTIN = ("it is a bash builtin dp does not know to take this argument as data",
           "give the value to a program as a quoted argument")
# Declaration options whose variables parse their values.
_PARSING_ATTRIBUTES = frozenset("aAin")


def judge(flow: Flow) -> None:
    """Refuse every value that stands where bash does not take it as data."""
    _evaluated(flow)
    _indirections(flow)
    _attributes(flow)
    _split_lists(flow)
    for command in flow.commands:
        _program_variables(flow, command)
        if command.words and not command.words[0].masked:
            _command_words(flow, command)


def _evaluated(flow: Flow) -> None:
    """A reference in arithmetic, a subscript or an offset; a value in a subscript assignment; ``${V@P}``."""
    arithmetic = flow.arithmetic_spans()
    for span in list(flow.values):
        if span in flow.via and any(start <= span[0] and span[1] <= end for start, end in arithmetic):
            flow.add(span, "arithmetic", *sinktable.ARITHMETIC)
        if span in flow.via and flow.text.startswith("@P}", span[1] - 3):
            flow.add(span, "a prompt expansion", *sinktable.PROMPT)
    for start, end in arithmetic:
        if flow.text.startswith("]", end) and re.match(r"\]\+?=", flow.text[end:end + 3]):
            flow.add_all(start, end, "an array assignment", *sinktable.SUBSCRIPT)


def _split_lists(flow: Flow) -> None:
    """An unquoted reference in a ``for`` list or an array's ``(…)``: bash splits and globs it there."""
    lists = [(start, end, "for") for _, start, end in flow.loops]
    lists += [(start, end, "an array") for command in flow.commands for _, start, end in command.assigns
              if flow.text.startswith("(", start)]
    for start, end, where in lists:
        for span in flow.values_within(start, end):
            if span in flow.via and not flow.quoted(span):
                flow.add(span, where, *UNQUOTED)


def _indirections(flow: Flow) -> None:
    """``${!V}`` for a tainted V: the value names the variable read."""
    for match in re.finditer(r"\$\{!([A-Za-z_][A-Za-z0-9_]*)", flow.text):
        origins = flow.taint.get(match.group(1), frozenset())
        if origins and not _literal(flow, match.start()):
            flow.add_origins(origins, "a variable's name (${!…})", *AS_NAME)


def _attributes(flow: Flow) -> None:
    """Values given to variables that parse them: ``declare -i``/``-n`` names anywhere, a declaration
    with ``-a``/``-A``/``-i``/``-n`` and a value, a declaration's value for an array."""
    declared = _declared_attributes(flow)
    for command in flow.commands:
        if command.words and command.words[0].value in DECLARATIONS - {"export"}:
            _declaration(flow, command, declared)
    for name, start, end in flow.assignment_regions():
        label = _label(declared, name, {"i", "n"})
        if label:
            flow.add_all(start, end, label, *ATTRIBUTE)
    for name in declared:
        label = _label(declared, name, {"i", "n"})
        if label and name in flow.assigned:
            flow.add_origins(flow.assigned[name], label, *ATTRIBUTE)


def _label(declared: dict, name: str, letters: set | frozenset, extra: set | frozenset = frozenset()) -> str:
    """``local -i n``: how a variable was declared, when that gives it one of ``letters``."""
    head, given = declared.get(name, ("declare", set()))
    parsing = (given | extra) & letters
    return f"{head} -{''.join(sorted(parsing))} {name}" if parsing else ""


def _declaration(flow: Flow, command, declared: dict) -> None:
    head, args = command.words[0].value, command.words[1:]
    letters = set("".join(word.value[1:] for word in args if word.value.startswith("-")))
    for word in args:
        if is_assignment(word.value):
            name = word.value.split("=", 1)[0].rstrip("+").split("[", 1)[0]
            label = _label({name: (head, declared.get(name, ("", set()))[1])}, name, _PARSING_ATTRIBUTES, letters)
            if label:
                flow.add_all(word.start, word.end, label, *ATTRIBUTE)


def _declared_attributes(flow: Flow) -> dict[str, tuple[str, set]]:
    """variable → (the builtin that declared it, the attribute letters any declaration gives it;
    ``a`` too for ``V=(…)``)."""
    declared: dict[str, tuple[str, set]] = {}
    for command in flow.commands:
        for name, start, _ in command.assigns:
            if flow.text.startswith("(", start):
                declared.setdefault(name, ("declare", set()))[1].add("a")
        if not command.words or command.words[0].value not in DECLARATIONS - {"export"}:
            continue
        head, args = command.words[0].value, command.words[1:]
        letters = set("".join(word.value[1:] for word in args if word.value.startswith("-")))
        for word in args:
            if not word.value.startswith(("-", "+")):
                name = word.value.split("=", 1)[0].rstrip("+").split("[", 1)[0]
                entry = declared.setdefault(name, (head, set()))
                declared[name] = (head if letters else entry[0], entry[1] | letters)
    return declared


def _program_variables(flow: Flow, command) -> None:
    """``NAME=value`` where NAME is a program variable (``PAGER``, ``GIT_SSH_COMMAND``), bare or declared."""
    for name, start, end in command.assigns:
        if sinks.is_program_variable(name):
            flow.add_all(start, end, f"{name}=", *sinktable.PROGRAM_VARIABLE)
    if command.words and command.words[0].value in DECLARATIONS:
        for word in command.words[1:]:
            assigned_word(flow, word)


def assigned_word(flow: Flow, word) -> None:
    """A ``NAME=value`` word (``export``, ``env``, ``sudo``): code when NAME names a program."""
    if is_assignment(word.value) and sinks.is_program_variable(word.value.split("=", 1)[0].rstrip("+")):
        flow.add_all(word.start, word.end, f"{word.value.split('=', 1)[0]}=", *sinktable.PROGRAM_VARIABLE)


def _command_words(flow: Flow, command) -> None:
    """A reference as the command word; an unquoted reference in an argument; a builtin not known
    to take its arguments as data."""
    head, args = command.words[0], command.words[1:]
    for span in flow.values_within(head.start, head.end):
        if span in flow.via:
            flow.add(span, "the command word", *AS_COMMAND)
    declaration = head.value in DECLARATIONS
    for word in args:
        for span in flow.values_within(word.start, word.end):
            if span in flow.via and not flow.quoted(span) and not (declaration and _in_value(word, span)):
                flow.add(span, head.value if _literal_word(head) else "an argument", *UNQUOTED)
    if head.value in _UNKNOWN_BUILTINS and _literal_word(head):
        for word in args:
            flow.add_all(word.start, word.end, head.value, *BUILTIN)


def _in_value(word, span) -> bool:
    """Whether ``span`` is in the value part of a ``NAME=value`` word (never split in a declaration)."""
    equals = word.raw.find("=")
    return is_assignment(word.value) and 0 <= equals and word.start + equals < span[0]


def _literal_word(word) -> bool:
    return not any(char in word.raw for char in "$`")


def _literal(flow: Flow, at: int) -> bool:
    return any(start <= at < end for start, end in flow.spans_of("single-quoted", "ansi-c-quoted",
                                                                   "quoted-heredoc"))


def unclassified_builtins() -> set[str]:
    """The builtins neither a data position, a sink nor a launcher (each would refuse every value)."""
    from dp.shell.launchers import LAUNCHERS
    from dp.shell.programs import BUILTINS

    return set(BUILTINS) - DATA_BUILTINS - set(sinks.SINKS) - set(LAUNCHERS)


_UNKNOWN_BUILTINS = frozenset(unclassified_builtins())
