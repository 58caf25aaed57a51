"""Tokens → a tree of tuples, by recursive descent over the grammar in the package docstring.

Trees are tuples ``(kind, ...)``; kinds: lit var attr index call method not
and or cmp list neg. The parser also enforces what may be called (the
``FUNCTIONS`` and ``STRING_METHODS`` whitelists), the size of the text and
how deeply it nests, so a tree that parses is one the evaluator may run.
"""

from __future__ import annotations

from collections.abc import Callable

from dp.recipes.conditions.tokens import Token, tokenize
from dp.recipes.conditions.values import ConditionError

MAX_EXPRESSION_BYTES = 8 * 1024
MAX_NESTING = 64

FUNCTIONS = ("int", "str", "len", "bool", "float", "min", "max")
STRING_METHODS = (
    "strip", "lstrip", "rstrip", "lower", "upper", "title", "startswith", "endswith",
    "replace", "split", "join", "count", "find",
)
_LITERALS = {"true": True, "false": False, "null": None, "none": None}
_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def parse(text: str) -> tuple:
    """The tree of ``text``; ConditionError (with a position where there is one) otherwise."""
    return _Parser(text).parse()


class _Parser:
    def __init__(self, text: str):
        if not isinstance(text, str):
            raise ConditionError("a condition must be a string")
        if len(text.encode()) > MAX_EXPRESSION_BYTES:
            raise ConditionError(f"condition is longer than {MAX_EXPRESSION_BYTES // 1024} KB")
        if not text.strip():
            raise ConditionError("condition is empty")
        self.tokens = tokenize(text)
        self.pos = 0
        self.depth = 0

    def parse(self) -> tuple:
        tree = self._or()
        token = self._peek()
        if token.kind != "end":
            raise ConditionError(f"unexpected {token.describe()} at position {token.pos}")
        return tree

    # helpers
    def _peek(self, offset: int = 0) -> Token:
        return self.tokens[min(self.pos + offset, len(self.tokens) - 1)]

    def _next(self) -> Token:
        token = self._peek()
        self.pos += 1
        return token

    def _accept(self, kind: str, *values: str) -> Token | None:
        token = self._peek()
        if token.kind == kind and (not values or token.value in values):
            self.pos += 1
            return token
        return None

    def _is(self, offset: int, kind: str, value: str) -> bool:
        token = self._peek(offset)
        return token.kind == kind and token.value == value

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
            op = self._comparison_operator()
            if op is None:
                break
            pairs.append((op, self._unary()))
        return first if not pairs else ("cmp", first, pairs)

    def _comparison_operator(self) -> str | None:
        """The comparison operator at the cursor (consumed), or None."""
        token = self._peek()
        if token.kind == "op" and token.value in _COMPARISONS:
            return self._next().value
        if self._accept("kw", "in"):
            return "in"
        if self._is(0, "kw", "not") and self._is(1, "kw", "in"):
            self.pos += 2
            return "not in"
        return None

    def _unary(self) -> tuple:
        if self._accept("op", "-"):
            return ("neg", self._nested(self._unary))
        return self._postfix()

    def _postfix(self) -> tuple:
        node = self._primary()
        while True:
            if self._accept("op", "."):
                node = self._member(node)
            elif self._accept("op", "["):
                key = self._nested(self._or)
                self._expect_op("]")
                node = ("index", node, key)
            elif self._is(0, "op", "("):
                raise ConditionError(
                    f"only the functions {', '.join(FUNCTIONS)} and string methods can be called"
                )
            else:
                return node

    def _member(self, node: tuple) -> tuple:
        """What follows a '.': an attribute, or a call of a whitelisted string method."""
        token = self._next()
        if token.kind not in ("name", "kw"):
            raise ConditionError(f"expected a name after '.' at position {token.pos}")
        name = str(token.value)
        if not self._accept("op", "("):
            return ("attr", node, name)
        if name not in STRING_METHODS:
            raise ConditionError(
                f"method '{name}' is not allowed; allowed: {', '.join(STRING_METHODS)}"
            )
        return ("method", node, name, self._items(")"))

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
            return self._name(token)
        if token.kind == "op" and token.value == "(":
            node = self._nested(self._or)
            self._expect_op(")")
            return node
        if token.kind == "op" and token.value == "[":
            return ("list", self._items("]"))
        raise ConditionError(f"unexpected {token.describe()} at position {token.pos}")

    def _name(self, token: Token) -> tuple:
        """A variable, or a call of a whitelisted function."""
        if not self._accept("op", "("):
            return ("var", token.value)
        if token.value not in FUNCTIONS:
            raise ConditionError(
                f"function '{token.value}' is not allowed; allowed: {', '.join(FUNCTIONS)}"
            )
        return ("call", token.value, self._items(")"))
