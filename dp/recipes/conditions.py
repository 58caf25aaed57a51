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
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Optional

MAX_EXPRESSION_BYTES = 8 * 1024
MAX_NESTING = 64
MAX_RESULT_CHARS = 10_000_000

FUNCTIONS = ("int", "str", "len", "bool", "float", "min", "max")
STRING_METHODS = (
    "strip", "lstrip", "rstrip", "lower", "upper", "title", "startswith", "endswith",
    "replace", "split", "join", "count", "find",
)
_KEYWORDS = {"and", "or", "not", "in", "true", "false", "null", "none"}
_LITERALS = {"true": True, "false": False, "null": None, "none": None}
_TWO_CHAR_OPS = ("==", "!=", "<=", ">=", "&&", "||")
_ONE_CHAR_OPS = "<>()[],.!-"
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0"}


class ConditionError(Exception):
    """A condition that cannot be parsed or evaluated; the step fails (closed)."""


def check(expression: str) -> None:
    """Parse ``expression`` without evaluating it (recipe validation)."""
    _Parser(expression).parse()


def evaluate(expression: str, variables: dict[str, Any]) -> bool:
    """Whether ``expression`` holds for ``variables``; ConditionError when it cannot say."""
    tree = _Parser(expression).parse()
    try:
        return bool(_eval(tree, variables))
    except RecursionError:
        raise ConditionError("condition is nested too deeply") from None


def string_form(value: Any) -> str:
    """How a value reads as text: YAML-style booleans, '' for null, JSON for collections.

    Shared with template rendering so that ``{{flag}}`` and ``str(flag)`` agree.
    """
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


# --- tokenizer ---------------------------------------------------------------

class _Token:
    __slots__ = ("kind", "value", "pos")

    def __init__(self, kind: str, value: Any, pos: int):
        self.kind = kind  # str num name kw op end
        self.value = value
        self.pos = pos

    def describe(self) -> str:
        if self.kind == "end":
            return "end of condition"
        if self.kind == "str":
            return f"string {self.value!r}"
        return repr(str(self.value))


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in "'\"":
            start = i
            value, i = _read_string(text, i)
            _reject_template(value, start)
            tokens.append(_Token("str", value, i))
        elif ch.isdigit() or (ch == "." and i + 1 < n and text[i + 1].isdigit()):
            start = i
            while i < n and (text[i].isdigit() or text[i] in "._eE" or
                             (text[i] in "+-" and text[i - 1] in "eE")):
                i += 1
            tokens.append(_Token("num", _number(text[start:i], start), start))
        elif ch.isalpha() or ch == "_":
            start = i
            while i < n and (text[i].isalnum() or text[i] in "_-"):
                i += 1
            word = text[start:i]
            if "__" in word:
                raise ConditionError(f"'{word}': names containing '__' are not allowed")
            lowered = word.lower()
            if lowered in _KEYWORDS and (word == lowered or lowered in ("true", "false", "none")):
                tokens.append(_Token("kw", lowered, start))
            else:
                tokens.append(_Token("name", word, start))
        elif text.startswith(_TWO_CHAR_OPS, i):
            tokens.append(_Token("op", text[i:i + 2], i))
            i += 2
        elif ch in _ONE_CHAR_OPS:
            tokens.append(_Token("op", ch, i))
            i += 1
        elif ch == "=":
            raise ConditionError(f"'=' at position {i}: use '==' to compare")
        elif ch == "{" and text.startswith("{{", i):
            raise ConditionError(
                "conditions use variables directly: write 'count > 1', not '{{count}} > 1'"
            )
        else:
            raise ConditionError(f"unexpected character {ch!r} at position {i}")
    tokens.append(_Token("end", None, n))
    return tokens


_TEMPLATE = re.compile(r"\{\{\s*([A-Za-z_][\w.\-]*)[^{}]*\}\}")


def _reject_template(value: str, pos: int) -> None:
    """A quoted ``'{{result}}'`` compares the template's text, never the value: refuse it."""
    match = _TEMPLATE.search(value)
    if match:
        name = match.group(1)
        raise ConditionError(
            f"template '{match.group(0)}' inside a quoted string at position {pos}: conditions "
            f"use variables directly, write {name}, not '{{{{{name}}}}}'"
        )


def _read_string(text: str, start: int) -> tuple[str, int]:
    quote = text[start]
    out: list[str] = []
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == quote:
            return "".join(out), i + 1
        if ch == "\\" and i + 1 < len(text):
            out.append(_ESCAPES.get(text[i + 1], "\\" + text[i + 1]))
            i += 2
            continue
        out.append(ch)
        i += 1
    raise ConditionError(f"unterminated string starting at position {start}")


