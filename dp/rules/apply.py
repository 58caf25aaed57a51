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
    """The rewritten tool input and one note per rule that changed it."""

    __slots__ = ("updated_input", "notes")

    def __init__(self, updated_input: dict, notes: list[str]):
        self.updated_input = updated_input
        self.notes = notes


def rewrite(tool_input: dict, rules: list[Rule], *, cwd: str = "", refetch=None, pave=None) -> Result | None:
    """Apply ``rules`` to ``tool_input``; None when nothing changes and nothing is to be said.

    ``refetch(value)`` (optional) returns the rules for a changed shell
    string (the ``command`` parameter), so that e.g. a flag rule for ``rg`` sees the command after
    ``grep → rg`` fired even though ``rg`` was not in the original text.
    ``pave(value, commands)`` (optional, dp.paving) returns project paving's
    edits and notes for the shell string, after the user's rules, from the
    same parse; it leaves alone the commands the user's rules are about.
    """
    params = [BASH_PARAM] if pave is not None else []
    for rule in rules:
        if rule.match_kind and rule.param not in params:
            params.append(rule.param)
    updated = dict(tool_input)
    notes: list[str] = []
    for param in params:
        value = tool_input.get(param)
        if not isinstance(value, str):
            continue
        shell_refetch = refetch if param == BASH_PARAM else None
        new_value = _rewrite_value(value, param, rules, cwd, shell_refetch, notes, pave if param == BASH_PARAM else None)
        if new_value != value:
            updated[param] = new_value
    if updated == tool_input and not notes:
        return None
    return Result(updated, notes)


def _rewrite_value(value: str, param: str, rules, cwd, refetch, notes, pave=None) -> str:
    original = value
    fetched_for = value
    segments = _SegmentCache()
    for kind in APPLY_ORDER:
        if refetch is not None and value != fetched_for:
            rules, fetched_for = refetch(value), value
        for rule in rules:
            if rule.match_kind != kind or rule.param != param:
                continue
            try:
                new_value, note = _apply(rule, value, segments, original, cwd)
            except re.error:
                continue  # a broken pattern skips its rule, never the call
            if new_value != value:
                value = new_value
                notes.append(note)
    if pave is not None:
        edits, pave_notes = pave(value, segments.all(value))
        value = apply_edits(value, edits)
        notes.extend(pave_notes)
    return value


class _SegmentCache:
    """Parse each distinct string once, only when a command rule needs it."""

    def __init__(self):
        self._parsed = {}

    def all(self, value: str) -> list:
        if value not in self._parsed:
            from dp.shell.segment import simple_commands

            self._parsed[value] = simple_commands(value) or []
        return self._parsed[value]

    def commands(self, value: str, name: str) -> list:
        return [command for command in self.all(value) if command.name == name]


def _apply(rule: Rule, value: str, segments: _SegmentCache, original: str, cwd: str):
    kind = rule.match_kind
    if not rule.command:
        if kind == LITERAL and rule.from_name:
            return value.replace(rule.from_name, rule.to_name), _describe(rule)
        if kind == REGEX:
            return re.sub(rule.from_name, go_replacement(rule.to_name), value), _describe(rule)
        return value, ""
    commands = segments.commands(value, rule.command)
    if not commands:
        return value, ""
    notes = []
    edits = []
    for command in commands:
        if kind == COMMAND:
            edits.append((command.word.start, command.word.end, rule.to_name))
        elif kind == FLAG:
            edits.extend(flag_edits(command, rule.from_name, rule.to_name))
        elif kind == LITERAL and rule.from_name:
            edits.extend(literal_edits(command, rule.from_name, rule.to_name))
        elif kind == REGEX:
            edits.extend(regex_edits(command, value, rule.from_name, rule.to_name))
        elif kind == RECIPE:
            edit = recipe_edit(command, rule, value, original, cwd, notes)
            if edit is not None:
                edits.append(edit)
    new_value = apply_edits(value, edits)
    return new_value, _describe(rule, notes)


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

    from dp.rules.recipe import Arg, RecipeError, render
    from dp.shell.lexer import has_several_commands

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
        )
    except RecipeError:
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


def group(script: str) -> str:
    """``{ script; }``, or ``{ script\\n}`` when a trailing ``&``, a comment or a
    heredoc (whose delimiter must end its line) needs the newline."""
    from dp.shell.lexer import needs_own_line

    body = script.strip()
    while body.endswith(";") and not body.endswith(";;"):
        body = body[:-1].rstrip()
    if body.endswith("&") or needs_own_line(body):
        return "{ " + body + "\n}"
    return "{ " + body + "; }"


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
    for note in notes:
        text += f"; {note}"
    return text
