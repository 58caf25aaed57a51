"""``{{var}}`` templates in commands, prompts, working directories and hooks.

Two renderers, because the destinations differ:

* ``render_text`` splices values in as text — for prompts, paths and argv
  elements, which no shell ever parses.
* ``render_shell`` never puts a value into the script. Each placeholder
  becomes a reference to an environment variable (``"${DP_VAR_name}"``) and
  the value travels in the child's environment, so ``$(touch pwned)``, quotes,
  backticks and newlines in a value stay inert data. The reference is written
  to suit where the placeholder sits: quoted in plain words, bare inside
  double quotes and unquoted heredoc bodies, and by closing and reopening the
  quotes inside single quotes. A quoted heredoc (``<<'EOF'``) whose body has
  placeholders is rewritten as an unquoted one with its literal ``\\ $ ```
  escaped, so the body reads the same and the references expand.

The environment does not make a value inert everywhere: bash evaluates the
text of a variable used in arithmetic (``$(( ))``, ``(( ))``, ``[[ … -eq … ]]``,
an index ``${a[i]}``, an offset ``${s:n}``) as an expression, and an array
subscript in that text runs command substitutions (``a[$(touch pwned)]``).
So a placeholder in one of those places must render to an integer (or
nothing), else rendering fails and the step with it.

A placeholder is a variable path: ``name``, ``obj.key``, ``list[0]``,
``obj['key']``. Anything else between braces (``{{.State}}`` in a
``docker --format`` argument) is left alone.
"""

from __future__ import annotations

import re
import shlex
from typing import Any, Callable

from dp.recipes.conditions import string_form

_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_SEGMENT = rf"(?:\.{_NAME}|\[\s*(?:-?\d+|'[^'\]]*'|\"[^\"\]]*\")\s*\])"
PLACEHOLDER = re.compile(rf"\{{\{{\s*({_NAME}{_SEGMENT}*)\s*\}}\}}")
_PATH_PART = re.compile(rf"\.?({_NAME})|\[\s*(-?\d+)\s*\]|\[\s*'([^']*)'\s*\]|\[\s*\"([^\"]*)\"\s*\]")
ENV_PREFIX = "DP_VAR_"
MISSING = object()


class TemplateError(Exception):
    """A template that cannot be turned into a safe shell script."""


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
    env: dict[str, str] = {}
    names: dict[str, str] = {}
    missing: list[str] = []

    def reference(path: str) -> str:
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

    scanner = _ShellScanner(template, reference)
    text = scanner.run()
    for path in scanner.arithmetic:
        value = env[names[path]]
        if not _INTEGER.fullmatch(value):
            raise TemplateError(
                f"'{{{{{path}}}}}' is used in shell arithmetic ($(( )), (( )), [[ -eq ]], "
                "${a[i]} or ${s:n}), "
                f"where bash would run code in it; it must be an integer, not {_clip(value, 40)!r}"
            )
    return Rendered(text, env, missing)


def _clip(value: str, limit: int = 200) -> str:
    return value if len(value) <= limit else value[:limit] + f"…[{len(value)} chars]"


class _Heredoc:
    __slots__ = ("delimiter", "quoted", "strip_tabs", "chunk")

    def __init__(self, delimiter: str, quoted: bool, strip_tabs: bool, chunk: int):
        self.delimiter = delimiter
        self.quoted = quoted
        self.strip_tabs = strip_tabs
        self.chunk = chunk  # index in the output of the delimiter word


_WORD_END = set(" \t\n;|&<>()")
# Where a command (and so ``((`` or ``[[``) can start.
_COMMAND_BOUNDARY = set(" \t\n;|&(!")
# What bash arithmetic may safely be given: an integer, or nothing (0).
_INTEGER = re.compile(r"\s*([+-]?(0[xX][0-9a-fA-F]+|\d+))?\s*")
# ``${name[index]…`` and ``${name:offset…`` in a heredoc body (the index or offset part).
_PARAMETER_ARITHMETIC = re.compile(r"\$\{[#!]?\w+(?:\[[^\]]*\]|:(?![-=+?])[^}]*)")
_TEST_ARITHMETIC = re.compile(r"(?<!\S)-(eq|ne|lt|le|gt|ge)(?!\S)")


