"""GNU grep's regex dialects converted to ripgrep's (``dp.rules.patterns``), or refused.

What each conversion means to the real tools is proven by
``integration_tests/test_rewrite_semantics.py``; these cases pin the reading
of positions that GNU decides by context.
"""

from __future__ import annotations

import pytest

from dp.rules.patterns import check_pattern


@pytest.mark.parametrize(
    "pattern, converted",
    [
        ("^def \\|^class ", "^def |^class "),  # ^ after \| is an anchor (GNU)
        ("\\(^a\\|b$\\)c", "(^a|b$)c"),  # ^ after \(, $ before \| and \)
        ("x$\\|y", "x$|y"),
        ("a^b$c", "a\\^b\\$c"),  # in the middle both are literal
        ("*foo", "\\*foo"),  # a * with nothing to repeat is literal
        ("^*x", "^\\*x"),
        ("\\(*a\\)", "(\\*a)"),
        ("a\\|*b", "a|\\*b"),
        ("o\\{2\\}", "o{2}"),
        ("o\\{1,\\}", "o{1,}"),
        ("\\<foo\\>", "\\bfoo\\b"),  # next to a word character \b means the same
        ("\\<\\w*oo\\>", None),  # after a repeat \> may not be at a word's end: refused
        ("\\w\\>", "\\w\\b"),
        ("foo|bar", "foo\\|bar"),  # | is literal in a basic regex
        ("a+b?", "a\\+b\\?"),
    ],
)
def test_basic_regexes(pattern, converted):
    assert check_pattern(pattern, "bre") == converted


@pytest.mark.parametrize(
    "pattern",
    ["\\(a\\)\\1", "a\\{,3\\}", "\\<\\(a\\)", "\\`a", "[[x]", "\\{2\\}", "a\\|\\+b", "[a\\]]"],
)
def test_basic_regexes_rg_reads_differently_are_refused(pattern):
    assert check_pattern(pattern, "bre") is None


@pytest.mark.parametrize(
    "pattern, converted",
    [("^(def|class) ", "^(def|class) "), ("a{2}", "a{2}"), ("\\<x", "\\bx"), ("a\\|b", "a\\|b")],
)
def test_extended_regexes(pattern, converted):
    assert check_pattern(pattern, "ere") == converted


@pytest.mark.parametrize("pattern", ["(a)\\1", "*a", "a|*b", "(+a)", "a{,3}", "a{x}", "^*a"])
def test_extended_regexes_rg_reads_differently_are_refused(pattern):
    assert check_pattern(pattern, "ere") is None
