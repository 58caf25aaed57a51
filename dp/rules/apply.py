"""Apply alias rules to one tool call's input.

Rules with a ``command`` act on the simple commands of a shell string (found
by ``dp.shell.segment``) and edit it by character span, right to left, so
everything they do not correct stays byte-identical. Rules without one act on
their parameter's whole string value. Kinds run in ``APPLY_ORDER`` (recipes,
commands, flags, literals, regexes), each kind in the order rules were added.

This module is the pass: which rules run on which command, in what order,
and the notes saying what fired. What one rule changes lives beside it: a
flag, literal or regex rule's edits in ``dp.rules.edits``, a command rule's
translation in ``dp.rules.translate``, where a recipe's script goes in
``dp.rules.recipe_splice`` (the last two imported only when such a rule
names a command of the input).
"""

from __future__ import annotations

import re

from dp.rules.edits import apply_edits, flag_edits, go_replacement, literal_edits, regex_edits
from dp.rules.model import APPLY_ORDER, BASH_PARAM, COMMAND, FLAG, LITERAL, RECIPE, REGEX, Rule, dashed


def _engine(table):
    """The translation engine for ``table``'s style: ``translate(command, table, source_text)``.

    ``source_text(start, end)`` returns a span of the original string with the
    edits of the commands nested in it applied (``$( … )`` in an operand, the
    command of ``find -exec``), so one translation carries them along.
    """
    if table.style == "find":
        from dp.rules.findexpr import translate_find

        return translate_find
    if table.style == "find-backwards":
        from dp.rules.findexpr import translate_fd

        return translate_fd
    from dp.rules.translate import translate

    return translate


class Result:
    """The rewritten tool input, one note per rule that changed it, and why rules held back.

    ``remarks`` name what stopped a translation (``grep -P …``): the hook shows
    them only in advise or verbose mode, since the command then runs as typed.
    ``fired`` holds the rules that changed it and ``paved`` whether project paving did:
    what the hook notes as dp's actions (issue 51), so each can be judged by what happened next.
    """

    __slots__ = ("updated_input", "notes", "remarks", "fired", "paved")

    def __init__(self, updated_input: dict, notes: list[str], remarks: list[str] | None = None, fired=(),
                 paved: bool = False):
        self.updated_input = updated_input
        self.notes = notes
        self.remarks = remarks or []
        self.fired = list(fired)
        self.paved = paved


def rewrite(tool_input: dict, rules: list[Rule], *, cwd: str = "", refetch=None, pave=None,
            programs=None) -> Result | None:
    """Apply ``rules`` to ``tool_input``; None when nothing changes and nothing is to be said.

    ``refetch(text)`` (optional) returns the rules for the command words of
    ``text``: the rules for a command a rule produced (``rg`` after
    ``grep → rg``) that the original string did not name.
    ``pave(value, commands)`` (optional, dp.paving) returns project paving's
    edits and notes for the shell string, after the user's rules, from the
    same parse; it leaves alone the commands the user's rules are about.
    ``programs`` (optional, ``dp.shell.programs.Programs``) says which programs are there: a
    command rule or recipe that would run one that is not leaves the command as typed, with a
    remark saying why (asked only when such a rule is about to act).
    """
    params = [BASH_PARAM] if pave is not None else []
    for rule in rules:
        if rule.match_kind and rule.param not in params:
            params.append(rule.param)
    updated = dict(tool_input)
    pass_ = _Pass(rules, cwd, refetch, pave, programs)
    for param in params:
        value = tool_input.get(param)
        if not isinstance(value, str):
            continue
        new_value = pass_.value(value, param)
        if new_value != value:
            updated[param] = new_value
    notes = pass_.notes()
    if updated == tool_input and not notes and not pass_.remarks:
        return None
    return Result(updated, notes, pass_.remarks, pass_.fired_rules.values(), bool(pass_.paving_notes))


