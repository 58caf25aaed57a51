"""The condition language layer by layer: which layer refuses what, and the positions it names.

A recipe author reads these messages in ``dp recipe validate``: the column
must point at the mistake, and a mistake must be caught by the earliest
layer that can see it (a syntax error at validation, not at run time).
"""

import pytest

from dp.errors import DpError
from dp.recipes.conditions import ConditionError, check, evaluate
from dp.recipes.conditions.parse import parse
from dp.recipes.conditions.tokens import tokenize


# The tokenizer refuses bad characters, the parser tokens out of place; each names the column.
@pytest.mark.parametrize("layer, text, message", [
    (tokenize, "count = 1", "'=' at position 6: use '==' to compare"),
    (tokenize, "a == 'open", "unterminated string starting at position 5"),
    (tokenize, "x > 1e", "bad number '1e' at position 4"),
    (tokenize, "ok and a @ b", "unexpected character '@' at position 9"),
    (tokenize, "x == '{{ y }}'", "template '{{ y }}' inside a quoted string at position 5: conditions use "
               "variables directly, write y, not '{{y}}'"),
    (tokenize, "{{count}} > 1", "conditions use variables directly: write 'count > 1', not '{{count}} > 1'"),
    (tokenize, "a.__class__", "'__class__': names containing '__' are not allowed"),
    (parse, "a b", "unexpected 'b' at position 2"),
    (parse, "(a == 1", "expected ')' but found end of condition at position 7"),
    (parse, "[1, 2", "expected ',' but found end of condition at position 5"),
    (parse, "a. == 1", "expected a name after '.' at position 3"),
    (parse, "a == ", "unexpected end of condition at position 5"),
    (parse, "x == 1 'y'", "unexpected string 'y' at position 10"),
])
def test_each_layer_names_the_column_of_what_it_refuses(layer, text, message):
    with pytest.raises(ConditionError) as caught:
        layer(text)
    assert str(caught.value) == message


def test_tokens_carry_their_kind_value_and_column():
    tokens = tokenize("not run-tests.ok >= 2.5 || Flag in ['a']")
    assert [(t.kind, t.value, t.pos) for t in tokens if t.kind != "str"] == [
        ("kw", "not", 0), ("name", "run-tests", 4), ("op", ".", 13), ("name", "ok", 14),
        ("op", ">=", 17), ("num", 2.5, 20), ("op", "||", 24), ("name", "Flag", 27), ("kw", "in", 32),
        ("op", "[", 35), ("op", "]", 39), ("end", None, 40),
    ]
    assert [t.value for t in tokens if t.kind == "str"] == ["a"]
    # Keywords are lower case, except the YAML-style True/False/None.
    assert [(t.kind, t.value) for t in tokenize("True AND None")] == [
        ("kw", "true"), ("name", "AND"), ("kw", "none"), ("end", None)]


def test_the_parser_builds_the_tree_the_evaluator_walks():
    assert parse("not a.b in ['x', y]") == (
        "not", ("cmp", ("attr", ("var", "a"), "b"), [("in", ("list", [("lit", "x"), ("var", "y")]))]))
    assert parse("len(s.strip()) > 0 and -n < 1") == ("and", [
        ("cmp", ("call", "len", [("method", ("var", "s"), "strip", [])]), [(">", ("lit", 0))]),
        ("cmp", ("neg", ("var", "n")), [("<", ("lit", 1))]),
    ])


@pytest.mark.parametrize("text", ["count > 'many'", "int(word) == 1", "-name", "items.strip()"])
def test_run_time_errors_are_the_evaluator_s_alone(text):
    variables = {"count": [1], "word": "abc", "name": "x", "items": [1]}
    check(text)  # parses: nothing to refuse before the values are known
    with pytest.raises(ConditionError):
        evaluate(text, variables)


def test_condition_errors_are_dp_errors():
    """A broken condition reaches the user as one ``dp: error:`` line, like every other bad input."""
    with pytest.raises(DpError) as caught:
        check("a = 1")
    assert isinstance(caught.value, ConditionError)
    assert caught.value.message == "'=' at position 2: use '==' to compare"
