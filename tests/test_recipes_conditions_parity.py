"""Conditions as amplihack-recipe-runner 0.3.6 evaluates them.

dp's recipe format follows that runner (seed 001), so recipes written for it
must take the same branches under dp. Each row below is one of the runner's
own condition cases, restated here as (expression, variables, expected):
``True``/``False`` for the value, ``ERROR`` where both refuse the expression.
"""

import random
import string

import pytest

from dp.recipes.conditions import ConditionError, evaluate

ERROR = "error"

GUARDED_NULL = "found and found['confirmed_count'] > 0"

CASES = [
    # booleans against their string forms, both directions, any case
    ("flag == 'true'", {"flag": True}, True),
    ("'true' == flag", {"flag": True}, True),
    ("flag == 'True'", {"flag": True}, True),
    ("flag == 'false'", {"flag": True}, False),
    ("flag == 'yes'", {"flag": True}, False),
    ("off == 'false'", {"off": False}, True),
    ("off == 'no'", {"off": False}, False),
    # the runner's issue #3069 workflow conditions
    (
        "('Development' in task_type or 'Investigation' in task_type) and "
        "((workstream_count == '1' or workstream_count == '') or force_single == 'true')",
        {"task_type": "Development", "workstream_count": 2, "force_single": True},
        True,
    ),
    (
        "'Development' in task_type and workstream_count != '1' and 'ALLOWED' in guard "
        "and force_single != 'true'",
        {"task_type": "Development", "workstream_count": 2, "force_single": True, "guard": "ALLOWED"},
        False,
    ),
    (
        "'Development' in task_type and workstream_count != '1' and 'ALLOWED' in guard "
        "and force_single != 'true'",
        {"task_type": "Development", "workstream_count": 2, "force_single": "false", "guard": "ALLOWED"},
        True,
    ),
    # list literals, trailing commas, malformed lists
    ("x in ['a', 'b',]", {"x": "a"}, True),
    ("x in ['a',]", {"x": "a"}, True),
    ("x in ['b',]", {"x": "a"}, False),
    ("x in [,]", {"x": "a"}, ERROR),
    ("x in ['a',,]", {"x": "a"}, ERROR),
    ("x in ['a',,'b']", {"x": "a"}, ERROR),
    ("x in []", {"x": "a"}, False),
    ("x not in []", {"x": "a"}, True),
    ("n in [1, 2, 3]", {"n": 2}, True),
    ("n in [4, 5]", {"n": 2}, False),
    ("c not in ['after-impl', 'after-review']", {"c": "none"}, True),
    ("c not in ['after-impl', 'after-review']", {"c": "after-impl"}, False),
    # trailing commas in calls
    ("len('abc',) == 3", {}, True),
    ("'a,b,c'.split(',',) == ['a','b','c']", {}, True),
    ("s.lower(,) == 'hello'", {"s": "HELLO"}, ERROR),
    # ordering booleans: against 'true'/'false', numbers and each other
    ("flag >= 'true'", {"flag": True}, True),
    ("off <= 'false'", {"off": False}, True),
    ("flag > 'false'", {"flag": True}, True),
    ("off < 'true'", {"off": False}, True),
    ("flag >= 1", {"flag": True}, True),
    ("off <= 0", {"off": False}, True),
    ("flag > 0", {"flag": True}, True),
    ("off > 0", {"off": False}, False),
    ("a > b", {"a": True, "b": False}, True),
    ("b < a", {"a": True, "b": False}, True),
    ("a >= a", {"a": True}, True),
    ("b <= b", {"b": False}, True),
    # bracket access and the guarded-null idiom
    ("scope['has_ambiguities']", {"scope": {"has_ambiguities": True}}, True),
    ("scope['has_ambiguities'] == 'true'", {"scope": {"has_ambiguities": True}}, True),
    ("scope and scope['has_ambiguities']", {"scope": {"has_ambiguities": True}}, True),
    ("items[1] == 'beta'", {"items": ["alpha", "beta"]}, True),
    (GUARDED_NULL, {"found": {"confirmed_count": 3}}, True),
    (GUARDED_NULL, {"found": {"rejected_count": 1}}, False),
    (GUARDED_NULL, {"found": None}, False),
    (GUARDED_NULL, {}, False),
    ("missing < 3", {}, False),
    ("3 >= missing", {}, False),
    # postfix access inside call arguments
    ("name.startswith(prefixes['default'])", {"name": "alpha-beta", "prefixes": {"default": "alpha"}}, True),
    ("len(config.items) == 3", {"config": {"items": [1, 2, 3]}}, True),
    # && and || spell and / or
    ("a == 'yes' && b == 'yes'", {"a": "yes", "b": "yes"}, True),
    ("a == 'yes' && b == 'no'", {"a": "yes", "b": "yes"}, False),
    ("a == 'yes' || b == 'yes'", {"a": "no", "b": "yes"}, True),
    ("met != 'true' && commit.pushed == 'true'", {"met": "false", "commit": {"pushed": "true"}}, True),
    ("a & b", {}, ERROR),
    # names, null and emptiness
    ("my-var == 'hello'", {"my-var": "hello"}, True),
    ("my-long-var-name == 'value'", {"my-long-var-name": "value"}, True),
    ("x", {"x": "-3"}, True),
    ("obj.missing", {"obj": {}}, False),
    ("data.nested.val == 'deep'", {"data": {"nested": {"val": "deep"}}}, True),
    ("a or nonexistent", {"a": True}, True),
    ("a and nonexistent", {"a": False}, False),
    ("v", {"v": None}, False),
    ("v == 'hello'", {"v": None}, False),
    ("s", {"s": ""}, False),
    ("novar", {}, False),
    ("len(s) == 0", {"s": ""}, True),
    ("len(a) == 0", {"a": []}, True),
    # methods on empty strings, numbers, booleans and null
    ("s.strip() == '' and s.upper() == '' and s.lower() == ''", {"s": ""}, True),
    ("count.strip() == '1'", {"count": 1}, True),
    ("flag.strip() == 'true'", {"flag": True}, True),
    ("missing.strip() == ''", {}, True),
    ("missing.lower().startswith('x')", {}, False),
    ("n.lower() == '42'", {"n": 42}, True),
    ("text.replace('world', 'rust') == 'hello rust'", {"text": "hello world"}, True),
    ("int(num) == 42", {"num": "42"}, True),
    # numbers
    ("n", {"n": 0}, False),
    ("n == 0", {"n": 0}, True),
    ("n < 0 and n == -1", {"n": -1}, True),
    ("n > 0 and n == 999999999", {"n": 999999999}, True),
    ("count == '1'", {"count": 1}, True),
    # refused outright
    ("", {}, ERROR),
    ("   ", {}, ERROR),
    ("__import__('os')", {}, ERROR),
    ("text.system()", {"text": "x"}, ERROR),
    ("== ['a']", {}, ERROR),
    ("'{{result}}' == 'ok'", {"result": "ok"}, ERROR),
    ('"{{ steps.build.output }}" != ""', {}, ERROR),
    ("x" * 8193, {}, ERROR),
]


