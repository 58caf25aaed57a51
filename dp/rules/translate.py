"""Translate one simple command into another tool's flags, by a table, or refuse.

``translate(command, table)`` returns the text that replaces the command word
and its arguments (``rg -n -g '*.py' --hidden --no-ignore foo .``) plus notes
saying what was translated, or raises ``Refusal`` naming the flag or shape that
stopped it. Every flag must be known to the table; anything else refuses the
whole command — dp never emits a half translation.

This module is the ``style = "options"`` engine (getopt-style commands: short
flags grouped as ``-rni``, values attached or in the next word, ``--long`` and
``--long=value``, options and operands in any order until ``--``).
``dp.rules.findexpr`` is the ``find`` one. It builds on this module's
``Refusal``, ``Value``, ``shell_value``, ``expand``, ``check_value`` and
``adjustments``, and this module never imports it: the pass
(``dp.rules.apply``) picks the engine by the table's style.
"""

from __future__ import annotations

import re
import shlex

from dp.rules.patterns import check_pattern


class Refusal(Exception):
    """The command cannot be translated exactly; ``str(self)`` says why."""


class Value:
    """A word (or the part of one after ``=``/a flag letter) as shell text and, if known, its literal value."""

    __slots__ = ("text", "literal")

    def __init__(self, text: str, literal: str | None):
        self.text = text
        self.literal = literal


def shell_value(word, offset: int = 0, source_text=None, pattern: bool = False) -> Value:
    """``word`` from character ``offset`` of its value on, as a standalone shell word.

    The literal value is read from the source text (``dp.shell.quoting``),
    not from bashlex; it is None when the shell would expand something. A
    ``pattern`` with an unquoted ``*``/``?``/``[`` is unknown too: the shell
    may turn it into file names.
    """
    from dp.shell.quoting import literal

    if word.masked:
        raise Refusal(f"{word.raw!r} holds a construct dp does not read")
    if offset == 0:
        value = literal(word.raw, globs=not pattern)
        text = source_text(word.start, word.end) if source_text and value is None else word.raw
        return Value(text, value)
    prefix = word.value[:offset]
    if not word.raw.startswith(prefix):
        raise Refusal(f"{word.raw}: a quoted option dp does not split")
    rest = word.raw[offset:]
    value = literal(rest, globs=not pattern)
    # Inside `--include=*.py` the glob never expanded; standing alone it would.
    return Value(rest if value is None or rest != value else shlex.quote(value), value)


def expand(template: list[str], value: Value | None) -> list[str]:
    """A table's ``to`` words with ``{}`` replaced by ``value`` (quoted as one word)."""
    words = []
    for item in template:
        if "{}" not in item:
            words.append(item)
            continue
        before, after = item.split("{}", 1)
        assert value is not None, "a table's {} always comes with the flag's value"
        if value.literal is not None:
            words.append(shlex.quote(before + value.literal + after) if (before or after) else value.text)
        else:  # an expansion: quote the table's text around the agent's own word
            words.append((shlex.quote(before) if before else "") + value.text + (shlex.quote(after) if after else ""))
    return words


def marks_match(rule: dict, marks: set) -> bool:
    return set(rule.get("when", [])) <= marks and not set(rule.get("unless", [])) & marks


_INTEGER = r"\d+\Z"  # compiled (and kept by re) when first used, like the module's other patterns


def check_value(check: str, value: Value, marks: set, table) -> Value:
    """Validate (and for patterns, convert) a flag value; raises Refusal."""
    literal = value.literal
    if check == "pattern":
        return _pattern(value, marks, table)
    if literal is None:
        raise Refusal(f"{value.text}: a shell expansion dp cannot check")
    if check == "integer" and not re.match(_INTEGER, literal):
        raise Refusal(f"{literal!r} is not a count")
    if check == "basename-glob" and ("/" in literal or not literal):
        raise Refusal(f"{literal!r}: a glob with a '/' matches differently")
    if check == "color" and literal not in ("never", "always", "auto"):
        raise Refusal(f"--color={literal}")
    return value


