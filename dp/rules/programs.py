"""The programs a rule puts into the agent's command, and which of them are not there.

A command rule runs its target (``find → fd`` runs ``fd``); a recipe runs the programs of its
script. ``dp alias`` warns and ``dp doctor`` reports when one is missing; the hook itself asks
``dp.shell.programs`` about the script it has just rendered (``dp.rules.apply``). Flag, literal
and regex rules keep the program the agent named, so they put none in.
"""

from __future__ import annotations

import re

from dp.rules.model import COMMAND, RECIPE, Rule

# A template's tags: a placeholder stands for a value known only when the recipe runs (taken
# as an expansion, so never as a program name); statements and comments put no word there.
_PLACEHOLDER = re.compile(r"\{\{.*?\}\}", re.S)
_STATEMENT = re.compile(r"\{%.*?%\}|\{#.*?#\}", re.S)


def rule_programs(rule: Rule) -> list[str]:
    """The programs ``rule`` makes the agent's command run instead of the one it named."""
    if rule.match_kind == COMMAND:
        program = rule.to_name.split(None, 1)[0] if rule.to_name.strip() else ""
        return [program] if program else []
    if rule.match_kind == RECIPE:
        from dp.shell.programs import script_programs
        from dp.shell.segment import simple_commands

        text = _PLACEHOLDER.sub('"$_"', _STATEMENT.sub("", rule.to_name))
        return script_programs(text, simple_commands(text) or [])
    return []


def missing_programs(rule: Rule, programs=None) -> list[str]:
    """The programs of ``rule`` that are not there (``programs``: a ``dp.shell.programs.Programs``,
    this process's PATH by default)."""
    if programs is None:
        from dp.shell.programs import Programs

        programs = Programs()
    return [program for program in rule_programs(rule) if not programs.where(program)]


def acting_here(rules, cwd: str = "") -> list:
    """The ``rules`` the hook would apply in ``cwd`` with this process's PATH: those whose programs are all
    there. What the model is taught (session start, ``dp pave --agents-md``) lists only these: the hook leaves
    ``find`` as typed where ``fd`` is missing, so "Use `fd` instead of `find`" would teach a command that
    fails (``fd: command not found``). One judgement for both, ``missing_programs``."""
    from dp.shell.programs import Programs

    programs = Programs(cwd=cwd)
    return [rule for rule in rules if not missing_programs(rule, programs)]