@pytest.mark.parametrize("expression,variables,expected", CASES, ids=lambda value: str(value)[:60])
def test_runner_case(expression, variables, expected):
    if expected == ERROR:
        with pytest.raises(ConditionError):
            evaluate(expression, variables)
    else:
        assert evaluate(expression, variables) is expected


def test_error_names_the_position():
    with pytest.raises(ConditionError, match="position 0"):
        evaluate("== ['a']", {})


def test_quoted_template_is_refused_with_the_fix():
    with pytest.raises(ConditionError) as caught:
        evaluate("'{{result}}' == 'ok'", {"result": "ok"})
    assert "write result, not '{{result}}'" in str(caught.value)


def test_braces_that_are_not_a_template_are_plain_text():
    assert evaluate("s == '{not a template}'", {"s": "{not a template}"}) is True
    assert evaluate("'{{' in s", {"s": "a {{ b"}) is True


def test_long_and_deep_but_legal_expressions():
    assert evaluate("(" * 60 + "x == 'a'" + ")" * 60, {"x": "a"}) is True
    assert evaluate(" or ".join(f"x == '{i}'" for i in range(200)), {"x": "199"}) is True
    assert evaluate(" and ".join(f"x{i} == {i}" for i in range(200)), {f"x{i}": i for i in range(200)}) is True
    with pytest.raises(ConditionError):
        evaluate("(" * 70 + "x" + ")" * 70, {"x": "a"})


@pytest.mark.parametrize("seed", range(5))
def test_random_equality_and_membership_hold(seed):
    """The runner's property tests: var == 'v' and var in [...] always parse and hold."""
    rng = random.Random(seed)
    for _ in range(200):
        name = rng.choice(["status", "flag", "count", "my_var", "step-id", "x"])
        value = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(rng.randint(1, 20)))
        others = ["".join(rng.choice(string.ascii_lowercase) for _ in range(5)) for _ in range(3)]
        listing = ", ".join(f"'{item}'" for item in [value, *others])
        assert evaluate(f"{name} == '{value}'", {name: value}) is True
        assert evaluate(f"{name} in [{listing}]", {name: value}) is True
        assert evaluate(f"{name} not in [{listing}]", {name: "ZZZZ_ABSENT"}) is True


@pytest.mark.parametrize("seed", range(3))
def test_arbitrary_text_never_crashes(seed):
    rng = random.Random(seed)
    alphabet = string.printable + "{}[]()'\"&|!=<>"
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        try:
            evaluate(text, {"x": 1, "s": "a"})
        except ConditionError:
            pass
