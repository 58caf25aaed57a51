"""The condition language: every operator, function, method, coercion and error."""

import pytest

from dp.recipes.conditions import ConditionError, check, evaluate, string_form

VARS = {
    "count": 1,
    "zero": 0,
    "ratio": 2.5,
    "flag": True,
    "off": False,
    "name": "test_login",
    "padded": "  Hello World  ",
    "csv": "a,b,c",
    "empty": "",
    "items": [1, 2, 3],
    "words": ["x", "y"],
    "nothing": None,
    "result": {"status": "ok", "failed": 0, "list": [{"id": "first"}], "nested": {"deep": 7}},
    "run-tests": "passed",
    "numeric_text": "42",
    "version": "1.2.3",
}

TRUE_CASES = [
    # equality and inequality
    "count == 1",
    "count != 2",
    "name == 'test_login'",
    'name == "test_login"',
    "ratio == 2.5",
    "nothing == null",
    "nothing == None",
    "missing == null",
    "flag == true",
    "flag == True",
    "off == false",
    "items == [1, 2, 3]",
    "result.nested == result['nested']",
    # YAML-author coercions between numbers/booleans and their string forms
    "count == '1'",
    "'1' == count",
    "count == '1.0'",
    "ratio == '2.5'",
    "flag == 'true'",
    "flag == 'True'",
    "off == 'false'",
    "numeric_text == 42",
    "count != 'one'",
    "flag != 'yes'",
    # ordering
    "count < 2",
    "count <= 1",
    "ratio > 2",
    "ratio >= 2.5",
    "'abc' < 'abd'",
    "numeric_text > 41",
    "40 < numeric_text",
    "zero < count < ratio",
    "-1 < zero",
    "-count == -1",
    "[1, 2] < [1, 3]",
    # boolean operators, both spellings, precedence and short-circuit
    "flag and count == 1",
    "flag && count == 1",
    "off or flag",
    "off || flag",
    "not off",
    "!off",
    "not not flag",
    "off or count == 1 and flag",
    "(off or count == 1) and flag",
    "not (off and flag)",
    "off and int('oops') == 1 or flag",
    "flag or int('oops')",
    "not missing",
    "not empty",
    "not nothing",
    "not zero",
    # membership
    "'login' in name",
    "'z' not in name",
    "2 in items",
    "'2' in items",
    "4 not in items",
    "'status' in result",
    "'x' in words",
    "'a' in ['a', 'b']",
    "count in [1, 2]",
    "'b' in csv.split(',')",
    "'anything' not in missing",
    "1 in '123'",
    # access
    "result.status == 'ok'",
    "result['status'] == 'ok'",
    'result["status"] == "ok"',
    "result.list[0].id == 'first'",
    "result.list[-1]['id'] == 'first'",
    "result.nested.deep == 7",
    "items[0] == 1",
    "items[-1] == 3",
    "items[10] == null",
    "name[0] == 't'",
    "result.absent == null",
    "missing.deeper.still == null",
    "run-tests == 'passed'",
    # functions
    "int('7') == 7",
    "int(' 7 ') == 7",
    "int('7.9') == 7",
    "int(ratio) == 2",
    "int(flag) == 1",
    "float('2.5') == ratio",
    "float(count) == 1.0",
    "str(count) == '1'",
    "str(flag) == 'true'",
    "str(nothing) == ''",
    "str(items) == '[1,2,3]'",
    "len(name) == 10",
    "len(items) == 3",
    "len(result) == 4",
    "len(missing) == 0",
    "len('') == 0",
    "bool(count)",
    "not bool(empty)",
    "bool('false')",
    "min(items) == 1",
    "max(items) == 3",
    "min(3, 1, 2) == 1",
    "max('a', 'b') == 'b'",
    # string methods
    "padded.strip() == 'Hello World'",
    "padded.lstrip() == 'Hello World  '",
    "padded.rstrip() == '  Hello World'",
    "name.upper() == 'TEST_LOGIN'",
    "padded.strip().lower() == 'hello world'",
    "'hello world'.title() == 'Hello World'",
    "name.startswith('test_')",
    "name.endswith('login')",
    "name.replace('test_', '') == 'login'",
    "csv.split(',') == ['a', 'b', 'c']",
    "csv.split(',', 1) == ['a', 'b,c']",
    "'-'.join(words) == 'x-y'",
    "'+'.join(items) == '1+2+3'",
    "csv.count(',') == 2",
    "name.find('login') == 5",
    "name.find('zzz') == -1",
    "version.startswith('1.')",
    "count.startswith('1')",
    "padded.strip().split(' ')[1] == 'World'",
    # literals
    "true",
    "1",
    "'text'",
    "[0]",
    "1_000 == 1000",
    "1e3 == 1000",
    ".5 == 0.5",
    "'it\\'s' == \"it's\"",
    "'a\\nb'.split('\\n') == ['a', 'b']",
]

