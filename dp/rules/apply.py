"""Apply alias rules to one tool call's input.

Rules with a ``command`` act on the simple commands of a shell string (found
by ``dp.shell.segment``) and edit it by character span, right to left, so
everything they do not correct stays byte-identical. Rules without one act on
their parameter's whole string value. Kinds run in ``APPLY_ORDER`` (recipes,
commands, flags, literals, regexes), each kind in the order rules were added.
"""

from __future__ import annotations

import re

from dp.rules.model import APPLY_ORDER, BASH_PARAM, COMMAND, FLAG, LITERAL, RECIPE, REGEX, Rule, dashed

# Commands whose options are single-dash words (`find -name`): their
# multi-letter options are never read as groups of short flags.
SINGLE_DASH_LONG_OPTIONS = frozenset({
    "find", "java", "javac", "go", "gcc", "g++", "cc", "clang", "clang++", "ffmpeg", "ffprobe",
    "xcodebuild", "terraform", "openssl", "convert", "magick", "qemu-img", "tcpdump",
})
_LONG_FLAG = re.compile(r"--([A-Za-z0-9][A-Za-z0-9_.-]*)(=.*)?\Z", re.S)
_SHORT_GROUP = re.compile(r"-([A-Za-z]+)(.*)\Z", re.S)
_GO_GROUP = re.compile(r"\$(?:(\d+)|\{(\w+)\})")


class Result:
    """The rewritten tool input, one note per rule that changed it, and why rules held back.

    ``remarks`` name what stopped a translation (``grep -P …``): the hook shows
    them only in advise or verbose mode, since the command then runs as typed.
    """

    __slots__ = ("updated_input", "notes", "remarks")

    def __init__(self, updated_input: dict, notes: list[str], remarks: list[str] | None = None):
        self.updated_input = updated_input
        self.notes = notes
        self.remarks = remarks or []


def rewrite(tool_input: dict, rules: list[Rule], *, cwd: str = "", refetch=None, pave=None) -> Result | None:
    """Apply ``rules`` to ``tool_input``; None when nothing changes and nothing is to be said.

    ``refetch(text)`` (optional) returns the rules for the command words of
    ``text``: the rules for a command a rule produced (``rg`` after
    ``grep → rg``) that the original string did not name.
    ``pave(value, commands)`` (optional, dp.paving) returns project paving's
    edits and notes for the shell string, after the user's rules, from the
    same parse; it leaves alone the commands the user's rules are about.
    """
    params = [BASH_PARAM] if pave is not None else []
    for rule in rules:
        if rule.match_kind and rule.param not in params:
            params.append(rule.param)
    updated = dict(tool_input)
    pass_ = _Pass(rules, cwd, refetch, pave)
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
    return Result(updated, notes, pass_.remarks)