class _Pass:
    """One application of the rules: command rules edit one parse, then parameter rules run."""

    def __init__(self, rules, cwd: str, refetch, pave=None, programs=None):
        self.rules = rules
        self.cwd = cwd
        self.refetch = refetch
        self.pave = pave
        self.programs = programs
        self.fired: dict = {}  # rule key → (kind rank, rule rank, note)
        self.fired_rules: dict = {}  # rule key → the rule, in the order they fired
        self.backwards: dict = {"made": [], "refused": False}  # a table read backwards, in the string at hand
        self.paving_notes: list[str] = []
        self.remarks: list[str] = []
        self._by_name: dict = {}
        self._parsed: dict = {}

    def value(self, value: str, param: str) -> str:
        self.original = value
        if any(rule.command and rule.param == param for rule in self.rules):
            value = self.shell(value, param, APPLY_ORDER)
        if self.pave is not None and param == BASH_PARAM:
            edits, notes = self.pave(value, self.parse(value))
            value = apply_edits(value, edits)
            self.paving_notes.extend(notes)
        for kind in (LITERAL, REGEX):
            for rule in self.rules:
                if rule.match_kind == kind and rule.param == param and not rule.command:
                    value = self._whole_value(rule, value)
        return value

    def notes(self) -> list[str]:
        fired = [note for _, _, note in sorted(self.fired.values(), key=lambda item: item[:2])]
        return fired + self.paving_notes

    def parse(self, text: str) -> list:
        """The simple commands of ``text``, parsed once per distinct string."""
        if text not in self._parsed:
            from dp.shell.segment import simple_commands

            self._parsed[text] = simple_commands(text) or []
        return self._parsed[text]

    def missing(self, command, programs) -> bool:
        """Whether one of ``programs`` a rule would run instead of ``command`` is not there; if so,
        the remark saying so (the command then runs as typed)."""
        if self.programs is None:
            return False
        why = [reason for reason in map(self.programs.why_missing, programs) if reason]
        if why:
            self.remarks.append(f"{command.name} left as typed: {'; '.join(why)}")
        return bool(why)

    def present(self, program: str) -> bool:
        """Whether ``program`` is there (on PATH), with the remark saying so; False when the caller gave
        no ``programs`` to ask (a translation asked for on its own: ``dp.learn.tables``)."""
        if self.programs is None or not self.programs.where(program):
            return False
        self.remarks.append(f"{program} left as typed: it is on PATH (a table read backwards stands in for a "
                            "missing program only)")
        return True

    def _fire(self, rule: Rule, extra=()) -> None:
        if rule.key not in self.fired:
            self.fired_rules[rule.key] = rule
            rank = (APPLY_ORDER.index(rule.match_kind), self._rank(rule))
            self.fired[rule.key] = (*rank, _describe(rule, extra))

    def _rank(self, rule: Rule) -> int:
        for rank, known in enumerate(self.rules):
            if known.key == rule.key:
                return rank
        return len(self.rules)

    def _whole_value(self, rule: Rule, value: str) -> str:
        try:
            if rule.match_kind == LITERAL and rule.from_name:
                new_value = value.replace(rule.from_name, rule.to_name)
            else:
                new_value = re.sub(rule.from_name, go_replacement(rule.to_name), value)
        except re.error:
            return value  # a broken pattern skips its rule, never the call
        if new_value != value:
            self._fire(rule)
        return new_value

    def rules_for(self, name: str, param: str, kind: str) -> list:
        """Rules of ``kind`` for command ``name`` (asking the store for names the input lacked)."""
        if name not in self._by_name:
            found = [rule for rule in self.rules if rule.command == name]
            if not found and self.refetch is not None:
                found = [rule for rule in self.refetch(name) if rule.command == name]
            self._by_name[name] = found
        return [rule for rule in self._by_name[name] if rule.match_kind == kind and rule.param == param]

    def shell(self, text: str, param: str, kinds, only_first: bool = False) -> str:
        """``text`` with every command's edits, collected from one parse and applied right to left."""
        commands = self.parse(text)
        if only_first:
            commands = commands[:1]
        edits: list = []
        self.backwards = {"made": [], "refused": False}
        # Innermost (latest-starting) first: a translation takes its nested commands' edits along.
        for command in sorted(commands, key=lambda command: -command.start):
            _CommandEdits(self, text, param, kinds, edits).collect(command)
        if self.backwards["refused"] and self.backwards["made"]:
            self._undo_backwards(edits)
        return apply_edits(text, edits)

    def _undo_backwards(self, edits: list) -> None:
        """A table read backwards stands in for a missing program: where one of its calls in the string
        cannot be translated, the string fails all the same, so none is (``rg --files | rg x``)."""
        for edit, rule in self.backwards["made"]:
            if edit in edits:
                edits.remove(edit)
            self.fired.pop(rule.key, None)
            self.remarks.append(f"{rule.command} left as typed: another {rule.command} call of the command has no "
                                f"{rule.to_name} equivalent")


