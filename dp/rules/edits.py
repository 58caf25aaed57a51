"""Span edits: what one flag, literal or regex rule changes in one simple command.

An edit is ``(start, end, replacement)`` over the whole tool-input string.
The functions here read one parsed command (``dp.shell.segment``) and return
the edits one rule makes to its arguments, without applying anything: the
pass in ``dp.rules.apply`` collects every rule's edits from one parse and
applies them together with ``apply_edits``, right to left, so text no rule
touched stays byte-identical. Quoted strings, escapes and expansions are
never edited (``dp.shell.lexer.plain_runs``).
"""

from __future__ import annotations

import re

# Commands whose options are single-dash words (`find -name`): their
# multi-letter options are never read as groups of short flags.
SINGLE_DASH_LONG_OPTIONS = frozenset({
    "find", "java", "javac", "go", "gcc", "g++", "cc", "clang", "clang++", "ffmpeg", "ffprobe",
    "xcodebuild", "terraform", "openssl", "convert", "magick", "qemu-img", "tcpdump",
})
# Patterns as text, compiled (and kept by re) when first used: a translation through a table imports this
# module and uses none of them, on dp-capture's failed-call path too.
_LONG_FLAG = r"(?s)--([A-Za-z0-9][A-Za-z0-9_.-]*)(=.*)?\Z"
_SHORT_GROUP = r"(?s)-([A-Za-z]+)(.*)\Z"
_GO_GROUP = r"\$(?:(\d+)|\{(\w+)\})"


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
            match = re.match(_LONG_FLAG, raw)
            if long_old and match and match.group(1) == old:
                edits.append((arg.start, arg.end, _flag_text(new, match.group(2) or "")))
            continue
        match = re.match(_SHORT_GROUP, raw)
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


def go_replacement(replacement: str) -> str:
    """Accept Go's ``$1`` / ``${name}`` as well as Python's ``\\1`` / ``\\g<name>``.

    ``$$`` is a literal dollar, as in Go.
    """
    if "$" not in replacement:
        return replacement
    parts = replacement.split("$$")
    converted = [re.sub(_GO_GROUP, lambda m: "\\g<%s>" % (m.group(1) or m.group(2)), part) for part in parts]
    return "$".join(converted)
