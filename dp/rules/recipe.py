"""Recipe scripts: templates whose placeholders print the agent's words as typed.

A recipe's script may use ``args`` (the agent's trailing arguments),
``arg(n)`` (1-based, missing when not given), ``matched`` (the recipe
prefix), ``raw`` (the replaced command's source text), ``full`` (the whole
command string) and ``cwd``; what they print is described in
``dp.rules.recipe_values``. A placeholder may stand in any quoting context —
a plain word, ``"…"``, ``'…'``, a heredoc body — where ``dp.shell.placement``
fits the agent's words to it as data (``_in_context``), and is refused only
where a program would run it as code (``sh -c``, ``eval``, ``python3 -c`` …:
``dp.shell.sinks``) or no rendering keeps it data (``placement_error``),
checked when the alias is written and again before a stored template is
rendered. The agent's words have no opt-in to code: ``|raw`` is no way
around the check.

Templates that use only those names and dp's own filters are compiled when
the alias is written (``dp.rules.recipe_program``) and rendered by the hook
without Jinja2 (~30 ms to import); scripts without ``{{``/``{%``/``{#`` are
used verbatim; anything else runs in Jinja2's immutable sandbox, bounded in
output, loop length and arithmetic (``dp.rules.recipe_sandbox``). The Go
tool's ``{{.Args}}``, ``{{.Arg N}}``, ``{{.Full}}``, ``{{.Matched}}`` and
``{{.Raw}}`` are accepted too, so its recipes keep working.

How these templates relate to YAML recipe steps' (the same ``{{ }}``
syntax, one ``TemplateError``, one placement rule, two renderers and why):
``dp.templating``. A template the hook cannot render raises TemplateError
and the rule is skipped (the command runs unchanged).
"""

from __future__ import annotations

import re

from dp.rules.jinja_import import load as load_jinja
from dp.rules.recipe_values import MISSING, Arg, Verbatim, nth, option_code
from dp.templating import OptionValueError, TemplateError

__all__ = ["Arg", "TemplateError", "render", "template_error", "placement_error", "raw_uses", "program_for"]

VARIABLES = ("args", "arg", "matched", "raw", "full", "cwd")
# Variables through which a template consumes the trailing arguments.
_ARGUMENT_CARRIERS = {"args", "arg", "raw", "full"}
_TEMPLATE_MARKERS = ("{{", "{%", "{#")
_GO_SYNTAX = re.compile(r"\{\{-?\s*\.(Args|Arg\s+(\d+)|Full|Matched|Raw)\s*-?\}\}")
# Bumped whenever the sandbox generates different code (it keys the compiled-template cache).
_SANDBOX_STAMP = "bounded-1"
# The arguments a template is tried on when it is written (bombs show up there).
_SAMPLE_ARGS = [Arg("sample one", "'sample one'"), Arg("$HOME", '"$HOME"'), Arg("*.py")]


def is_template(source: str) -> bool:
    return any(marker in source for marker in _TEMPLATE_MARKERS)


def render(source: str, *, args, matched: str, raw: str, full: str, cwd: str,
           program: str = "") -> tuple[str, set | None]:
    """Render a recipe script; returns (script, the 1-based argument numbers it used).

    ``program`` is the compiled form stored when the alias was written (see
    ``program_for``). The set is None when the template can see every
    argument (``args``, ``raw``, ``full`` or ``arg(n)`` with a computed n).
    Raises TemplateError when the template is unsafe, invalid or fails to render.
    """
    if not is_template(source):
        return source, set()
    from dp.rules import recipe_program

    arguments = [value if isinstance(value, Arg) else Arg(value) for value in args]
    values = {"args": arguments, "matched": Verbatim(matched), "raw": Verbatim(raw), "full": full, "cwd": cwd}
    if program:
        try:
            return recipe_program.run(program, arguments, values)
        except recipe_program.ProgramError:
            pass  # written by another dp: judge and render the template itself
    source = _checked(source)
    compiled = recipe_program.compile_program(source)
    if compiled is not None:
        return recipe_program.run(compiled, arguments, values)
    return _render_jinja(source, arguments, values)


def _checked(source: str) -> str:
    """``source`` judged and fitted to its places (``_in_context``), or TemplateError saying why not.

    Judging parses the script (bashlex, for the code sinks), which costs the hook more than
    rendering; a template rarely changes, so the verdict is kept on disk like the compiled code,
    keyed by the template and dp's version.
    """
    from dp import __version__
    from dp.cachedir import read_stamped, write_stamped

    stamp = f"{__version__}\0placement-3\0{source}"
    cached = read_stamped("placement", stamp)
    if cached is None:
        unsafe = placement_error(source)
        cached = ["refused", unsafe] if unsafe else ["ok", _in_context(_from_go(source))]
        write_stamped("placement", stamp, cached)
    verdict, text = cached
    if verdict != "ok":
        raise TemplateError(text)
    return text


