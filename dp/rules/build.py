"""Turning user input into a valid rule, and saying exactly what is wrong when it isn't.

``build_rule`` maps the ``dp alias`` options onto one of the six modes
(seed 004); ``validate_rule`` checks any rule, from the CLI or from an
imported collection, so both paths enforce the same invariants.
"""

from __future__ import annotations

import re

from dp.errors import DpError
from dp.rules.model import BASH_PARAM, BASH_TOOL, COMMAND, FLAG, LITERAL, MATCH_KINDS, RECIPE, REGEX, TOOL_ALIAS, Rule

# Kinds that always target a Bash command; literal and regex may target any tool parameter.
ALWAYS_COMMAND_SCOPED = (FLAG, COMMAND, RECIPE)


class RuleError(DpError):
    """A rule that cannot be stored; the message says why and how to fix it."""


def normalize_flag(value: str) -> str:
    """``-r`` → ``r``, ``--recursive`` → ``recursive``: flags are stored without dashes."""
    return value.lstrip("-")


def recipe_command(prefix: str) -> str:
    """The program a recipe prefix runs, as it names it: ``gt`` for ``gt convoy wait``, the path
    for ``./gt convoy wait`` (a path names one program; the bare name is whatever PATH finds)."""
    words = prefix.split()
    return words[0] if words else ""


def build_rule(
    positionals: list[str],
    *,
    cmd: str | None = None,
    flag: tuple[str, str] | None = None,
    replace: str | None = None,
    tool: str | None = None,
    param: str | None = None,
    regex: bool = False,
    recipe: bool = False,
    script: str | None = None,
    message: str = "",
    delete: bool = False,
) -> Rule:
    """The rule that ``dp alias`` options describe (for ``delete``: its key).

    ``script`` is a recipe body read from ``--file``; it replaces the second
    positional argument.
    """
    if message and delete:
        raise RuleError("--message cannot be combined with --delete")
    if cmd is not None and not _is_program_name(cmd):
        raise RuleError(f"--cmd must be one program name, not {cmd!r}")
    if script is not None and not recipe:
        raise RuleError("--file is only for recipes: dp alias --recipe FROM --file SCRIPT")

    if recipe:
        _exclusive("--recipe", cmd=cmd, flag=flag, replace=replace, tool=tool, param=param, regex=regex)
        return _finish(_recipe_rule(positionals, script, message, delete), delete)
    if flag is not None:
        _exclusive("--flag", replace=replace, tool=tool, param=param, regex=regex)
        program = _require_cmd(cmd, "--flag", "dp alias --cmd scp --flag r R")
        _positionals(positionals, 0, "dp alias --cmd CMD --flag OLD NEW")
        old, new = (normalize_flag(value) for value in flag)
        return _finish(Rule(old, new, BASH_TOOL, BASH_PARAM, program, FLAG, message), delete)
    if replace is not None:
        _exclusive("--replace", tool=tool, param=param, regex=regex)
        program = _require_cmd(cmd, "--replace", "dp alias --cmd grep --replace rg")
        _positionals(positionals, 0, "dp alias --cmd CMD --replace NEW")
        return _finish(Rule(program, replace, BASH_TOOL, BASH_PARAM, program, COMMAND, message), delete)
    return _finish(_text_rule(positionals, cmd, tool, param, regex, message, delete), delete)


def _recipe_rule(positionals: list[str], script: str | None, message: str, delete: bool) -> Rule:
    """``--recipe FROM SCRIPT`` (or ``--file``), keyed by its whitespace-normalised prefix."""
    if script is not None:
        if delete:
            raise RuleError("--file cannot be combined with --delete")
        from_name = _positionals(positionals, 1, "dp alias --recipe FROM --file SCRIPT")[0]
        to_name = script
    elif delete:
        from_name = _positionals(positionals, 1, "dp alias --delete --recipe FROM")[0]
        to_name = ""
    else:
        from_name, to_name = _positionals(positionals, 2, "dp alias --recipe FROM SCRIPT")
    prefix = " ".join(from_name.split())
    return Rule(prefix, to_name, BASH_TOOL, BASH_PARAM, recipe_command(prefix), RECIPE, message)


def _text_rule(positionals: list[str], cmd, tool, param, regex: bool, message: str, delete: bool) -> Rule:
    """A literal or regex rule on a command or a tool parameter, or (with no target) a tool-name alias."""
    kind = REGEX if regex else LITERAL
    usage_pair = "FROM" if delete else "FROM TO"
    count = 1 if delete else 2
    if cmd is not None:
        _exclusive("--cmd", tool=tool, param=param)
        values = _positionals(positionals, count, f"dp alias --cmd CMD [--regex] {usage_pair}")
        return Rule(values[0], _second(values), BASH_TOOL, BASH_PARAM, cmd, kind, message)
    if tool is not None or param is not None:
        if not tool or not param:
            raise RuleError("--tool and --param go together: dp alias --tool Edit --param file_path FROM TO")
        values = _positionals(positionals, count, f"dp alias --tool T --param P [--regex] {usage_pair}")
        return Rule(values[0], _second(values), tool, param, "", kind, message)
    if regex:
        raise RuleError("--regex needs a target: --cmd CMD, or --tool TOOL --param PARAM")
    values = _positionals(positionals, count, f"dp alias {'--delete FROM' if delete else 'FROM TO'}")
    return Rule(values[0], _second(values), match_kind=TOOL_ALIAS, message=message)