class _Pass:
    """One application of the rules: command rules edit one parse, then parameter rules run."""

    def __init__(self, rules, cwd: str, refetch, pave=None):
        self.rules = rules
        self.cwd = cwd
        self.refetch = refetch
        self.pave = pave
        self.fired: dict = {}  # rule key → (kind rank, rule rank, note)
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

    def _fire(self, rule: Rule, extra=()) -> None:
        if rule.key not in self.fired:
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
        # Innermost (latest-starting) first: a translation takes its nested commands' edits along.
        for command in sorted(commands, key=lambda command: -command.start):
            _CommandEdits(self, text, param, kinds, edits).collect(command)
        return apply_edits(text, edits)


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
        name = command.name
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
        for rule in pass_.rules_for(command.name, self.param, RECIPE):
            notes: list = []
            edit = recipe_edit(command, rule, self.text, pass_.original, pass_.cwd, notes)
            if edit is not None:
                start, end, script = edit
                script = pass_.shell(script, self.param, APPLY_ORDER[APPLY_ORDER.index(RECIPE) + 1 :])
                self.edits.append((start, end, script))
                pass_._fire(rule, notes)
                return True
        return False

    def _command(self, command) -> str | None:
        """Apply the first command rule; the name later kinds match, or None when done."""
        for rule in self.pass_.rules_for(command.name, self.param, COMMAND):
            return self._translate(rule, command)
        return command.name

    def _translate(self, rule: Rule, command) -> str | None:
        from dp.rules.tables.pairs import TableError, table_for
        from dp.rules.translate import Refusal, translate_command
        from dp.shell.segment import basename

        try:
            table = table_for(command.name, rule.to_name)
        except (TableError, OSError, ValueError) as error:
            self.pass_.remarks.append(f"{command.name} → {rule.to_name}: table unreadable ({error})")
            return command.name
        if table is None:
            self.edits.append((command.word.start, command.word.end, rule.to_name))
            self.pass_._fire(rule)
            return basename(rule.to_name.split(" ", 1)[0])
        consumed: list = []
        try:
            replacement, notes = translate_command(command, table, self._composer(consumed))
        except Refusal as refusal:
            self.pass_.remarks.append(f"{command.name} left as typed, not translated to {rule.to_name}: {refusal}")
            return command.name
        for edit in consumed:
            self.edits.remove(edit)
        if self._target_has_rules(replacement):
            replacement = self.pass_.shell(replacement, self.param, (FLAG, LITERAL, REGEX), only_first=True)
        start, end = command.word.start, (command.args[-1].end if command.args else command.word.end)
        inside = [self.text[s:e] for s, e in command.redirects if start <= s < end]
        self.edits.append((start, end, " ".join([replacement, *inside])))
        self.pass_._fire(rule, notes)
        return None

    def _target_has_rules(self, replacement: str) -> bool:
        """Whether argument rules exist for the command a translation produced (``rg`` rules
        after ``grep → rg``); when its name is a plain word and none do, the translated
        command is not parsed a second time."""
        from dp.shell.segment import basename

        first = replacement.split(None, 1)[0] if replacement.strip() else ""
        if not first or any(char in first for char in "'\"\\$`="):
            return True
        name = basename(first)
        return any(self.pass_.rules_for(name, self.param, kind) for kind in (FLAG, LITERAL, REGEX))

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


def apply_edits(text: str, edits) -> str:
    """Replace ``[start, end)`` spans right to left; an edit overlapping an earlier one is dropped."""
    kept = []
    last_end = -1
    for start, end, replacement in sorted(edits, key=lambda edit: (edit[0], -edit[1])):
        if start >= last_end:
            kept.append((start, end, replacement))
            last_end = end
    for start, end, replacement in reversed(kept):
        text = text[:start] + replacement + text[end:]
    return text


def flag_edits(command, old: str, new: str) -> list:
    """Edits turning flag ``old`` into ``new`` (stored without dashes) in one command."""
    edits = []
    long_old = len(old) > 1
    for arg in command.args:
        raw = arg.raw
        if arg.masked or not raw.startswith("-"):
            continue
        if raw == "--":
            break  # operands follow
        if raw.startswith("--"):
            match = _LONG_FLAG.match(raw)
            if long_old and match and match.group(1) == old:
                edits.append((arg.start, arg.end, _flag_text(new, match.group(2) or "")))
            continue
        match = _SHORT_GROUP.match(raw)
        if long_old or not match or old not in match.group(1):
            continue
        letters, rest = match.groups()
        if len(letters) > 1 and command.name in SINGLE_DASH_LONG_OPTIONS:
            continue
        if len(new) == 1:
            edits.append((arg.start, arg.end, "-" + letters.replace(old, new) + rest))
            continue
        remaining = letters.replace(old, "")
        if remaining:
            edits.append((arg.start, arg.end, f"-{remaining}{rest} --{new}"))
        else:
            edits.append((arg.start, arg.end, f"--{new}" + (f"={rest}" if rest else "")))
    return edits


def _flag_text(new: str, value: str) -> str:
    """``new`` as a flag, keeping an ``=value`` (a short flag takes it as the next word)."""
    if len(new) > 1:
        return f"--{new}{value}"
    return f"-{new}" + (f" {value[1:]}" if value else "")


def literal_edits(command, old: str, new: str) -> list:
    """Every occurrence of ``old`` in the unquoted text of the command's arguments."""
    from dp.shell.lexer import plain_runs

    edits = []
    for arg in command.args:
        if arg.masked or old not in arg.raw:
            continue
        for run_start, run_end in plain_runs(arg.raw):
            at = arg.raw.find(old, run_start, run_end)
            while at >= 0:
                edits.append((arg.start + at, arg.start + at + len(old), new))
                at = arg.raw.find(old, at + len(old), run_end)
    return edits