def _pattern(value: Value, marks: set, table) -> Value:
    checks = table.operands.get("check", {})
    syntax = next((checks[mark] for mark in checks if mark != "default" and mark in marks), checks.get("default", "any"))
    if syntax == "any":
        return value
    if value.literal is None:
        raise Refusal(f"the pattern {value.text} uses a shell expansion: its regex syntax cannot be checked")
    if syntax == "rust":
        return _from_rust(value, marks, table)
    converted = check_pattern(value.literal, syntax)
    if converted is None:
        raise Refusal(f"the pattern {value.text} uses regex syntax that {table.target} reads differently")
    if converted == value.literal:
        return value
    return Value(shlex.quote(converted), converted)


def _from_rust(value: Value, marks: set, table) -> Value:
    """An rg pattern given to grep as it is, where grep reads it the same: as a basic regex, or else as an
    extended one (the mark ``ere``: ``-E``); refused when neither (``dp.rules.tables.reverse``)."""
    if value.literal is None:
        raise Refusal(f"the pattern {value.text} is a shell expansion dp cannot read")
    basic = check_pattern(value.literal, "bre") == value.literal
    extended = check_pattern(value.literal, "ere") == value.literal
    if not (basic or extended):
        raise Refusal(f"the pattern {value.text} reads differently in {table.target}")
    marks.add("bre-only" if not extended else "ere" if not basic else "either")
    return value


class _Parsed:
    __slots__ = ("flags", "notes", "operands", "operand_words", "marks", "checked", "dashdash", "subcommand")

    def __init__(self):
        self.flags: list[tuple[str, list[str], str]] = []  # (source text, target words, note)
        self.notes: list[str] = []
        self.operands: list[Value] = []
        self.operand_words: list = []
        self.marks: set[str] = set()
        self.checked: list[tuple[int, str, Value]] = []  # flag index, check, value
        self.dashdash = False
        self.subcommand = ""


def translate(command, table, source_text=None) -> tuple[str, list[str]]:
    """The ``options`` engine: (replacement text, notes); raises Refusal.

    ``source_text(start, end)`` returns a span of the original string with the
    edits of the commands nested in it applied (``$( … )`` in an operand), so
    one translation carries them along.
    """
    parsed = _parse(command.args, table, source_text)
    if command.run_by:
        parsed.marks.add("run-by")  # xargs / find -exec append operands at run time
    if command.stdin_redirected:
        parsed.marks.add("stdin")  # a pipe or a file: rg reads it without being told
    for index, check, value in parsed.checked:
        fixed = check_value(check, value, parsed.marks, table)
        entry_source, words, note = parsed.flags[index]
        parsed.flags[index] = (entry_source, [fixed.text if word == value.text else word for word in words], note)
    operands = parsed.operands
    if table.operands.get("pattern") and "pattern-given" not in parsed.marks:
        if not operands:
            raise Refusal("no pattern")
        pattern = _pattern(shell_value(parsed.operand_words[0], pattern=True), parsed.marks, table)
        if pattern.text != operands[0].text:
            parsed.notes.append(f"pattern {operands[0].text} → {pattern.text}")
        operands = [pattern, *operands[1:]]
    return _assemble(table, parsed, operands)


def _assemble(table, parsed: _Parsed, operands: list[Value]):
    positional = 1 if table.operands.get("pattern") and "pattern-given" not in parsed.marks else 0
    paths = operands[positional:]
    _mark_paths(parsed.marks, paths, table.operands.get("binary-names", ()))
    for rule in table.refuse:
        if marks_match(rule, parsed.marks):
            raise Refusal(rule["reason"])
    words = [table.target]
    if parsed.subcommand:
        words.extend(table.subcommands[parsed.subcommand].get("to", [parsed.subcommand]))
    notes = list(parsed.notes)
    for source, target, note in parsed.flags:
        words.extend(target)
        if " ".join(target) != source:
            change = f"{source} → {' '.join(target)}" if target else f"dropped {source}"
            notes.append(f"{change} ({note})" if note else change)
    added, defaults, adjusted = adjustments(table, parsed.marks)
    words.extend(added)
    notes.extend(adjusted)
    paths = paths or [Value(path, path) for path in defaults]
    if parsed.dashdash:
        words.append("--")
    words.extend(value.text for value in operands[:positional])
    words.extend(value.text for value in paths)
    return " ".join(words), notes