def _number(text: str, pos: int) -> float | int:
    try:
        return int(text.replace("_", ""))
    except ValueError:
        pass
    try:
        return float(text.replace("_", ""))
    except ValueError:
        raise ConditionError(f"bad number {text!r} at position {pos}") from None


# --- parser ------------------------------------------------------------------
# Trees are tuples: (kind, ...). Kinds: lit var attr index call method not and
# or cmp list neg.

_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


class _Parser:
    def __init__(self, text: str):
        if not isinstance(text, str):
            raise ConditionError("a condition must be a string")
        if len(text.encode()) > MAX_EXPRESSION_BYTES:
            raise ConditionError(f"condition is longer than {MAX_EXPRESSION_BYTES // 1024} KB")
        if not text.strip():
            raise ConditionError("condition is empty")
        self.tokens = _tokenize(text)
        self.pos = 0
        self.depth = 0

    def parse(self) -> tuple:
        tree = self._or()
        token = self._peek()
        if token.kind != "end":
            raise ConditionError(f"unexpected {token.describe()} at position {token.pos}")
        return tree

    # helpers
    def _peek(self, offset: int = 0) -> _Token:
        return self.tokens[min(self.pos + offset, len(self.tokens) - 1)]

    def _next(self) -> _Token:
        token = self._peek()
        self.pos += 1
        return token

    def _accept(self, kind: str, *values: str) -> Optional[_Token]:
        token = self._peek()
        if token.kind == kind and (not values or token.value in values):
            self.pos += 1
            return token
        return None

    def _expect_op(self, op: str) -> None:
        token = self._next()
        if token.kind != "op" or token.value != op:
            raise ConditionError(f"expected '{op}' but found {token.describe()} at position {token.pos}")

    def _nested(self, parse: Callable[[], tuple]) -> tuple:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise ConditionError(f"condition is nested more than {MAX_NESTING} levels deep")
        try:
            return parse()
        finally:
            self.depth -= 1

    # grammar
    def _or(self) -> tuple:
        parts = [self._and()]
        while self._accept("kw", "or") or self._accept("op", "||"):
            parts.append(self._and())
        return parts[0] if len(parts) == 1 else ("or", parts)

    def _and(self) -> tuple:
        parts = [self._not()]
        while self._accept("kw", "and") or self._accept("op", "&&"):
            parts.append(self._not())
        return parts[0] if len(parts) == 1 else ("and", parts)

    def _not(self) -> tuple:
        if self._accept("kw", "not") or self._accept("op", "!"):
            return ("not", self._nested(self._not))
        return self._comparison()

    def _comparison(self) -> tuple:
        first = self._unary()
        pairs = []
        while True:
            token = self._peek()
            if token.kind == "op" and token.value in _COMPARISONS:
                op = self._next().value
            elif token.kind == "kw" and token.value == "in":
                self._next()
                op = "in"
            elif token.kind == "kw" and token.value == "not" and self._peek(1).kind == "kw" \
                    and self._peek(1).value == "in":
                self.pos += 2
                op = "not in"
            else:
                break
            pairs.append((op, self._unary()))
        return first if not pairs else ("cmp", first, pairs)

    def _unary(self) -> tuple:
        if self._accept("op", "-"):
            return ("neg", self._nested(self._unary))
        return self._postfix()

    def _postfix(self) -> tuple:
        node = self._primary()
        while True:
            if self._accept("op", "."):
                token = self._next()
                if token.kind not in ("name", "kw"):
                    raise ConditionError(f"expected a name after '.' at position {token.pos}")
                name = str(token.value)
                if self._accept("op", "("):
                    if name not in STRING_METHODS:
                        raise ConditionError(
                            f"method '{name}' is not allowed; allowed: {', '.join(STRING_METHODS)}"
                        )
                    node = ("method", node, name, self._arguments())
                else:
                    node = ("attr", node, name)
            elif self._accept("op", "["):
                key = self._nested(self._or)
                self._expect_op("]")
                node = ("index", node, key)
            elif self._peek().kind == "op" and self._peek().value == "(":
                raise ConditionError(
                    f"only the functions {', '.join(FUNCTIONS)} and string methods can be called"
                )
            else:
                return node

    def _arguments(self) -> list[tuple]:
        return self._items(")")

    def _items(self, close: str) -> list[tuple]:
        """Comma-separated expressions up to ``close``; one trailing comma is allowed.

        ``[a, b,]`` and ``len(x,)`` read like Python (the recipe runner accepts
        them too); ``[,]`` and ``[a,,]`` are still errors.
        """
        items: list[tuple] = []
        if self._accept("op", close):
            return items
        while True:
            items.append(self._nested(self._or))
            if self._accept("op", close):
                return items
            self._expect_op(",")
            if self._accept("op", close):
                return items

    def _primary(self) -> tuple:
        token = self._next()
        if token.kind in ("str", "num"):
            return ("lit", token.value)
        if token.kind == "kw" and token.value in _LITERALS:
            return ("lit", _LITERALS[token.value])
        if token.kind == "name":
            if self._accept("op", "("):
                if token.value not in FUNCTIONS:
                    raise ConditionError(
                        f"function '{token.value}' is not allowed; allowed: {', '.join(FUNCTIONS)}"
                    )
                return ("call", token.value, self._arguments())
            return ("var", token.value)
        if token.kind == "op" and token.value == "(":
            node = self._nested(self._or)
            self._expect_op(")")
            return node
        if token.kind == "op" and token.value == "[":
            return ("list", self._items("]"))
        raise ConditionError(f"unexpected {token.describe()} at position {token.pos}")


