"""Where a recipe alias's rendered script goes in the command line it replaces.

A recipe rule matches a simple command by its first words (``gt convoy
wait``); the rest are the agent's arguments, handed to the template
(``dp.rules.recipe``). The rendered script then takes the command's place
in one of two ways: one command replaces just the command word and its
arguments, so wrappers (``timeout 60``), assignments and redirections stay
where they are; several commands (``dp.shell.script_shape``) replace the
whole simple command, grouped when anything around it (``&&``, ``|``, a
redirection) must apply to the whole script. The hook imports this module
only when a recipe rule names the command.
"""

from __future__ import annotations

import shlex

from dp.rules.model import Rule


def recipe_edit(command, rule: Rule, value: str, original: str, cwd: str, notes: list):
    """The edit replacing a matching simple command by the rendered recipe, else None.

    ``value`` is the string being rewritten, ``original`` the tool input as
    the agent sent it; what the edit drops is said in ``notes``.
    """
    from dp.shell.script_shape import has_several_commands

    trailing = _trailing_args(command, rule.from_name)
    if trailing is None:
        return None
    script = _render(rule, command, trailing, value, original, cwd, notes)
    if script is None:
        return None
    if not has_several_commands(script):
        return _in_place(command, value, script)
    if command.run_by:
        return None  # `xargs`/`find -exec` run a program, not a script: leave the call alone
    return _whole_command(command, value, script, notes)


def _trailing_args(command, matched: str):
    """The command's arguments after the recipe's words, or None when the command is not the recipe."""
    try:
        prefix = shlex.split(matched)
    except ValueError:
        return None
    if not prefix or len(command.args) < len(prefix) - 1:
        return None
    if [arg.value for arg in command.args[: len(prefix) - 1]] != prefix[1:]:
        return None
    return command.args[len(prefix) - 1 :]


def _render(rule: Rule, command, trailing, value: str, original: str, cwd: str, notes: list):
    """The recipe's script for these arguments (``:`` when it renders empty), or None when it cannot render."""
    from dp.rules.recipe import Arg, TemplateError, render

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
    return script.strip() or ":"


def _in_place(command, value: str, script: str):
    """One command takes the place of the command word and its arguments:
    wrappers (`timeout 60`), assignments and redirections stay where they are."""
    start = command.word.start
    end = command.args[-1].end if command.args else command.word.end
    inside = [value[s:e] for s, e in command.redirects if start <= s < end]
    return start, end, " ".join([script, *inside])


def _whole_command(command, value: str, script: str, notes: list):
    """A script can't follow `sudo`/`timeout`: it replaces the whole simple command.

    Anything around the command (`&&`, `|`, a trailing `&`, `time`, `!`,
    `if …; then`) must apply to the whole script, not to its first or last
    command, so the script is grouped then, its redirections after the group.
    """
    from dp.shell.script_shape import group

    wrappers = _without_spans(value, command.start, command.word.start, command.redirects)
    if wrappers:
        notes.append("dropped prefix: " + wrappers)
    redirects = " ".join(value[start:end] for start, end in command.redirects)
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