def _mark_paths(marks: set, paths: list[Value], binary_names) -> None:
    if not paths:
        marks.add("no-paths")
    if all(_file_like(path) for path in paths) and (paths or "run-by" not in marks):
        marks.add("file-paths")
    if binary_names and any(_named_binary(path, binary_names) for path in paths):
        marks.add("binary-name")


_FIXED_EXTENSION = r"\.[a-z0-9_+-]+\Z"


def _named_binary(path: Value, globs) -> bool:
    """Whether an operand may name a binary file, judging by its name.

    A shell glob is judged by the extension it ends with (``src/*.py``); one
    without (``*``, ``$f``, ``$(ls)``) may name any file, binary ones too. A ``*.ext`` glob (every one the
    shipped tables name) is a suffix test: fnmatch would compile a pattern for each of them, on every
    rewrite and every answer through a table.
    """
    name = (path.literal if path.literal is not None else path.text).rsplit("/", 1)[-1].lower()
    if path.literal is None or any(c in name for c in "*?["):
        extension = re.search(_FIXED_EXTENSION, name)
        if extension is None:
            return True
        name = "x" + extension.group()
    return any(name.endswith(glob[1:]) if _suffix_glob(glob) else _fnmatch(name, glob) for glob in globs)


def _suffix_glob(glob: str) -> bool:
    return glob.startswith("*.") and not any(c in glob[1:] for c in "*?[")


def _fnmatch(name: str, glob: str) -> bool:
    from fnmatch import fnmatchcase

    return fnmatchcase(name, glob)


def adjustments(table, marks: set) -> tuple[list[str], list[str], list[str]]:
    """(target words to add, operands to use when none were given, notes) from the table's [[adjust]]."""
    added: list[str] = []
    defaults: list[str] = []
    notes: list[str] = []
    for rule in table.adjust:
        if marks_match(rule, marks):
            added.extend(rule.get("add", []))
            defaults = defaults or rule.get("paths", [])
            shown = " ".join(rule.get("add", []) + rule.get("paths", []))
            if not shown:
                notes.append(f"note: {rule['note']}")
            else:
                notes.append(f"added {shown} ({rule['note']})" if rule.get("note") else f"added {shown}")
    return added, defaults, notes


def _file_like(path: Value) -> bool:
    """Whether an operand names a file rather than a directory, judging by its name."""
    literal = path.literal
    if literal is None:
        return False
    if literal == "-":
        return True
    name = literal.rstrip("/").rsplit("/", 1)[-1]
    return not literal.endswith("/") and "." in name.lstrip(".") and name not in (".", "..")


def _parse(args, table, source_text) -> _Parsed:
    parsed = _Parsed()
    i = 0
    while i < len(args):
        word = args[i]
        text = word.value
        if word.masked:
            raise Refusal(f"{word.raw!r} holds a construct dp does not read")
        if parsed.dashdash or text == "-" or not text.startswith("-"):
            if table.subcommands and not parsed.subcommand and not parsed.operands:
                if text not in table.subcommands:
                    raise Refusal(f"subcommand {text!r} is not in the table")
                parsed.subcommand = text
            else:
                parsed.operands.append(shell_value(word, source_text=source_text))
                parsed.operand_words.append(word)
            i += 1
        elif text == "--":
            parsed.dashdash = True
            i += 1
        elif text.startswith("--"):
            i = _long(args, i, table, parsed)
        else:
            i = _short_group(args, i, table, parsed)
    return parsed


