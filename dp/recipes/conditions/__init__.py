"""The step ``condition`` language: a small, closed expression language, no ``eval``.

Why hand-written: a condition is written by whoever wrote the recipe but is
evaluated against values produced at run time (command output, agent output,
``--set``), so it must not be able to reach Python objects, call anything
outside a short whitelist, or run for long. The grammar, lowest precedence
first::

    expr       := or
    or         := and (("or" | "||") and)*
    and        := not (("and" | "&&") not)*
    not        := ("not" | "!") not | comparison
    comparison := unary (("==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in") unary)*
    unary      := "-" unary | postfix
    postfix    := primary ("." NAME ["(" args ")"] | "[" expr "]")*
    primary    := STRING | NUMBER | true | false | null | NAME ["(" args ")"]
                | "(" expr ")" | "[" [expr ("," expr)*] "]"

Names may contain ``-`` after the first character (step ids like
``run-tests`` are variables too; there is no subtraction). Unknown variables
are null. Numbers and booleans compare with strings through their string form
(``count == '1'`` when count is 1, ``flag == 'true'`` when flag is true), and
ordering a number against a numeric string compares numbers.

The layers, each its own module: ``values`` (how values read and compare,
and ``ConditionError``), ``tokens`` (text → tokens), ``parse`` (tokens →
tree, with the size, nesting and call whitelists) and ``evaluator`` (tree →
value). This module is the interface the rest of dp uses.
"""

from __future__ import annotations

from typing import Any

from dp.recipes.conditions.evaluator import MAX_RESULT_CHARS, run
from dp.recipes.conditions.parse import FUNCTIONS, MAX_EXPRESSION_BYTES, MAX_NESTING, STRING_METHODS, parse
from dp.recipes.conditions.values import ConditionError, equal, string_form

__all__ = [
    "ConditionError", "check", "evaluate", "string_form", "equal", "FUNCTIONS", "STRING_METHODS",
    "MAX_EXPRESSION_BYTES", "MAX_NESTING", "MAX_RESULT_CHARS",
]


def check(expression: str) -> None:
    """Parse ``expression`` without evaluating it (recipe validation)."""
    parse(expression)


def evaluate(expression: str, variables: dict[str, Any]) -> bool:
    """Whether ``expression`` holds for ``variables``; ConditionError when it cannot say."""
    tree = parse(expression)
    try:
        return bool(run(tree, variables))
    except RecursionError:
        raise ConditionError("condition is nested too deeply") from None