def program_for(source: str) -> str | None:
    """The stdlib program to store for a valid, safe template, or None when Jinja2 must render it."""
    if not is_template(source):
        return None
    from dp.rules.recipe_program import compile_program

    try:
        # Judged here, when the alias is written: the verdict is cached for the hook (``_checked``).
        return compile_program(_checked(source))
    except TemplateError:
        return None  # not placeable: placement_error says why


def _render_jinja(source: str, arguments: list, values: dict) -> tuple[str, set | None]:
    JinjaError = load_jinja().TemplateError  # noqa: N806 (Jinja2's class)
    from dp.rules.recipe_sandbox import TooBig, environment
    from dp.rules.recipe_sandbox import render as bounded_render

    undefined = environment().undefined

    def arg(n):
        value = nth(arguments, n)
        return undefined(name=f"arg({n})") if value is MISSING else value

    arg.dp_recipe_callable = True  # type: ignore[attr-defined]
    try:
        template, used = _compiled(source)
        text = bounded_render(template, {"arg": arg, **values})
    except JinjaError as exc:
        raise TemplateError(_one_line(exc)) from exc
    except TooBig as exc:
        raise TemplateError(f"too big: {exc}") from exc
    except (TypeError, ValueError, ArithmeticError, LookupError, RecursionError) as exc:
        raise TemplateError(str(exc) or type(exc).__name__) from exc
    return text, used


def _compiled(source: str):
    """(template, arguments used) for ``source``; the compiled code is cached on disk.

    Parsing and compiling a template costs the hook more than rendering it,
    and a recipe's script rarely changes, so the code object is kept (like
    Jinja2's own bytecode cache) keyed by the source and the dp, Jinja2 and
    Python versions.
    """
    import sys

    from dp import __version__
    from dp.cachedir import read_stamped, write_stamped
    from dp.rules.recipe_sandbox import environment as sandbox

    environment = sandbox()
    # The generated code also depends on the sandbox's settings: _SANDBOX_STAMP stands for them.
    stamp = f"{__version__}\0{_SANDBOX_STAMP}\0{load_jinja().__version__}\0{sys.version}\0{source}"
    cached = read_stamped("recipe", stamp)
    if cached is not None:
        used, code = cached
        used = None if used is None else set(used)
    else:
        tree = environment.parse(source)
        used = _arguments_used(tree)
        code = compile(environment.compile(tree, raw=True), "<recipe>", "exec")
        write_stamped("recipe", stamp, (None if used is None else sorted(used), code))
    template = environment.template_class.from_code(environment, code, environment.make_globals(None))
    return template, used