def regex_edits(command, value: str, pattern: str, replacement: str) -> list:
    """Matches of ``pattern`` in the command's text (they may span words), except
    those touching quoted strings, escapes or expansions, which are never rewritten."""
    from dp.shell.lexer import plain_runs

    protected = []
    for word in (command.word, *command.args):
        covered = word.start
        for run_start, run_end in [] if word.masked else plain_runs(word.raw):
            protected.append((covered, word.start + run_start))
            covered = word.start + run_end
        protected.append((covered, word.end))
    span = value[command.start : command.end]
    template = go_replacement(replacement)
    edits = []
    for match in re.finditer(pattern, span):
        start, end = command.start + match.start(), command.start + match.end()
        if not any(p_start < end and start < p_end for p_start, p_end in protected if p_start < p_end):
            edits.append((start, end, match.expand(template)))
    return edits


def recipe_edit(command, rule: Rule, value: str, original: str, cwd: str, notes: list):
    """The edit replacing a matching simple command by the rendered recipe, else None."""
    import shlex

    from dp.rules.recipe import Arg, TemplateError, render
    from dp.shell.script_shape import group, has_several_commands

    try:
        prefix = shlex.split(rule.from_name)
    except ValueError:
        return None
    if not prefix or len(command.args) < len(prefix) - 1:
        return None
    if [arg.value for arg in command.args[: len(prefix) - 1]] != prefix[1:]:
        return None
    trailing = command.args[len(prefix) - 1 :]
    try:
        script, used = render(
            rule.to_name,
            args=[Arg(arg.value, arg.raw) for arg in trailing],
            matched=rule.from_name,
            raw=value[command.start : command.end],
            full=original,
            cwd=cwd,
            program=rule.program,
        )
    except TemplateError:
        return None
    dropped = [] if used is None else [arg.raw for n, arg in enumerate(trailing, 1) if n not in used]
    if dropped:
        notes.append("dropped arguments: " + " ".join(dropped))
    script = script.strip() or ":"
    if not has_several_commands(script):
        # One command takes the place of the command word and its arguments:
        # wrappers (`timeout 60`), assignments and redirections stay where they are.
        start = command.word.start
        end = command.args[-1].end if command.args else command.word.end
        inside = [value[s:e] for s, e in command.redirects if start <= s < end]
        return start, end, " ".join([script, *inside])
    if command.run_by:
        return None  # `xargs`/`find -exec` run a program, not a script: leave the call alone
    # A script can't follow `sudo`/`timeout`: it replaces the whole simple command.
    wrappers = _without_spans(value, command.start, command.word.start, command.redirects)
    if wrappers:
        notes.append("dropped prefix: " + wrappers)
    redirects = " ".join(value[start:end] for start, end in command.redirects)
    # Anything around the command (`&&`, `|`, a trailing `&`, `time`, `!`, `if …; then`)
    # must apply to the whole script, not to its first or last command.
    if redirects or value[: command.start].strip() or value[command.end :].strip():
        script = group(script) + (f" {redirects}" if redirects else "")
    return command.start, command.end, script


def _without_spans(text: str, start: int, end: int, spans) -> str:
    """``text[start:end]`` minus the given spans, whitespace-normalised."""
    kept = []
    for span_start, span_end in sorted(spans):
        if start < span_end and span_start < end:
            kept.append(text[start:span_start])
            start = max(start, span_end)
    kept.append(text[start:end])
    return " ".join("".join(kept).split())


def go_replacement(replacement: str) -> str:
    """Accept Go's ``$1`` / ``${name}`` as well as Python's ``\\1`` / ``\\g<name>``.

    ``$$`` is a literal dollar, as in Go.
    """
    if "$" not in replacement:
        return replacement
    parts = replacement.split("$$")
    converted = [_GO_GROUP.sub(lambda m: "\\g<%s>" % (m.group(1) or m.group(2)), part) for part in parts]
    return "$".join(converted)


def _describe(rule: Rule, notes=()) -> str:
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
    if rule.message:
        text += f" ({rule.message})"
    if kind == COMMAND and notes:
        return text + ": " + ", ".join(notes)  # what the translation changed
    for note in notes:
        text += f"; {note}"
    return text
