"""Alias-recipe templates nested past what Jinja's parser or Python's compiler can take.

Such a template used to reach the user as "internal error: RecursionError"
or "IndentationError: too many levels of indentation" from ``dp alias
--recipe``; it is now refused when written, with how to fix it, and a
template just inside the limits is still accepted.
"""

from __future__ import annotations

import pytest

from dp.rules.recipe import template_error


def nested(opener: str, middle: str, closer: str, depth: int) -> str:
    return opener * depth + middle + closer * depth


TOO_DEEP = {
    "open braces": "{{ " * 1000,
    "parentheses": "{{ " + nested("(", "1", ")", 3000) + " }}",
    "lists": "{{ " + nested("[", "1", "]", 150) + " }}",
    "if blocks": nested("{% if 1 %}", "x", "{% endif %}", 120),
    "for loops": nested("{% for a in args %}", "x", "{% endfor %}", 25),
}


@pytest.mark.parametrize("template", TOO_DEEP.values(), ids=TOO_DEEP.keys())
def test_a_template_nested_too_deeply_is_refused_with_the_fix(template):
    assert template_error(template) == (
        "it nests too deeply ({{, (, [ or {% %} blocks inside each other); write it flatter")


@pytest.mark.parametrize("template", [
    "{{ " + nested("[", "1", "]", 20) + " }}",
    nested("{% if 1 %}", "{{ args }}", "{% endif %}", 15),
    nested("{% for a in args %}", "{{ a }}", "{% endfor %}", 3),
])
def test_reasonable_nesting_is_still_accepted(template):
    assert template_error(template) is None
