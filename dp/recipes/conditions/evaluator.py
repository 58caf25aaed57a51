"""A parsed condition → its value, against the run's variables.

Every operation checks its operands' types and says what it got when they
do not fit (``cannot compare a list < a number``); names starting with
``__`` are refused again at lookup (a key can be computed), and a string
method whose result would pass ``MAX_RESULT_CHARS`` is refused before it
builds it, so a run's outputs cannot make a condition exhaust memory.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dp.recipes.conditions.values import ConditionError, as_number, describe, equal, numeric, string_form, type_name

MAX_RESULT_CHARS = 10_000_000


def run(tree: tuple, variables: dict[str, Any]) -> Any:
    """The value of a parsed condition; RecursionError passes through (the caller words it)."""
    return _eval(tree, variables)

def _eval(node: tuple, variables: dict[str, Any]) -> Any:
    return _EVALUATORS[node[0]](node, variables)


def _eval_var(node, variables):
    return variables.get(node[1])


def _eval_attr(node, variables):
    return _lookup(_eval(node[1], variables), node[2])


def _eval_index(node, variables):
    return _lookup(_eval(node[1], variables), _eval(node[2], variables))


def _lookup(container: Any, key: Any) -> Any:
    if container is None:
        return None
    if isinstance(key, str) and key.startswith("__"):
        raise ConditionError(f"'{key}': names starting with '__' are not allowed")
    if isinstance(container, dict):
        return container.get(key) if isinstance(key, str) else container.get(string_form(key))
    if isinstance(container, (list, str)) and isinstance(key, int) and not isinstance(key, bool):
        return container[key] if -len(container) <= key < len(container) else None
    raise ConditionError(f"cannot look up {key!r} in {type_name(container)}")


def _eval_not(node, variables):
    return not bool(_eval(node[1], variables))


def _eval_and(node, variables):
    value: Any = True
    for part in node[1]:
        value = _eval(part, variables)
        if not bool(value):
            return value
    return value


def _eval_or(node, variables):
    value: Any = False
    for part in node[1]:
        value = _eval(part, variables)
        if bool(value):
            return value
    return value


def _eval_neg(node, variables):
    value = _eval(node[1], variables)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConditionError(f"cannot negate {type_name(value)}")
    return -value


def _eval_list(node, variables):
    return [_eval(item, variables) for item in node[1]]


def _eval_cmp(node, variables):
    left = _eval(node[1], variables)
    for op, right_node in node[2]:
        right = _eval(right_node, variables)
        if not _compare(op, left, right):
            return False
        left = right
    return True


def _compare(op: str, left: Any, right: Any) -> bool:
    if op == "==":
        return equal(left, right)
    if op == "!=":
        return not equal(left, right)
    if op == "in":
        return _contains(right, left)
    if op == "not in":
        return not _contains(right, left)
    if left is None or right is None:
        # A missing value is not smaller or larger than anything: the guard
        # `x and x['count'] > 0` is false when the key is absent, not an error.
        return False
    if isinstance(left, bool) or isinstance(right, bool):
        left, right = _bool_text(left), _bool_text(right)
    a, b = _orderable(left, right, op)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _bool_text(value: Any) -> Any:
    """'true'/'false' (any case) as a boolean, when ordered against a boolean."""
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return value




def _orderable(left: Any, right: Any, op: str) -> tuple[Any, Any]:
    """Operands ``<`` can order, or ConditionError.

    Booleans order as 0 and 1, also against ``'true'``/``'false'`` and numbers
    (the recipe runner's rule, so ``flag >= 'true'`` holds when flag is true).
    """
    left, right = _ordinal(left), _ordinal(right)
    if numeric(left) and numeric(right):
        return left, right
    if isinstance(left, str) and isinstance(right, str):
        return left, right
    if numeric(left) and isinstance(right, str) and as_number(right) is not None:
        return left, as_number(right)
    if numeric(right) and isinstance(left, str) and as_number(left) is not None:
        return as_number(left), right
    if isinstance(left, list) and isinstance(right, list):
        return left, right
    raise ConditionError(f"cannot compare {type_name(left)} {op} {type_name(right)}")



def _ordinal(value: Any) -> Any:
    """A boolean, or the text 'true'/'false' beside one, as 1 or 0 for ordering."""
    if isinstance(value, bool):
        return int(value)
    return value


def _contains(container: Any, item: Any) -> bool:
    if container is None:
        return False
    if isinstance(container, str):
        if isinstance(item, (dict, list)) or item is None:
            raise ConditionError(f"cannot look for {type_name(item)} in a string")
        return string_form(item) in container
    if isinstance(container, list):
        return any(equal(item, element) for element in container)
    if isinstance(container, dict):
        return string_form(item) in container
    raise ConditionError(f"'in' needs a string, list or mapping on the right, not {type_name(container)}")


def _eval_call(node, variables):
    args = [_eval(arg, variables) for arg in node[2]]
    return _FUNCTION_IMPLS[node[1]](args)


def _eval_method(node, variables):
    value = _eval(node[1], variables)
    name = node[2]
    args = [_eval(arg, variables) for arg in node[3]]
    receiver = _receiver(value, name)
    if name == "join":
        return _join(receiver, args)
    for arg in args:
        if not (isinstance(arg, str) or (isinstance(arg, int) and not isinstance(arg, bool))):
            raise ConditionError(f".{name}() takes strings and integers, not {type_name(arg)}")
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str) \
            and isinstance(args[1], str):
        # Checked before building it: each replace can multiply the length
        # ('x'.replace('', long)), so a chain of them would exhaust memory.
        _check_size(name, len(receiver) + receiver.count(args[0]) * (len(args[1]) - len(args[0])))
    try:
        return getattr(receiver, name)(*args)
    except (TypeError, ValueError) as exc:
        raise ConditionError(f".{name}(): {exc}") from None


def _receiver(value: Any, method: str) -> str:
    """The string a method is called on: null reads as '', numbers and booleans as their text."""
    if value is None:
        return ""  # a missing value reads as '' (string_form), so x.strip() == '' holds
    if isinstance(value, (bool, int, float)):
        return string_form(value)
    if not isinstance(value, str):
        raise ConditionError(f".{method}() works on strings, not {type_name(value)}")
    return value


def _join(separator: str, args: list) -> str:
    if len(args) != 1 or not isinstance(args[0], list):
        raise ConditionError(".join() takes one list")
    parts = [string_form(item) for item in args[0]]
    _check_size("join", sum(map(len, parts)) + len(separator) * max(0, len(parts) - 1))
    return separator.join(parts)


def _check_size(method: str, length: int) -> None:
    if length > MAX_RESULT_CHARS:
        raise ConditionError(f".{method}() result would be too large ({length:,} characters)")


def _fn_int(args):
    value = _one_arg("int", args)
    try:
        if isinstance(value, str):
            text = value.strip()
            return int(text) if text.lstrip("+-").isdigit() else int(float(text))
        return int(value)
    except (TypeError, ValueError, OverflowError):
        raise ConditionError(f"int() cannot convert {describe(value)}") from None


def _fn_float(args):
    value = _one_arg("float", args)
    try:
        return float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError):
        raise ConditionError(f"float() cannot convert {describe(value)}") from None


def _fn_str(args):
    return string_form(_one_arg("str", args))


def _fn_bool(args):
    return bool(_one_arg("bool", args))


def _fn_len(args):
    value = _one_arg("len", args)
    if value is None:
        return 0
    if isinstance(value, (str, list, dict)):
        return len(value)
    raise ConditionError(f"len() needs a string, list or mapping, not {type_name(value)}")


def _extreme(name: str, pick: Callable) -> Callable:
    def run(args):
        values = args[0] if len(args) == 1 and isinstance(args[0], list) else args
        if not values:
            raise ConditionError(f"{name}() needs at least one value")
        try:
            return pick(values)
        except TypeError:
            raise ConditionError(f"{name}() cannot compare mixed types") from None
    return run


def _one_arg(name: str, args: list) -> Any:
    if len(args) != 1:
        raise ConditionError(f"{name}() takes exactly one argument ({len(args)} given)")
    return args[0]




_FUNCTION_IMPLS: dict[str, Callable[[list], Any]] = {
    "int": _fn_int,
    "str": _fn_str,
    "len": _fn_len,
    "bool": _fn_bool,
    "float": _fn_float,
    "min": _extreme("min", min),
    "max": _extreme("max", max),
}

_EVALUATORS: dict[str, Callable[[tuple, dict], Any]] = {
    "lit": lambda node, _: node[1],
    "var": _eval_var,
    "attr": _eval_attr,
    "index": _eval_index,
    "call": _eval_call,
    "method": _eval_method,
    "not": _eval_not,
    "and": _eval_and,
    "or": _eval_or,
    "cmp": _eval_cmp,
    "neg": _eval_neg,
    "list": _eval_list,
}
