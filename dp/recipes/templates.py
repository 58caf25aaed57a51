"""``{{var}}`` templates in commands, prompts, working directories and hooks.

Two renderers, because the destinations differ:

* ``render_text`` splices values in as text — for prompts, paths and argv
  elements, which no shell ever parses.
* ``render_shell`` never puts a value into the script. Each placeholder
  becomes a reference to an environment variable fitted to where it sits
  (``"${DP_VAR_name}"`` as a word, ``${DP_VAR_name}`` inside ``"…"`` and
  heredoc bodies, ``'…'`` closed and reopened around it, a quoted heredoc
  made unquoted with its text escaped: ``dp.shell.placement``), and the
  value travels in the child's environment, so ``$(touch pwned)``, quotes,
  backticks, newlines and a line equal to a heredoc's delimiter stay inert
  data and the step prints what the recipe runner's inlined value would.
  Where the program reading the value runs it as code (``sh -c``, ``eval``,
  ``python3 -c``, arithmetic …: ``dp.shell.sinks``) the template is refused
  when the recipe is read, unless the step opts in (``values_as_code``).

A placeholder is a variable path: ``name``, ``obj.key``, ``list[0]``,
``obj['key']``, optionally followed by ``| default('text')``. A path with no
value and no default is an error, never an empty string: ``rm -rf
build/{{dirr}}`` must not run as ``rm -rf build/`` (the recipe runner
renders it empty; ``dp.recipes.variables`` finds such names before a step
runs where it can). A ``{{`` that is never closed is an error too. Anything
else between braces (``{{.State}}`` in a ``docker --format`` argument) is
left alone.

How this relates to alias recipes (the same ``{{ }}`` syntax, the same
``TemplateError`` and placement rule, a different renderer): ``dp.templating``.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from dp.recipes.conditions import string_form
from dp.templating import TemplateError

__all__ = ["TemplateError", "PLACEHOLDER", "MISSING", "Planned", "Rendered", "code_sinks", "lookup",
           "placeholders", "render_shell", "render_text", "syntax_problems", "root_name"]

_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_SEGMENT = rf"(?:\.{_NAME}|\[\s*(?:-?\d+|'[^'\]]*'|\"[^\"\]]*\")\s*\])"
_DEFAULT = r"""\|\s*default\(\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*\)\s*"""
# Group 1: the variable path; group 2 or 3: the default's text, when it has one.
PLACEHOLDER = re.compile(rf"\{{\{{\s*({_NAME}{_SEGMENT}*)\s*(?:{_DEFAULT})?\}}\}}")
_OPENING = re.compile(r"\{\{(?!\{)")
_FILTERED = re.compile(rf"\s*{_NAME}{_SEGMENT}*\s*\|")
_PATH_PART = re.compile(rf"\.?({_NAME})|\[\s*(-?\d+)\s*\]|\[\s*'([^']*)'\s*\]|\[\s*\"([^\"]*)\"\s*\]")
ENV_PREFIX = "DP_VAR_"
MISSING = object()


def placeholders(template: str) -> list[str]:
    """The variable paths a template refers to, in order of appearance."""
    return [match.group(1) for match in PLACEHOLDER.finditer(template)]


def required(template: str) -> list[tuple[str, int]]:
    """(path, line) of each placeholder without a default: each must have a value when rendered."""
    return [(match.group(1), line_of(template, match.start())) for match in PLACEHOLDER.finditer(template)
            if match.group(2) is None and match.group(3) is None]


def root_name(path: str) -> str:
    """The context variable a path starts at (``a`` for ``a.b[0]``)."""
    match = re.match(_NAME, path)
    return match.group(0) if match else ""


def line_of(template: str, offset: int) -> int:
    return template.count("\n", 0, offset) + 1


def syntax_problems(template: str) -> list[str]:
    """One line per ``{{`` that does not parse: never closed, or a variable with a filter dp does not have.

    Brace text that is not a variable (``{{.State}}``, ``{{json .}}``) is
    another program's template and stays as written.
    """
    found = []
    for opening in _OPENING.finditer(template):
        start = opening.start()
        close = template.find("}}", start + 2)
        again = _OPENING.search(template, start + 2)
        line = line_of(template, start)
        if close < 0 or (again is not None and again.start() < close):
            found.append(f"line {line}: '{{{{' is not closed: write {{{{ name }}}} "
                         f"(near {template[start:start + 20].splitlines()[0]!r})")
            continue
        inside = template[start + 2:close]
        if _FILTERED.match(inside) and not PLACEHOLDER.fullmatch(template, start, close + 2):
            found.append(f"line {line}: {{{{{inside}}}}} does not parse: the only filter is "
                         "| default('text'), as in {{ name | default('') }}")
    return found


def _check_syntax(template: str) -> None:
    found = syntax_problems(template)
    if found:
        raise TemplateError("\n".join(found))


class Planned(dict):
    """The context of a dry run: a value no step has produced yet shows as ``<unknown until run: NAME>``
    instead of being an error (the names no run could give were refused before, by ``dp.recipes.variables``)."""


def _value(match: re.Match, variables: dict[str, Any], missing: list[str]) -> Any:
    """What a placeholder stands for: its path's value, else its default, else ``MISSING`` (noted)."""
    value = lookup(match.group(1), variables)
    if value is MISSING:
        default = match.group(2) if match.group(2) is not None else match.group(3)
        if default is not None:
            return default
        if isinstance(variables, Planned):
            return f"<unknown until run: {match.group(1)}>"
        missing.append(f"line {line_of(match.string, match.start())}: {match.group(0)}")
    return value


def _check_missing(missing: list[str]) -> None:
    if missing:
        raise TemplateError("\n".join(
            f"{where} has no value (no context default, --set, or earlier step's output gives it); "
            "declare a default under 'context:' or write {{ name | default('') }}" for where in missing))


def lookup(path: str, variables: dict[str, Any]) -> Any:
    """The value at ``path`` (``a.b[0]['c']``), or ``MISSING``."""
    value: Any = variables
    for match in _PATH_PART.finditer(path):
        name, index, single, double = match.groups()
        key: Any = name if name is not None else single if single is not None else double
        if index is not None:
            if not isinstance(value, list):
                return MISSING
            position = int(index)
            if not -len(value) <= position < len(value):
                return MISSING
            value = value[position]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            return MISSING
    return value


class Rendered:
    """A rendered template: the text and the values it needs in the environment."""

    __slots__ = ("text", "env")

    def __init__(self, text: str, env: dict[str, str]):
        self.text = text
        self.env = env

    def display(self) -> str:
        """The script preceded by the values it reads, shell-quoted (for --dry-run)."""
        lines = [f"{name}={shlex.quote(_clip(value))}" for name, value in self.env.items()]
        return "\n".join(lines + [self.text])


def render_text(template: str, variables: dict[str, Any]) -> Rendered:
    """``template`` with each value spliced in as text; TemplateError when one has no value."""
    _check_syntax(template)
    missing: list[str] = []
    text = PLACEHOLDER.sub(lambda match: string_form(_value(match, variables, missing)), template)
    _check_missing(missing)
    return Rendered(text, {})


OPT_IN = " (a value you wrote yourself may run there: values_as_code: true on the step)"


def render_shell(template: str, variables: dict[str, Any] | None, *, code_allowed: bool = False,
                 opt_in: bool = True) -> Rendered:
    """The script for ``template``: each placeholder a reference to a variable holding its value.

    Raises TemplateError, one line per refused placeholder, where a program
    would run a value as code (unless ``code_allowed``, the step's opt-in;
    ``opt_in`` says whether the message may offer it) or where no rendering
    keeps it data (see ``dp.shell.placement``).
    """
    from dp.shell.placement import SINGLE, WORD
    from dp.templating import judge, problems, render

    _check_syntax(template)
    matches = list(PLACEHOLDER.finditer(template))
    if not matches:
        return Rendered(template, {})
    judged = judge(template, [match.span() for match in matches])
    found = problems(judged, code_allowed=code_allowed, opt_in=OPT_IN if opt_in else "")
    if found:
        raise TemplateError("\n".join(found))
    env: dict[str, str] = {}
    names: dict[tuple, str] = {}
    missing: list[str] = []

    # None: the template is only being judged (validation), no values yet.
    values = {match.groups(): None if variables is None else _value(match, variables, missing)
              for match in matches}
    _check_missing(missing)
    if variables is not None and not code_allowed:
        _check_options(template, judged, {match.span(): values[match.groups()] for match in matches})

    def name_for(key: tuple) -> str:
        if key not in names:
            base = ENV_PREFIX + re.sub(r"[^A-Za-z0-9_]", "_", key[0])
            name, suffix = base, 2
            while name in env:
                name, suffix = f"{base}_{suffix}", suffix + 1
            # The environment cannot carry NUL bytes; nothing a shell reads can either.
            env[name] = string_form(values[key]).replace("\0", "")
            names[key] = name
        return names[key]

    def wrap(tag: str, context: str, _span) -> str:
        placeholder = PLACEHOLDER.fullmatch(tag)
        assert placeholder is not None, "render() calls wrap with placeholders only"
        name = name_for(placeholder.groups())
        return f'"${{{name}}}"' if context in (WORD, SINGLE) else f"${{{name}}}"

    return Rendered(render(template, judged, wrap), env)


def _check_options(template: str, judged, values: dict) -> None:
    """The run-time check: a known value starting with ``-`` where a program may read it as an option."""
    from dp.shell.optioncheck import option_problem

    problems = [option_problem(template[span[0]:span[1]], line_of(template, span[0]), check, string_form(values[span]))
                for span, check in sorted(judged.options.items()) if span in values]
    found = [line for line in problems if line]
    if found:
        raise TemplateError("\n".join(found))


def code_sinks(template: str) -> list[str]:
    """The programs that would run one of ``template``'s values as code (``sh -c``, ``eval`` …)."""
    from dp.templating import judge

    spans = [match.span() for match in PLACEHOLDER.finditer(template)]
    if not spans:
        return []
    found = [problem.text.split(" would run as code in ", 1)[1].split(":", 1)[0]
             for problem in judge(template, spans).problems if problem.code]
    return list(dict.fromkeys(found))


def _clip(value: str, limit: int = 200) -> str:
    return value if len(value) <= limit else value[:limit] + f"…[{len(value)} chars]"
