"""Recipe scripts: Jinja2 templates rendered in a sandbox, arguments shell-quoted.

A recipe's script may use ``args`` (the agent's trailing arguments),
``arg(n)`` (1-based, '' when missing), ``matched`` (the recipe prefix),
``raw`` (the replaced command's source text), ``full`` (the whole command
string) and ``cwd``. Every value that came from the agent is shell-quoted
when it is printed, so ``gt convoy wait 'x; rm -rf ~'`` cannot inject a
command; ``|raw`` prints the agent's own source text instead (its quoting
kept as typed). ``{{ args }}`` prints each argument quoted, space-separated.

Scripts without ``{{``/``{%``/``{#`` are used verbatim, and scripts whose
only tags are plain substitutions (``{{ args }}``, ``{{ arg(2) }}``,
``{{ cwd|raw }}`` …) are filled in directly with the same quoting; neither
imports Jinja2 (~30 ms), which the hook would pay on every matching call. The Go tool's ``{{.Args}}``, ``{{.Arg N}}``, ``{{.Full}}``,
``{{.Matched}}`` and ``{{.Raw}}`` are accepted too, so its recipes keep working.
"""

from __future__ import annotations

import re
import shlex

VARIABLES = ("args", "arg", "matched", "raw", "full", "cwd")
# Variables through which a template consumes the trailing arguments.
_ARGUMENT_CARRIERS = {"args", "arg", "raw", "full"}
_TEMPLATE_MARKERS = ("{{", "{%", "{#")
# A plain substitution tag: a variable or arg(N), optionally |raw.
_SIMPLE_TAG = re.compile(r"\{\{ *(args|matched|raw|full|cwd|arg\( *(\d+) *\)) *(\| *raw *)?\}\}")
_GO_SYNTAX = re.compile(r"\{\{-?\s*\.(Args|Arg\s+(\d+)|Full|Matched|Raw)\s*-?\}\}")


class RecipeError(Exception):
    """The template cannot be parsed or rendered; the recipe is skipped."""


class Arg(str):
    """One trailing argument: its shell value, plus ``source``, its text as typed."""

    source: str

    def __new__(cls, value: str, source: str | None = None):
        arg = super().__new__(cls, value)
        arg.source = value if source is None else source
        return arg


class _Verbatim(str):
    """Text printed as is: the recipe's own words, or what ``|raw`` produced."""


def is_template(source: str) -> bool:
    return any(marker in source for marker in _TEMPLATE_MARKERS)


def render(source: str, *, args, matched: str, raw: str, full: str, cwd: str) -> tuple[str, set | None]:
    """Render a recipe script; returns (script, the 1-based argument numbers it used).

    The set is None when the template can see every argument (``args``,
    ``raw``, ``full`` or ``arg(n)`` with a computed n). Raises RecipeError
    when the template is invalid or fails to render.
    """
    if not is_template(source):
        return source, set()
    unsafe = placement_error(source)
    if unsafe:
        raise RecipeError(unsafe)
    source = _from_go(source)
    arguments = [value if isinstance(value, Arg) else Arg(value) for value in args]
    values = {"args": arguments, "matched": _Verbatim(matched), "raw": raw, "full": full, "cwd": cwd}
    if not is_template(_SIMPLE_TAG.sub("", source)):
        return _render_simple(source, arguments, values)
    from jinja2 import TemplateError

    try:
        template, used = _compiled(source)
        text = template.render(arg=lambda n: _nth(arguments, n), **values)
    except TemplateError as exc:
        raise RecipeError(_one_line(exc)) from exc
    except (TypeError, ValueError, ArithmeticError, LookupError, RecursionError) as exc:
        raise RecipeError(str(exc) or type(exc).__name__) from exc
    return text, used


def _render_simple(source: str, arguments: list, values: dict) -> tuple[str, set | None]:
    """Fill in plain substitution tags exactly as the Jinja2 environment would."""
    used: set | None = set()

    def substitute(match: re.Match) -> str:
        nonlocal used
        name, number, raw_filter = match.groups()
        if number is not None:
            value = _nth(arguments, number)
            if used is not None:
                used.add(int(number))
        else:
            value = values[name]
            if name in _ARGUMENT_CARRIERS:
                used = None
        return _quote(_raw_filter(value) if raw_filter else value)

    return _SIMPLE_TAG.sub(substitute, source), used


def _compiled(source: str):
    """(template, arguments used) for ``source``; the compiled code is cached on disk.

    Parsing and compiling a template costs the hook more than rendering it,
    and a recipe's script rarely changes, so the code object is kept (like
    Jinja2's own bytecode cache) keyed by the source and the dp, Jinja2 and
    Python versions.
    """
    import hashlib
    import marshal
    import os
    import sys

    import jinja2

    from dp.cachedir import cache_dir, write_atomically

    environment = _environment()
    from dp import __version__

    # The generated code also depends on _environment()'s settings: dp's version stands for them.
    stamp = f"{__version__}\0{jinja2.__version__}\0{sys.version}\0{source}"
    key = hashlib.sha256(stamp.encode()).hexdigest()[:32]
    path = os.path.join(cache_dir(), f"recipe-{key}.marshal")
    try:
        with open(path, "rb") as handle:
            used, code = marshal.load(handle)
        used = None if used is None else set(used)
    except (OSError, EOFError, ValueError, TypeError):
        tree = environment.parse(source)
        used = _arguments_used(tree)
        code = compile(environment.compile(tree, raw=True), "<recipe>", "exec")
        try:
            write_atomically(path, marshal.dumps((None if used is None else sorted(used), code)))
        except OSError:
            pass
    template = environment.template_class.from_code(environment, code, environment.make_globals(None))
    return template, used


