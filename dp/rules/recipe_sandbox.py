"""The Jinja2 sandbox recipe templates run in: immutable, and bounded in size, length and time.

Jinja2's own sandbox stops attribute tricks, not resource bombs:
``{{ 'a' * 999999999 }}`` (folded at compile time, even), ``range(10**9)``,
``'x'.ljust(10**9)`` or a macro that doubles a string on every call would
take the hook seconds and gigabytes. Here every operation that can grow a
value is checked *before* it allocates:

* ``*``, ``**``, ``+`` and ``%`` (which Jinja2 then no longer folds at
  compile time), string concatenation ``~``, every filter's input, every
  call's arguments: no string or list above ``MAX_SIZE``, no number above it
  where a count or width is meant, no power above ``MAX_POWER_BITS`` bits;
* only filters and methods whose output grows at most linearly with their
  input (``lower``, ``join``, ``default``, ``split``, …), no ``namespace``,
  no ``format``, no ``center``/``indent``/``wordwrap``/``replace``;
* ``range`` stops at ``MAX_RANGE`` items, output at ``MAX_OUTPUT`` characters;
* time: the hook renders under its CPU budget, ``dp alias`` under
  ``WRITE_TIME_SECONDS`` (``dp.shell.guard``).
"""

from __future__ import annotations

from dp.rules.jinja_import import load as load_jinja
from dp.rules.recipe_values import FILTERS, Missing, finalize

MAX_SIZE = 100_000
MAX_OUTPUT = 100_000
MAX_RANGE = 10_000
MAX_POWER_BITS = 256
WRITE_TIME_SECONDS = 1.0

# Jinja2 filters kept: their output is at most linear in their input.
_KEPT_FILTERS = (
    "abs", "capitalize", "count", "first", "float", "int", "last", "length", "list", "lower", "map", "max",
    "min", "reject", "reverse", "round", "select", "sort", "string", "sum", "title", "trim", "unique", "upper",
    "wordcount",
)
_STR_METHODS = frozenset({
    "lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines", "startswith",
    "endswith", "title", "capitalize", "casefold", "isdigit", "isalpha", "isalnum", "isspace",
    "islower", "isupper", "count", "find", "rfind", "index", "rindex", "partition", "rpartition",
    "removeprefix", "removesuffix",
})
_CONTAINER_METHODS = frozenset({"index", "count", "get", "keys", "values", "items"})


class TooBig(Exception):
    """A template went past a size, length or time bound."""


def size(value, depth: int = 0) -> int:
    """Characters (or items) ``value`` holds, counted into lists; small for anything else."""
    if isinstance(value, (str, bytes)):
        return len(value)
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        if depth > 2 or len(value) > MAX_SIZE:
            return len(value)
        return len(value) + sum(size(item, depth + 1) for item in value)
    return 1


def check(*values) -> None:
    """Raise TooBig for a value (or a number meant as a count or width) above MAX_SIZE."""
    for value in values:
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and abs(value) > MAX_SIZE or size(value) > MAX_SIZE:
            raise TooBig(f"a value above {MAX_SIZE:,} (characters, items or count)")


def _bounded_range(*args):
    check(*args)
    numbers = range(*args)
    if len(numbers) > MAX_RANGE:
        raise TooBig(f"range() of {len(numbers):,} items (at most {MAX_RANGE:,})")
    return numbers


def _bounded(function):
    """``function`` (a filter) refusing too big inputs; Jinja2's context-passing marks are kept."""
    passes = getattr(function, "jinja_pass_arg", None)

    def filtered(*args, **kwargs):
        check(*(args[1:] if passes else args), *kwargs.values())
        return function(*args, **kwargs)

    if passes:
        filtered.jinja_pass_arg = passes
    filtered.__name__ = getattr(function, "__name__", "filter")
    return filtered


def _join(items):
    """``~``: concatenation, refused before it outgrows MAX_SIZE."""
    texts = [str(item) for item in items]
    if sum(map(len, texts)) > MAX_SIZE:
        raise TooBig(f"a string above {MAX_SIZE:,} characters")
    return "".join(texts)