class _ShellScanner:
    """Walks a bash script once, tracking just enough quoting to place references.

    Safety does not depend on this being a full bash parser: values never
    enter the script, so a misjudged context can only change how a reference
    is quoted, never make a value run.
    """

    def __init__(self, text: str, reference: Callable[[str], str]):
        self.text = text
        self.reference = reference
        self.out: list[str] = []
        self.i = 0
        # Frames: ("cmd", depth) inside $( ), ("dq",) inside "…", ("tick",) inside `…`,
        # ("arith", depth) inside $(( )) or (( )), ("test", start, paths) inside [[ ]],
        # ("param", part) inside ${ } (part: name, index, offset or word).
        self.frames: list[list] = []
        self.pending: list[_Heredoc] = []
        self.arithmetic: set[str] = set()  # placeholder paths bash evaluates as arithmetic

    def run(self) -> str:
        text = self.text
        while self.i < len(text):
            if self._placeholder(self._plain_reference):
                continue
            frame = self.frames[-1][0] if self.frames else "top"
            if frame == "dq":
                self._in_double_quotes()
            else:
                self._in_code(frame)
        return "".join(self.out)

    # references per context
    def _plain_reference(self, name: str) -> str:
        in_dq = bool(self.frames) and self.frames[-1][0] == "dq"
        return f"${{{name}}}" if in_dq else f'"${{{name}}}"'

    def _placeholder(self, form: Callable[[str], str]) -> bool:
        if not self.text.startswith("{{", self.i):
            return False
        match = PLACEHOLDER.match(self.text, self.i)
        if not match:
            return False
        path = match.group(1)
        for frame in self.frames:
            if frame[0] == "arith" or frame[0] == "param" and frame[1] in ("index", "offset"):
                self.arithmetic.add(path)
            elif frame[0] == "test":
                frame[2].append(path)
        self.out.append(form(self.reference(path)))
        self.i = match.end()
        return True

    def _emit(self, count: int = 1) -> None:
        self.out.append(self.text[self.i:self.i + count])
        self.i += count

    # contexts
    def _in_double_quotes(self) -> None:
        text, i = self.text, self.i
        ch = text[i]
        if ch == "\\":
            self._emit(2)
        elif ch == '"':
            self.frames.pop()
            self._emit()
        elif self._expansion():
            pass
        elif ch == "`":
            self.frames.append(["tick"])
            self._emit()
        else:
            self._emit()

    def _in_code(self, frame: str) -> None:
        text, i = self.text, self.i
        ch = text[i]
        if ch == "\\":
            self._emit(2)
        elif ch == "'":
            self._single_quoted(ansi=False)
        elif text.startswith("$'", i):
            self._single_quoted(ansi=True)
        elif ch == '"':
            self.frames.append(["dq"])
            self._emit()
        elif self._expansion():
            pass
        elif text.startswith("((", i) and self._command_start():
            self.frames.append(["arith", 0])
            self._emit(2)
        elif frame == "param" and self._parameter_syntax(ch):
            pass
        elif frame == "arith" and ch in "()":
            self._arithmetic_paren()
        elif text.startswith("[[", i) and self._command_start() \
                and text[i + 2:i + 3] in (" ", "\t", "\n"):
            self.frames.append(["test", i, []])
            self._emit(2)
        elif frame == "test" and text.startswith("]]", i) and text[i - 1] in " \t\n":
            _, start, paths = self.frames.pop()
            if _TEST_ARITHMETIC.search(text, start, i):
                self.arithmetic.update(paths)
            self._emit(2)
        elif ch == "`":
            if frame == "tick":
                self.frames.pop()
            else:
                self.frames.append(["tick"])
            self._emit()
        elif ch == "(" and frame == "cmd":
            self.frames[-1][1] += 1
            self._emit()
        elif ch == ")" and frame == "cmd":
            self.frames[-1][1] -= 1
            if self.frames[-1][1] == 0:
                self.frames.pop()
            self._emit()
        elif ch == "#" and (i == 0 or text[i - 1] in " \t\n;&|("):
            self._comment()
        elif text.startswith("<<<", i):
            self._emit(3)  # a here-string, not a heredoc
        elif text.startswith("<<", i):
            self._heredoc_operator()
        elif ch == "\n":
            self._emit()
            if self.pending:
                self._heredoc_bodies()
        else:
            self._emit()

    def _expansion(self) -> bool:
        """Open ``$((``, ``$(`` or ``${`` (alike in code and inside double quotes)."""
        for opener, frame in (("$((", ["arith", 0]), ("$(", ["cmd", 1]), ("${", ["param", "name"])):
            if self.text.startswith(opener, self.i):
                self.frames.append(frame)
                self._emit(len(opener))
                return True
        return False

    def _command_start(self) -> bool:
        return self.i == 0 or self.text[self.i - 1] in _COMMAND_BOUNDARY

    def _parameter_syntax(self, ch: str) -> bool:
        """Track where in ``${…}`` we are: an ``[index]`` or ``:offset:length`` is arithmetic."""
        frame = self.frames[-1]
        if ch == "}":
            self.frames.pop()
        elif frame[1] == "name" and ch == "[":
            frame[1] = "index"
        elif frame[1] == "index" and ch == "]":
            frame[1] = "name"
        elif frame[1] == "name" and ch == ":" and self.text[self.i + 1:self.i + 2] not in "-=+?":
            frame[1] = "offset"
        elif frame[1] == "name" and ch in ":-=+?#%/^,@":
            frame[1] = "word"
        else:
            return False
        self._emit()
        return True

    def _arithmetic_paren(self) -> None:
        frame = self.frames[-1]
        if self.text[self.i] == "(":
            frame[1] += 1
        elif frame[1] > 0:
            frame[1] -= 1
        elif self.text.startswith("))", self.i):
            self.frames.pop()
            self._emit(2)
            return
        self._emit()

    def _single_quoted(self, ansi: bool) -> None:
        reopen = "$'" if ansi else "'"
        self._emit(len(reopen))
        while self.i < len(self.text):
            if self._placeholder(lambda name: f"'\"${{{name}}}\"{reopen}"):
                continue
            ch = self.text[self.i]
            if ansi and ch == "\\":
                self._emit(2)
                continue
            self._emit()
            if ch == "'":
                return

    def _comment(self) -> None:
        while self.i < len(self.text) and self.text[self.i] != "\n":
            if not self._placeholder(lambda name: f"${{{name}}}"):
                self._emit()

    def _heredoc_operator(self) -> None:
        self._emit(2)
        strip_tabs = self.text.startswith("-", self.i)
        if strip_tabs:
            self._emit()
        while self.i < len(self.text) and self.text[self.i] in " \t":
            self._emit()
        start = self.i
        while self.i < len(self.text) and self.text[self.i] not in _WORD_END:
            self.i += 1
        word = self.text[start:self.i]
        if not word:
            return
        if "{{" in word and PLACEHOLDER.search(word):
            raise TemplateError(f"a heredoc delimiter cannot be a template ({word})")
        delimiter = re.sub(r"\\(.)|['\"]", lambda m: m.group(1) or "", word)
        quoted = delimiter != word
        self.pending.append(_Heredoc(delimiter, quoted, strip_tabs, len(self.out)))
        self.out.append(word)

    def _heredoc_bodies(self) -> None:
        for heredoc in self.pending:
            body, closing = self._heredoc_body(heredoc)
            uses_values = PLACEHOLDER.search(body) is not None
            if heredoc.quoted and uses_values:
                if not re.fullmatch(r"[A-Za-z0-9_]+", heredoc.delimiter):
                    raise TemplateError(
                        f"heredoc delimiter {heredoc.delimiter!r} must be a plain word "
                        "when its body uses templates"
                    )
                self.out[heredoc.chunk] = heredoc.delimiter
            if uses_values:
                body = self._heredoc_references(body, escape_literal=heredoc.quoted)
            self.out.append(body + closing)
        self.pending = []

    def _heredoc_body(self, heredoc: _Heredoc) -> tuple[str, str]:
        """The body text up to (not including) the delimiter line, and that line."""
        start = self.i
        while self.i < len(self.text):
            end = self.text.find("\n", self.i)
            end = len(self.text) if end == -1 else end + 1
            line = self.text[self.i:end].rstrip("\n")
            if (line.lstrip("\t") if heredoc.strip_tabs else line) == heredoc.delimiter:
                body, closing = self.text[start:self.i], self.text[self.i:end]
                self.i = end
                return body, closing
            self.i = end
        return self.text[start:], ""

    def _heredoc_references(self, body: str, escape_literal: bool) -> str:
        parts: list[str] = []
        position = 0
        arithmetic = [] if escape_literal else [
            (start, end) for start, end in _substitutions(body)
            if "((" in body[start:end] or _TEST_ARITHMETIC.search(body, start, end)
        ] + [match.span() for match in _PARAMETER_ARITHMETIC.finditer(body)]
        for match in PLACEHOLDER.finditer(body):
            if any(start < match.start() < end for start, end in arithmetic):
                self.arithmetic.add(match.group(1))
            literal = body[position:match.start()]
            parts.append(_escape_heredoc(literal) if escape_literal else literal)
            parts.append(f"${{{self.reference(match.group(1))}}}")
            position = match.end()
        tail = body[position:]
        parts.append(_escape_heredoc(tail) if escape_literal else tail)
        return "".join(parts)


def _substitutions(body: str) -> list[tuple[int, int]]:
    """Spans of the outermost ``$( … )`` and backtick substitutions in an unquoted heredoc body.

    They are the only code in such a body, so the only places a value can reach arithmetic.
    """
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(body):
        if body.startswith("$(", i):
            depth, j = 0, i + 1
            while j < len(body):
                depth += {"(": 1, ")": -1}.get(body[j], 0)
                if depth == 0:
                    break
                j += 1
            spans.append((i, j + 1))
            i = j + 1
        elif body[i] == "`":
            end = body.find("`", i + 1)
            end = len(body) if end == -1 else end + 1
            spans.append((i, end))
            i = end
        elif body[i] == "\\":
            i += 2
        else:
            i += 1
    return spans


def _escape_heredoc(text: str) -> str:
    return re.sub(r"([\\$`])", r"\\\1", text)