def _arguments_used(tree) -> set | None:
    from jinja2 import meta, nodes

    names = meta.find_undeclared_variables(tree)
    if names & (_ARGUMENT_CARRIERS - {"arg"}):
        return None
    used = set()
    for call in tree.find_all(nodes.Call):
        if isinstance(call.node, nodes.Name) and call.node.name == "arg":
            first = call.args[0] if call.args else None
            if not isinstance(first, nodes.Const) or not isinstance(first.value, int):
                return None
            used.add(first.value)
    if "arg" in names and not used:
        return None  # `arg` passed around rather than called: assume it sees everything
    return used


def template_error(source: str) -> str | None:
    """None if ``source`` is a valid recipe template, else a one-line message.

    Checks with exactly the environment the hook renders with: syntax, plus
    names that the hook does not provide (which would fail at render time).
    """
    if not is_template(source):
        return None
    from jinja2 import TemplateSyntaxError, meta

    environment = _environment()
    translated = _from_go(source)
    try:
        tree = environment.parse(translated)
    except TemplateSyntaxError as exc:
        return _one_line(exc)
    unknown = meta.find_undeclared_variables(tree) - set(VARIABLES) - set(environment.globals)
    if unknown:
        name = sorted(unknown)[0]
        line = next(
            (n for n, text in enumerate(translated.splitlines(), 1) if re.search(rf"\b{re.escape(name)}\b", text)),
            1,
        )
        available = "args, arg(n), matched, raw, full, cwd"
        return f"line {line}: unknown variable '{name}' (available: {available})"
    return None


# A Jinja2 tag, its quoted strings read whole: {{ … }}, {% … %}, {# … #}.
_TAG = re.compile(
    r"""\{\{(?:[^'"}]|'[^']*'|"[^"]*"|\}(?!\}))*\}\}"""
    r"""|\{%(?:[^'"%]|'[^']*'|"[^"]*"|%(?!\}))*%\}|\{\#.*?\#\}""",
    re.S,
)
_RAW_BLOCK = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)\{%-?\s*endraw\s*-?%\}", re.S)
_RAW_OUTPUT = re.compile(r"\|\s*raw\s*-?\}\}\Z")


def raw_uses(source: str) -> list[str]:
    """The ``{{ …|raw }}`` tags of a recipe template: where its author opted out of the placement check."""
    return [match.group() for match in _TAG.finditer(_from_go(source)) if _RAW_OUTPUT.search(match.group())]


def placement_error(source: str) -> str | None:
    """Why a placeholder of ``source`` sits where bash would re-read the agent's text, or None.

    Every ``{{ … }}`` must be a plain shell word (``echo {{ args }}``, not
    ``echo "{{ args }}"``); one ending in ``|raw`` is the explicit opt-out.
    """
    from dp.shell.lexer import Unparseable
    from dp.shell.placement import misplaced

    source = _from_go(source)
    outputs, blanks = [], []
    literal = [match.span(1) for match in _RAW_BLOCK.finditer(source)]  # {% raw %}…{% endraw %}
    for match in _TAG.finditer(source):
        if not any(start <= match.start() < end for start, end in literal):
            (outputs if match.group().startswith("{{") else blanks).append(match.span())
    if not outputs:
        return None
    try:
        found = misplaced(source, outputs, blanks)
    except Unparseable as exc:
        return f"the script is not complete Bash ({exc}), so where its placeholders sit cannot be judged"
    for item in found:
        tag = source[item.start:item.end]
        if not _RAW_OUTPUT.search(tag):
            return (
                f"line {item.line}: {tag} is {item.description}, where bash would read the agent's text "
                f"as code; {item.advice} (or end the tag in |raw to splice it there anyway)"
            )
    return None


def _one_line(exc) -> str:
    message = (getattr(exc, "message", None) or str(exc) or type(exc).__name__).splitlines()[0]
    line = getattr(exc, "lineno", None)
    return f"line {line}: {message}" if line else message


def _nth(arguments: list, n) -> Arg:
    try:
        n = int(n)
    except (TypeError, ValueError):
        return Arg("")
    return arguments[n - 1] if 1 <= n <= len(arguments) else Arg("")


def _from_go(source: str) -> str:
    def translate(match: re.Match) -> str:
        name, number = match.group(1), match.group(2)
        if number:
            return "{{ arg(%s) }}" % number
        return "{{ %s }}" % name.lower()

    return _GO_SYNTAX.sub(translate, source)


def _quote(value) -> str:
    """Jinja2 ``finalize``: shell-quote every printed value unless verbatim."""
    if isinstance(value, _Verbatim):
        return str(value)
    if isinstance(value, (list, tuple)):
        return " ".join(_quote(item) for item in value)
    if value is None:
        return ""
    return shlex.quote(str(value))


def _raw_filter(value):
    """``|raw``: the agent's text as typed (for lists, space-separated)."""
    if isinstance(value, (list, tuple)):
        return _Verbatim(" ".join(getattr(item, "source", str(item)) for item in value))
    return _Verbatim(getattr(value, "source", value))


_ENVIRONMENT = None


def _environment():
    global _ENVIRONMENT
    if _ENVIRONMENT is None:
        from jinja2 import StrictUndefined
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        environment = ImmutableSandboxedEnvironment(
            finalize=_quote,
            undefined=StrictUndefined,
            keep_trailing_newline=True,
            autoescape=False,
        )
        environment.filters["raw"] = _raw_filter
        _ENVIRONMENT = environment
    return _ENVIRONMENT