def _binop(operator: str, left, right) -> None:
    """Refuse ``left <operator> right`` when the result would be too big."""
    if operator == "*":
        for sequence, count in ((left, right), (right, left)):
            if isinstance(count, int) and size(sequence) * max(count, 0) > MAX_SIZE:
                raise TooBig(f"a repetition above {MAX_SIZE:,} characters or items")
    elif operator == "**" and isinstance(left, (int, float)) and isinstance(right, (int, float)):
        if abs(left) > 1 and right > 0 and abs(right) * int(max(abs(left), 2)).bit_length() > MAX_POWER_BITS:
            raise TooBig(f"a power above {MAX_POWER_BITS} bits")
    elif operator == "+":
        if size(left) + size(right) > MAX_SIZE:
            raise TooBig(f"a sum above {MAX_SIZE:,} characters or items")
    elif operator == "%" and isinstance(left, str):
        import re

        widths = [int(width) for width in re.findall(r"%[-#0 +]*(\d+)", left)]
        if "*" in left or any(width > MAX_SIZE for width in widths):
            raise TooBig(f"a format width above {MAX_SIZE:,}")
        check(right)


_ENVIRONMENT = None


def environment():
    """The one sandboxed environment (built on first use: importing Jinja2 costs ~30 ms)."""
    global _ENVIRONMENT
    if _ENVIRONMENT is None:
        _ENVIRONMENT = _build()
    return _ENVIRONMENT


def _build():
    load_jinja()
    from jinja2 import Undefined
    from jinja2.compiler import CodeGenerator
    from jinja2.exceptions import UndefinedError
    from jinja2.runtime import Macro
    from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

    class MissingValue(Missing, Undefined):
        """An undefined name or index: a ``Missing`` argument to dp's filters."""

        __slots__ = ()

    class Generator(CodeGenerator):
        def visit_Concat(self, node, frame):
            self.write("environment.bounded_join((")
            for argument in node.nodes:
                self.visit(argument, frame)
                self.write(", ")
            self.write("))")

    class Bounded(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset({"*", "**", "+", "%"})
        code_generator_class = Generator
        bounded_join = staticmethod(_join)

        def call_binop(self, context, operator, left, right):
            _binop(operator, left, right)
            return super().call_binop(context, operator, left, right)

        def is_safe_callable(self, obj):
            owner = getattr(obj, "__self__", None)
            name = getattr(obj, "__name__", "")
            if isinstance(owner, str):
                allowed = name in _STR_METHODS
            elif isinstance(owner, (list, tuple, dict)):
                allowed = name in _CONTAINER_METHODS
            else:
                allowed = isinstance(obj, Macro) or getattr(obj, "dp_recipe_callable", False)
            if not allowed:
                raise SecurityError(f"{name or type(obj).__name__}() is not available in a recipe")
            return super().is_safe_callable(obj)

        def getattr(self, obj, attribute):
            """``args.lenght``, ``cwd.nope``: a name the value does not have is an error, never an
            empty string (a missing argument, ``arg(3)`` or ``args[5]``, stays Missing: it prints nothing)."""
            value = super().getattr(obj, attribute)
            if isinstance(value, Undefined) and not isinstance(obj, Undefined):
                raise UndefinedError(f"{type(obj).__name__} value has no attribute {attribute!r}")
            return value

        def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (Jinja2's signature)
            check(*args, *kwargs.values())
            return super().call(__context, __obj, *args, **kwargs)

    env = Bounded(finalize=finalize, undefined=MissingValue, keep_trailing_newline=True, autoescape=False)
    kept = {name: env.filters[name] for name in _KEPT_FILTERS}
    env.filters = {name: _bounded(function) for name, function in {**kept, **FILTERS}.items()}
    _bounded_range.dp_recipe_callable = True
    env.globals = {"range": _bounded_range}
    return env


def render(template, context: dict) -> str:
    """Render, stopping as soon as the output passes MAX_OUTPUT characters."""
    chunks, length = [], 0
    for chunk in template.generate(context):
        length += len(chunk)
        if length > MAX_OUTPUT:
            raise TooBig(f"output above {MAX_OUTPUT:,} characters")
        chunks.append(chunk)
    return "".join(chunks)