class _CommandEdits:
    """The edits the rules make to one simple command."""

    def __init__(self, pass_: _Pass, text: str, param: str, kinds, edits: list):
        self.pass_ = pass_
        self.text = text
        self.param = param
        self.kinds = kinds
        self.edits = edits

    def collect(self, command) -> None:
        if RECIPE in self.kinds and self._recipe(command):
            return
        name = command.program
        if COMMAND in self.kinds:
            name = self._command(command)
            if name is None:
                return
        for kind in (FLAG, LITERAL, REGEX):
            if kind in self.kinds:
                for rule in self.pass_.rules_for(name, self.param, kind):
                    self._args_rule(rule, command)

    def _recipe(self, command) -> bool:
        pass_ = self.pass_
        recipes = pass_.rules_for(command.program, self.param, RECIPE)
        if not recipes:
            return False  # most commands: not even recipe_splice (and shlex) imported
        from dp.rules.recipe_splice import recipe_edit

        for rule in recipes:
            notes: list = []
            edit = recipe_edit(command, rule, self.text, pass_.original, pass_.cwd, notes)
            if edit is not None:
                start, end, script = edit
                if pass_.missing(command, _script_programs(pass_, script)):
                    continue
                script = pass_.shell(script, self.param, APPLY_ORDER[APPLY_ORDER.index(RECIPE) + 1 :])
                self.edits.append((start, end, script))
                pass_._fire(rule, notes)
                return True
        return False

    def _command(self, command) -> str | None:
        """Apply the first command rule; the name later kinds match, or None when done."""
        for rule in self.pass_.rules_for(command.program, self.param, COMMAND):
            return self._translate(rule, command)
        return command.program

    def _translate(self, rule: Rule, command) -> str | None:
        from dp.rules.tables.pairs import TableError, table_for
        from dp.rules.translate import Refusal

        if self.pass_.missing(command, [rule.to_name.split(" ", 1)[0]]):
            return command.program
        try:
            table = table_for(command.name, rule.to_name)
        except (TableError, OSError, ValueError) as error:
            self.pass_.remarks.append(f"{command.name} → {rule.to_name}: table unreadable ({error})")
            return command.program
        if table is not None and table.backwards and self.pass_.present(command.name):
            return command.program  # rg → grep is ripgrep's stand-in where it is missing, never a preference
        if table is None:
            self.edits.append((command.word.start, command.word.end, rule.to_name))
            self.pass_._fire(rule)
            return rule.to_name.split(" ", 1)[0]
        consumed: list = []
        try:
            replacement, notes = _engine(table)(command, table, self._composer(consumed))
        except Refusal as refusal:
            self.pass_.remarks.append(f"{command.name} left as typed, not translated to {rule.to_name}: {refusal}")
            self.pass_.backwards["refused"] |= table.backwards
            return command.program
        for edit in consumed:
            self.edits.remove(edit)
        if self._target_has_rules(replacement):
            replacement = self.pass_.shell(replacement, self.param, (FLAG, LITERAL, REGEX), only_first=True)
        start, end = command.word.start, (command.args[-1].end if command.args else command.word.end)
        inside = [self.text[s:e] for s, e in command.redirects if start <= s < end]
        self.edits.append((start, end, " ".join([replacement, *inside])))
        if table.backwards:
            self.pass_.backwards["made"].append((self.edits[-1], rule))
        self.pass_._fire(rule, notes)
        return None

    def _target_has_rules(self, replacement: str) -> bool:
        """Whether argument rules exist for the command a translation produced (``rg`` rules
        after ``grep → rg``); when its name is a plain word and none do, the translated
        command is not parsed a second time."""
        first = replacement.split(None, 1)[0] if replacement.strip() else ""
        if not first or any(char in first for char in "'\"\\$`="):
            return True
        return any(self.pass_.rules_for(first, self.param, kind) for kind in (FLAG, LITERAL, REGEX))

    def _composer(self, consumed: list):
        """``text(start, end)`` with the edits already made inside that span applied."""

        def source_text(start: int, end: int) -> str:
            inner = [edit for edit in self.edits if start <= edit[0] and edit[1] <= end]
            consumed.extend(inner)
            shifted = [(s - start, e - start, replacement) for s, e, replacement in inner]
            return apply_edits(self.text[start:end], shifted)

        return source_text

    def _args_rule(self, rule: Rule, command) -> None:
        kind = rule.match_kind
        try:
            if kind == FLAG:
                found = flag_edits(command, rule.from_name, rule.to_name)
            elif kind == LITERAL:
                found = literal_edits(command, rule.from_name, rule.to_name) if rule.from_name else []
            else:
                found = regex_edits(command, self.text, rule.from_name, rule.to_name)
        except re.error:
            return
        if found:
            self.edits.extend(found)
            self.pass_._fire(rule)


def _script_programs(pass_: _Pass, script: str) -> list:
    """The programs a recipe's rendered script runs (none asked for when nothing checks them)."""
    if pass_.programs is None:
        return []
    from dp.shell.programs import script_programs

    return script_programs(script, pass_.parse(script))


def _describe(rule: Rule, notes=()) -> str:
    """The note the hook shows for a rule that fired, with what it dropped or changed."""
    kind, text = rule.match_kind, label(rule)
    if rule.message:
        text += f" ({rule.message})"
    if kind == COMMAND and notes:
        return text + ": " + ", ".join(notes)  # what the translation changed
    for note in notes:
        text += f"; {note}"
    return text


def label(rule: Rule) -> str:
    """The rule in one short line (``grep → rg``, ``git: --amend → --fixup``): how the hook's note and
    ``dp stats`` name it."""
    kind = rule.match_kind
    if kind == COMMAND:
        text = f"{rule.command} → {rule.to_name}"
    elif kind == FLAG:
        text = f"{rule.command}: {dashed(rule.from_name)} → {dashed(rule.to_name)}"
    elif kind == LITERAL:
        scope = f"{rule.command}: " if rule.command else f"{rule.param}: "
        text = f"{scope}'{rule.from_name}' → '{rule.to_name}'"
    elif kind == REGEX:
        scope = f"{rule.command}: " if rule.command else f"{rule.param}: "
        text = f"{scope}/{rule.from_name}/ → '{rule.to_name}'"
    else:
        text = f"{rule.from_name} → recipe"
    return text