# --- evaluator ---------------------------------------------------------------

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
    raise ConditionError(f"cannot look up {key!r} in {_type_name(container)}")


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
        raise ConditionError(f"cannot negate {_type_name(value)}")
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


def equal(left: Any, right: Any) -> bool:
    """Equality the way a YAML author expects: 1 == '1', true == 'true'."""
    if isinstance(left, str) and not isinstance(right, str):
        left, right = right, left
    if isinstance(right, str) and not isinstance(left, str):
        if isinstance(left, bool):
            return string_form(left) == right.strip().lower()
        if isinstance(left, (int, float)):
            number = _as_number(right)
            return number is not None and number == left
        return False
    return left == right


def _as_number(text: str) -> Optional[float]:
    try:
        return float(text.strip())
    except ValueError:
        return None


def _orderable(left: Any, right: Any, op: str) -> tuple[Any, Any]:
    """Operands ``<`` can order, or ConditionError.

    Booleans order as 0 and 1, also against ``'true'``/``'false'`` and numbers
    (the recipe runner's rule, so ``flag >= 'true'`` holds when flag is true).
    """
    left, right = _ordinal(left), _ordinal(right)
    if _numeric(left) and _numeric(right):
        return left, right
    if isinstance(left, str) and isinstance(right, str):
        return left, right
    if _numeric(left) and isinstance(right, str) and _as_number(right) is not None:
        return left, _as_number(right)
    if _numeric(right) and isinstance(left, str) and _as_number(left) is not None:
        return _as_number(left), right
    if isinstance(left, list) and isinstance(right, list):
        return left, right
    raise ConditionError(f"cannot compare {_type_name(left)} {op} {_type_name(right)}")


def _numeric(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


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
            raise ConditionError(f"cannot look for {_type_name(item)} in a string")
        return string_form(item) in container
    if isinstance(container, list):
        return any(equal(item, element) for element in container)
    if isinstance(container, dict):
        return string_form(item) in container
    raise ConditionError(f"'in' needs a string, list or mapping on the right, not {_type_name(container)}")


def _eval_call(node, variables):
    args = [_eval(arg, variables) for arg in node[2]]
    return _FUNCTION_IMPLS[node[1]](args)


def _eval_method(node, variables):
    receiver = _eval(node[1], variables)
    name = node[2]
    args = [_eval(arg, variables) for arg in node[3]]
    if receiver is None:
        receiver = ""  # a missing value reads as '' (string_form), so x.strip() == '' holds
    if isinstance(receiver, (bool, int, float)):
        receiver = string_form(receiver)
    if not isinstance(receiver, str):
        raise ConditionError(f".{name}() works on strings, not {_type_name(receiver)}")
    if name == "join":
        if len(args) != 1 or not isinstance(args[0], list):
            raise ConditionError(".join() takes one list")
        parts = [string_form(item) for item in args[0]]
        _check_size(name, sum(map(len, parts)) + len(receiver) * max(0, len(parts) - 1))
        return receiver.join(parts)
    for arg in args:
        if not (isinstance(arg, str) or (isinstance(arg, int) and not isinstance(arg, bool))):
            raise ConditionError(f".{name}() takes strings and integers, not {_type_name(arg)}")
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str) \
            and isinstance(args[1], str):
        # Checked before building it: each replace can multiply the length
        # ('x'.replace('', long)), so a chain of them would exhaust memory.
        _check_size(name, len(receiver) + receiver.count(args[0]) * (len(args[1]) - len(args[0])))
    try:
        return getattr(receiver, name)(*args)
    except (TypeError, ValueError) as exc:
        raise ConditionError(f".{name}(): {exc}") from None


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
        raise ConditionError(f"int() cannot convert {_describe(value)}") from None


def _fn_float(args):
    value = _one_arg("float", args)
    try:
        return float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError):
        raise ConditionError(f"float() cannot convert {_describe(value)}") from None


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
    raise ConditionError(f"len() needs a string, list or mapping, not {_type_name(value)}")


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


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _describe(value: Any) -> str:
    return f"{_type_name(value)} {string_form(value)[:40]!r}" if value is not None else "null"


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