def validate_rule(rule: Rule) -> Rule:
    """Raise RuleError unless ``rule`` can be stored and can fire; returns it."""
    _check_key(rule)
    if not rule.to_name:
        raise RuleError(f"the replacement (TO) of {rule.from_name!r} is empty")
    problem = rule_problem(rule)
    if problem:
        raise RuleError(problem)
    return rule


def rule_problem(rule: Rule) -> str | None:
    """Why a stored rule can never fire (bad regex, bad template), or None."""
    if rule.match_kind == REGEX:
        try:
            re.compile(rule.from_name)
        except re.error as exc:
            where = f" at position {exc.pos}" if exc.pos is not None else ""
            return f"invalid regex {rule.from_name!r}: {exc.msg}{where}"
    if rule.match_kind == RECIPE:
        from dp.rules.recipe import placement_error, template_error

        error = template_error(rule.to_name)
        if error:
            return f"recipe template for {rule.from_name!r} does not parse: {error}"
        unsafe = placement_error(rule.to_name)
        if unsafe:
            return f"recipe template for {rule.from_name!r} is refused: {unsafe}"
    return None


def _check_key(rule: Rule) -> None:
    """The identifying fields must describe one of the six modes."""
    if rule.match_kind not in MATCH_KINDS:
        kinds = ", ".join(kind or "'' (tool alias)" for kind in MATCH_KINDS)
        raise RuleError(f"unknown match_kind {rule.match_kind!r} (use one of: {kinds})")
    if not rule.from_name:
        raise RuleError("the name or pattern to match (FROM) is empty")
    if rule.match_kind == TOOL_ALIAS:
        if rule.tool or rule.param or rule.command:
            raise RuleError("a tool-name alias has no tool, param or command")
        return
    _check_target(rule)
    _check_kind_fields(rule)


def _check_target(rule: Rule) -> None:
    """A rule on a command targets Bash's command; any other names a tool and a parameter."""
    if rule.match_kind in ALWAYS_COMMAND_SCOPED or rule.command:
        if (rule.tool, rule.param) != (BASH_TOOL, BASH_PARAM):
            raise RuleError(f"a {rule.match_kind} rule for a command targets tool Bash, param command")
        if not _is_program_name(rule.command):
            raise RuleError(f"--cmd must be one program name, not {rule.command!r}")
    elif not rule.tool or not rule.param:
        raise RuleError(f"a {rule.match_kind} rule needs --cmd CMD, or --tool TOOL --param PARAM")


def _check_kind_fields(rule: Rule) -> None:
    """What each command-rule kind requires of FROM and TO."""
    if rule.match_kind == FLAG:
        for value in (rule.from_name, rule.to_name):
            if value != normalize_flag(value) or any(ch.isspace() or ch == "=" for ch in value):
                raise RuleError(f"flag {value!r} must be a bare flag name like r, -r or --recursive")
    if rule.match_kind == COMMAND and rule.from_name != rule.command:
        raise RuleError("a command rule replaces its own --cmd: FROM must equal the command")
    if rule.match_kind == RECIPE and rule.command != recipe_command(rule.from_name):
        raise RuleError(f"a recipe for {rule.from_name!r} must have command {recipe_command(rule.from_name)!r}")


def _is_program_name(value: str) -> bool:
    return bool(value) and not any(ch.isspace() for ch in value)


def _finish(rule: Rule, delete: bool) -> Rule:
    if delete:
        _check_key(rule)
        return rule
    if rule.match_kind == FLAG and not (rule.from_name and rule.to_name):
        raise RuleError("--flag takes two non-empty flags: --flag OLD NEW (e.g. --flag r R)")
    return validate_rule(rule)


def _exclusive(mode: str, **others) -> None:
    clashing = [f"--{name}" for name, value in others.items() if value not in (None, False)]
    if clashing:
        raise RuleError(f"{mode} cannot be combined with {', '.join(clashing)}")


def _require_cmd(cmd: str | None, option: str, example: str) -> str:
    if not cmd:
        raise RuleError(f"{option} needs --cmd: {example}")
    return cmd


def _positionals(values: list[str], count: int, usage: str) -> list[str]:
    if len(values) != count:
        expected = {0: "no positional arguments", 1: "one argument", 2: "two arguments"}[count]
        raise RuleError(f"expected {expected}, got {len(values)}: {usage}")
    return values


def _second(values: list[str]) -> str:
    return values[1] if len(values) > 1 else ""


def alias_args(rule: Rule) -> list[str]:
    """The ``dp alias`` arguments that make ``rule`` (``build_rule`` read backwards): how dp offers to
    promote a shadow rule, as the person would type it."""
    if rule.match_kind == RECIPE:
        args = ["--recipe", rule.from_name, rule.to_name]
    elif rule.match_kind == COMMAND:
        args = ["--cmd", rule.command, "--replace", rule.to_name]
    elif rule.match_kind == FLAG:
        args = ["--cmd", rule.command, "--flag", rule.from_name, rule.to_name]
    elif rule.match_kind in (LITERAL, REGEX):
        scope = ["--cmd", rule.command] if rule.command else ["--tool", rule.tool, "--param", rule.param]
        args = [*scope, *(["--regex"] if rule.match_kind == REGEX else []), rule.from_name, rule.to_name]
    else:
        args = [rule.from_name, rule.to_name]
    return args + (["--message", rule.message] if rule.message else [])
