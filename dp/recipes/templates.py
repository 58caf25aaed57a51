"""``{{var}}`` templates in commands, prompts, working directories and hooks.

Two renderers, because the destinations differ:

* ``render_text`` splices values in as text — for prompts, paths and argv
  elements, which no shell ever parses.
* ``render_shell`` never puts a value into the script. Each placeholder
  becomes a quoted reference to an environment variable
  (``"${DP_VAR_name}"``) and the value travels in the child's environment,
  so ``$(touch pwned)``, quotes, backticks and newlines in a value stay inert
  data — in plain word position. Inside quotes, heredoc bodies, arithmetic,
  backticks or ``${…}`` bash (or the command given that text, as ``trap``
  and ``sh -c`` are) would read the value again as code, so a template with
  a placeholder there is refused when the recipe is validated.

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

__all__ = ["TemplateError", "PLACEHOLDER", "MISSING", "Rendered", "check_placement", "lookup",
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


def render_shell(template: str, variables: dict[str, Any]) -> Rendered:
    """The script for ``template``: each placeholder a quoted reference to a variable holding its value.

    Raises TemplateError when a placeholder sits anywhere but in plain word
    position (or a comment), see ``dp.shell.placement``.
    """
    matches = list(PLACEHOLDER.finditer(template))
    if matches:
        check_placement(template, [match.span() for match in matches])
    env: dict[str, str] = {}
    names: dict[str, str] = {}
    missing: list[str] = []

    def reference(match: re.Match) -> str:
        path = match.group(1)
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
        return f'"${{{names[path]}}}"'

    return Rendered(PLACEHOLDER.sub(reference, template), env, missing)


def check_placement(template: str, spans: list[tuple[int, int]]) -> None:
    """Raise TemplateError unless every placeholder span is a plain word (or in a comment)."""
    from dp.shell.lexer import COMMENT
    from dp.templating import placement_problem

    problem = placement_problem(
        template, spans, "bash (or the command given that text) would read the value",
        allowed={COMMENT},
    )
    if problem:
        raise TemplateError(problem)


def _clip(value: str, limit: int = 200) -> str:
    return value if len(value) <= limit else value[:limit] + f"…[{len(value)} chars]"