FALSE_CASES = [
    "count == 2",
    "count == '2'",
    "count == 'one'",
    "flag == 'false'",
    "off == 'true'",
    "off",
    "missing",
    "nothing",
    "empty",
    "zero",
    "[]",
    "false",
    "null",
    "''",
    "count > 1",
    "not flag",
    "flag and off",
    "off or zero",
    "4 in items",
    "'status' not in result",
    "'q' in missing",
    "name.startswith('prod')",
    "items[5] == 3",
    "result.status != 'ok'",
    "count == 1 and count == 2",
    "nothing == ''",
    "nothing == 0",
    "1 < 2 < 2",
]

ERROR_CASES = [
    # syntax
    ("", "empty"),
    ("   ", "empty"),
    ("count = 1", "use '=='"),
    ("count ==", "unexpected end"),
    ("(count == 1", "expected ')'"),
    ("count == 1)", "unexpected ')'"),
    ("count == 1 flag", "unexpected 'flag'"),
    ("count 1", "unexpected '1'"),
    ("'unterminated", "unterminated string"),
    ("count ; rm", "unexpected character ';'"),
    ("a ~ b", "unexpected character '~'"),
    ("[1, 2", "expected ','"),
    ("1.2.3 == 1", "bad number"),
    ("{{count}} > 1", "use variables directly"),
    # no dunders, no other calls
    ("name.__class__", "'__'"),
    ("__import__('os')", "'__'"),
    ("result['__class__']", "'__'"),
    ("open('x')", "function 'open' is not allowed"),
    ("eval('1')", "function 'eval' is not allowed"),
    ("name.format(1)", "method 'format' is not allowed"),
    ("name.encode()", "method 'encode' is not allowed"),
    ("result.status()", "method 'status' is not allowed"),
    ("(name)('x')", "can be called"),
    ("items[0](1)", "can be called"),
    # runtime errors fail closed
    ("int('abc') == 1", "int() cannot convert"),
    ("float('x') > 1", "float() cannot convert"),
    ("int(1, 2)", "exactly one argument"),
    ("len(count)", "len() needs"),
    ("min() == 1", "at least one"),
    ("min(1, 'a')", "mixed types"),
    ("name > 3", "cannot compare a string > a number"),
    ("result > 1", "cannot compare"),
    ("items.strip()", "works on strings"),
    ("csv.split(1.5)", "takes strings and integers"),
    ("','.join(csv)", "takes one list"),
    ("-name", "cannot negate"),
    ("-flag", "cannot negate"),
    ("items in 'abc'", "cannot look for a list"),
    ("1 in count", "'in' needs"),
    ("count.key", "cannot look up"),
    ("items['key']", "cannot look up"),
]


@pytest.mark.parametrize("expression", TRUE_CASES)
def test_true(expression):
    assert evaluate(expression, VARS) is True


@pytest.mark.parametrize("expression", FALSE_CASES)
def test_false(expression):
    assert evaluate(expression, VARS) is False


@pytest.mark.parametrize("expression,fragment", ERROR_CASES)
def test_errors(expression, fragment):
    with pytest.raises(ConditionError) as caught:
        evaluate(expression, VARS)
    assert fragment in str(caught.value)


def test_check_catches_syntax_without_evaluating():
    check("int(missing) == 1")  # would fail at run time, parses fine
    with pytest.raises(ConditionError):
        check("count ==")


def test_expressions_over_8_kb_are_rejected():
    long = " or ".join(["count == 1"] * 1000)
    assert len(long) > 8192
    with pytest.raises(ConditionError, match="8 KB"):
        evaluate(long, VARS)


@pytest.mark.parametrize("expression", ["(" * 200 + "1" + ")" * 200, "not " * 200 + "flag",
                                        "[" * 200 + "]" * 200, "-" * 200 + "1"])
def test_deep_nesting_is_rejected(expression):
    with pytest.raises(ConditionError, match="nested"):
        evaluate(expression, VARS)


def test_result_size_is_bounded():
    huge = {"s": "x" * 1_000_000}
    with pytest.raises(ConditionError, match="too large"):
        evaluate("s.replace('x', 'yyyyyyyyyyyyyyyy') == ''", huge)


def test_context_is_never_modified():
    variables = {"items": [3, 1, 2], "text": "Ab"}
    evaluate("min(items) == 1 and text.lower() == 'ab'", variables)
    assert variables == {"items": [3, 1, 2], "text": "Ab"}


@pytest.mark.parametrize("value,text", [
    (None, ""), (True, "true"), (False, "false"), (3, "3"), (2.5, "2.5"), ("s", "s"),
    ([1, "a"], '[1,"a"]'), ({"k": 1}, '{"k":1}'),
])
def test_string_form(value, text):
    assert string_form(value) == text


@pytest.mark.parametrize("expression", ["s.replace('', s) == ''", "s.join([s, s, s]) == ''"])
def test_result_size_is_checked_before_building_it(expression):
    """A multiplying replace/join is refused up front, not after exhausting memory."""
    with pytest.raises(ConditionError, match="would be too large"):
        evaluate(expression, {"s": "x" * 4_000_000})