def _long(args, i: int, table, parsed: _Parsed) -> int:
    word = args[i]
    name, has_value, _ = word.value.partition("=")
    entry = _entry(table, name, parsed)
    if not entry.get("value"):
        if has_value:
            raise Refusal(f"{word.value}: {name} takes no value")
        _add(parsed, word.raw, entry, None)
        return i + 1
    pattern = entry.get("check") == "pattern"
    if has_value:
        _add(parsed, word.raw, entry, shell_value(word, len(name) + 1, pattern=pattern))
        return i + 1
    return _value_in_next_word(args, i, word.raw, name, entry, parsed)


def _short_group(args, i: int, table, parsed: _Parsed) -> int:
    word = args[i]
    text = word.value
    for at in range(1, len(text)):
        letter = "-" + text[at]
        entry = _entry(table, letter, parsed)
        if not entry.get("value"):
            _add(parsed, letter, entry, None)
            continue
        pattern = entry.get("check") == "pattern"
        if at + 1 < len(text):
            _add(parsed, letter + text[at + 1 :], entry, shell_value(word, at + 1, pattern=pattern))
            return i + 1
        return _value_in_next_word(args, i, letter, letter, entry, parsed)
    return i + 1


def _value_in_next_word(args, i: int, spelled: str, name: str, entry: dict, parsed: _Parsed) -> int:
    """An option whose value is the next word (``-e PATTERN``); returns the index after both."""
    if i + 1 >= len(args):
        raise Refusal(f"{name} without its value")
    pattern = entry.get("check") == "pattern"
    _add(parsed, f"{spelled} {args[i + 1].raw}", entry, shell_value(args[i + 1], pattern=pattern))
    return i + 2


def _form(source: str, forms: list, value: Value | None) -> tuple[dict, Value | None]:
    """(the entry, its value) of the first ``(before, after, flag, check, marks)`` form ``value`` fits."""
    literal = value.literal if value is not None else None
    if literal is None:
        raise Refusal(f"{source}: a shell expansion dp cannot read")
    for before, after, flag, check, sets in forms:
        if literal.startswith(before) and literal.endswith(after) and len(literal) > len(before) + len(after):
            text = literal[len(before) : len(literal) - len(after)]
            inner = Value(shlex.quote(text), text)
            if not flag.startswith("--"):
                return {"to": [flag, "{}"], "check": check, "sets": sets}, inner
            if check and check != "pattern":  # `--include='*.py'`: checked here, as the word holds the value
                check_value(check, inner, set(), None)
            return {"to": [f"{flag}={inner.text}"], "sets": sets}, None
    raise Refusal(f"{source}: no equivalent for this value")


def _entry(table, name: str, parsed: _Parsed) -> dict:
    entry = table.flag(name, parsed.subcommand)
    if entry is None:
        raise Refusal(f"{table.source} {name} has no known {table.target} equivalent")
    if "unknown" in entry:
        raise Refusal(f"{table.source} {name}: {entry['unknown']}")
    return entry


def _add(parsed: _Parsed, source: str, entry: dict, value: Value | None) -> None:
    if "forms" in entry:  # a table read backwards: the value's shape picks the flag (-g '!G' is --exclude=G)
        entry, value = _form(source, entry["forms"], value)
    if "choices" in entry:  # the value picks the translation (--binary-files=text is -a)
        if value is None:
            raise Refusal(f"{source}: no value to choose a translation by")
        if value.literal not in entry["choices"]:
            raise Refusal(f"{source}: {value.text} is not one of {', '.join(sorted(entry['choices']))}")
        entry, value = entry["choices"][value.literal], None
    parsed.marks.update(entry.get("sets", []))
    words = expand(entry["to"], value)
    if value is not None and entry.get("check"):
        parsed.checked.append((len(parsed.flags), entry["check"], value))
    parsed.flags.append((source, words, entry.get("note", "")))