def _arguments_used(tree) -> set | None:
    load_jinja()
    from jinja2 import meta, nodes

    names = meta.find_undeclared_variables(tree)
    unknown = names - set(VARIABLES) - {"range"}
    if unknown:
        raise TemplateError(f"unknown variable {sorted(unknown)[0]!r}")
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

    Checks with exactly the environment the hook renders with: syntax, names
    and filters the hook does not provide, and a trial render on sample
    arguments within the sandbox's bounds and ``WRITE_TIME_SECONDS`` — what
    blows up there (``{{ 'a' * 999999999 }}``, ``range(10**9)``) would
    blow up in the hook.
    """
    if not is_template(source):
        return None
    try:
        translated = _in_context(_from_go(source))
    except TemplateError:
        translated = _from_go(source)  # refused where it stands: placement_error says so
    if program_for(source) is not None:
        return None  # dp's own language: nothing left to go wrong
    load_jinja()
    from jinja2 import TemplateSyntaxError, meta

    from dp.rules.recipe_sandbox import environment

    try:
        tree = environment().parse(translated)
        names = meta.find_undeclared_variables(tree)  # compiles: unknown filters fail here
    except TemplateSyntaxError as exc:
        return _one_line(exc)
    except RecursionError:
        return _TOO_DEEP
    unknown = names - set(VARIABLES) - set(environment().globals)
    if unknown:
        name = sorted(unknown)[0]
        line = next(
            (n for n, text in enumerate(translated.splitlines(), 1) if re.search(rf"\b{re.escape(name)}\b", text)),
            1,
        )
        available = "args, arg(n), matched, raw, full, cwd"
        return f"line {line}: unknown variable '{name}' (available: {available})"
    return _trial_error(translated)


_TOO_DEEP = "it nests too deeply ({{, (, [ or {% %} blocks inside each other); write it flatter"


def _trial_error(translated: str) -> str | None:
    from dp.rules.recipe_sandbox import WRITE_TIME_SECONDS
    from dp.shell.guard import Timeout, deadline

    try:
        with deadline(WRITE_TIME_SECONDS):
            _render_jinja(translated, _SAMPLE_ARGS, {
                "args": _SAMPLE_ARGS, "matched": Verbatim("m"), "raw": Verbatim("r"), "full": "f", "cwd": "/"})
    except Timeout:
        return f"rendering takes more than {WRITE_TIME_SECONDS:g} s (a loop too long?)"
    except OptionValueError:
        return None  # a sample argument a program would read as an option: the agent's words decide that
    except (RecursionError, SyntaxError):
        # Python's own limits on the compiled template: 100 levels of indentation, 20 nested loops.
        return _TOO_DEEP
    except TemplateError as exc:
        message = str(exc)
        return message if message.startswith(("too big", "line ")) or "not available" in message or "unsafe" in message \
            or "has no attribute" in message else None
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
    """The ``{{ …|raw }}`` tags of a recipe template (written when ``|raw`` spliced text unchecked)."""
    return [match.group() for match in _TAG.finditer(_from_go(source)) if _RAW_OUTPUT.search(match.group())]


def _tags(source: str) -> tuple[list, list]:
    """(output tag spans, other tag spans) of a translated template, ``{% raw %}`` blocks excluded."""
    outputs: list = []
    blanks: list = []
    literal = [match.span(1) for match in _RAW_BLOCK.finditer(source)]  # {% raw %}…{% endraw %}
    for match in _TAG.finditer(source):
        if not any(start <= match.start() < end for start, end in literal):
            (outputs if match.group().startswith("{{") else blanks).append(match.span())
    return outputs, blanks


def _judged(source: str):
    """(output spans, blank spans, placement plan) of a translated template; TemplateError if unjudgeable."""
    from dp.templating import judge

    outputs, blanks = _tags(source)
    if not outputs:
        return outputs, blanks, None
    return outputs, blanks, judge(source, outputs, blanks=blanks,
                                  unparseable="where its placeholders sit cannot be judged")


def placement_error(source: str) -> str | None:
    """Why a placeholder of ``source`` would hand the agent's text to a program as code, or None.

    ``echo "{{ args }}"``, ``echo 'x={{ arg(1) }}'`` and heredoc bodies are
    data (``_in_context``); ``sh -c {{ args }}``, ``eval``, ``ssh host``,
    arithmetic … are refused, ``|raw`` or not.
    """
    from dp.templating import problems

    try:
        _, _, judged = _judged(_from_go(source))
    except TemplateError as exc:
        return exc.message
    found = problems(judged, passes=_command_text(source)) if judged is not None else []
    return found[0] if found else None


_COMMAND_TEXT = frozenset({"matched", "raw", "full"})


def _command_text(source: str):
    """Whether a problem is a command word given by ``matched``/``raw``/``full``: command text
    (the rule's own words, the agent's command as typed or quoted whole), not an argument value."""
    from dp.shell.sinktable import COMMAND_WORD_SINK, UNNAMED_SINK

    def command_text(start: int, end: int) -> bool:
        return source[start:end].strip("{}-").strip() in _COMMAND_TEXT

    def passes(problem) -> bool:
        if problem.program == UNNAMED_SINK and problem.cause is not None:
            return command_text(*problem.cause)  # `{{ matched }} {{ args }}`: the rule's own command
        return problem.program == COMMAND_WORD_SINK and command_text(problem.start, problem.end)

    return passes


_TAG_PARTS = re.compile(r"\A\{\{(-?)(.*?)(-?)\}\}\Z", re.S)


def _in_context(source: str) -> str:
    """``source`` with each placeholder outside a plain word fitted to its place (``|dp_in``).

    Raises TemplateError when a placeholder is refused (``placement_error``).
    """
    from dp.rules.recipe_program import _placeholder
    from dp.shell.placement import WORD
    from dp.templating import problems, render

    outputs, blanks, judged = _judged(source)
    if judged is None:
        return source
    found = problems(judged, passes=_command_text(source))
    if found:
        raise TemplateError(found[0])

    def wrap(tag: str, context: str, span) -> str:
        check = judged.options.get(span)
        if context == WORD and check is None:
            return tag
        parts = _TAG_PARTS.match(tag)
        assert parts is not None, "render() calls wrap with tags only"
        left, inside, right = parts.groups()
        # dp's own language takes a filter appended; any other expression is grouped first.
        expression = inside.strip() if _placeholder(inside) is not None else f"({inside.strip()})"
        if check is not None:  # checked when the agent's words are known (dp.rules.recipe_values.option_filter)
            expression += f" | dp_option('{option_code(tag, source.count(chr(10), 0, span[0]) + 1, check)}')"
        if context != WORD:
            expression += f" | dp_in('{context}')"
        return f"{{{{{left} {expression} {right}}}}}"

    return render(source, judged, wrap, blanks)


def _one_line(exc) -> str:
    message = (getattr(exc, "message", None) or str(exc) or type(exc).__name__).splitlines()[0]
    line = getattr(exc, "lineno", None)
    return f"line {line}: {message}" if line else message


def _from_go(source: str) -> str:
    def translate(match: re.Match) -> str:
        name, number = match.group(1), match.group(2)
        if number:
            return f"{{{{ arg({number}) }}}}"
        return f"{{{{ {name.lower()} }}}}"

    return _GO_SYNTAX.sub(translate, source)
