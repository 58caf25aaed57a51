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
``obj['key']``. Anything else between braces (``{{.State}}`` in a
``docker --format`` argument) is left alone.

How this relates to alias recipes (the same ``{{ }}`` syntax, the same
``TemplateError`` and placement rule, a different renderer): ``dp.templating``.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from dp.recipes.conditions import string_form
from dp.templating import TemplateError

__all__ = ["TemplateError", "PLACEHOLDER", "MISSING", "Rendered", "code_sinks", "lookup",
           "placeholders", "render_shell", "render_text"]

_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_SEGMENT = rf"(?:\.{_NAME}|\[\s*(?:-?\d+|'[^'\]]*'|\"[^\"\]]*\")\s*\])"
PLACEHOLDER = re.compile(rf"\{{\{{\s*({_NAME}{_SEGMENT}*)\s*\}}\}}")
_PATH_PART = re.compile(rf"\.?({_NAME})|\[\s*(-?\d+)\s*\]|\[\s*'([^']*)'\s*\]|\[\s*\"([^\"]*)\"\s*\]")
ENV_PREFIX = "DP_VAR_"
MISSING = object()


def placeholders(template: str) -> list[str]:
    """The variable paths a template refers to, in order of appearance."""
    return [match.group(1) for match in PLACEHOLDER.finditer(template)]


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
    """A rendered template: the text, the values it needs in the environment, what was missing."""

    __slots__ = ("text", "env", "missing")

    def __init__(self, text: str, env: dict[str, str], missing: list[str]):
        self.text = text
        self.env = env
        self.missing = missing

    def warnings(self, where: str) -> list[str]:
        return [f"{where}: variable '{path}' is not set; rendered empty" for path in self.missing]

    def display(self) -> str:
        """The script preceded by the values it reads, shell-quoted (for --dry-run)."""
        lines = [f"{name}={shlex.quote(_clip(value))}" for name, value in self.env.items()]
        return "\n".join(lines + [self.text])


def render_text(template: str, variables: dict[str, Any]) -> Rendered:
    missing: list[str] = []

    def replace(match: re.Match) -> str:
        value = lookup(match.group(1), variables)
        if value is MISSING:
            missing.append(match.group(1))
            return ""
        return string_form(value)

    return Rendered(PLACEHOLDER.sub(replace, template), {}, missing)


OPT_IN = " (a value you wrote yourself may run there: values_as_code: true on the step)"


def render_shell(template: str, variables: dict[str, Any], *, code_allowed: bool = False,
                 opt_in: bool = True) -> Rendered:
    """The script for ``template``: each placeholder a reference to a variable holding its value.

    Raises TemplateError, one line per refused placeholder, where a program
    would run a value as code (unless ``code_allowed``, the step's opt-in;
    ``opt_in`` says whether the message may offer it) or where no rendering
    keeps it data (see ``dp.shell.placement``).
    """
    from dp.shell.placement import SINGLE, WORD
    from dp.templating import judge, problems, render

    matches = list(PLACEHOLDER.finditer(template))
    if not matches:
        return Rendered(template, {}, [])
    judged = judge(template, [match.span() for match in matches])
    found = problems(judged, code_allowed=code_allowed, opt_in=OPT_IN if opt_in else "")
    if found:
        raise TemplateError("\n".join(found))
    env: dict[str, str] = {}
    names: dict[str, str] = {}
    missing: list[str] = []

    def name_for(path: str) -> str:
        if path not in names:
            base = ENV_PREFIX + re.sub(r"[^A-Za-z0-9_]", "_", path)
            name, suffix = base, 2
            while name in env:
                name, suffix = f"{base}_{suffix}", suffix + 1
            value = lookup(path, variables)
            if value is MISSING:
                missing.append(path)
                value = None
            # The environment cannot carry NUL bytes; nothing a shell reads can either.
            env[name] = string_form(value).replace("\0", "")
            names[path] = name
        return names[path]

    def wrap(tag: str, context: str) -> str:
        name = name_for(PLACEHOLDER.fullmatch(tag).group(1))
        return f'"${{{name}}}"' if context in (WORD, SINGLE) else f"${{{name}}}"

    return Rendered(render(template, judged, wrap), env, missing)


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
