"""Recipe templates: the agent's words as typed, dp's compiled language and the bounded Jinja2 sandbox."""

from __future__ import annotations

import os
import random
import shlex
import subprocess
import time

import pytest

from dp.rules.recipe import Arg, _in_context, program_for, render, template_error
from dp.templating import TemplateError as RecipeError  # one error type for both template surfaces


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """bashlex tables and compiled recipes go to a temporary cache, not ~/.cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "dp"


# What the hook hands a recipe: each word's value and its text as typed.
ARGS = [Arg("x; rm -rf ~", "'x; rm -rf ~'"), Arg("$HOME", '"$HOME"'), Arg("plain")]


def fill(source: str, args=ARGS) -> str:
    text, _ = render(source, args=args, matched="gt convoy wait", raw="gt convoy wait …", full="full; cmd", cwd="/w d")
    return text


def used(source: str, args=ARGS):
    return render(source, args=args, matched="m", raw="r", full="f", cwd="c")[1]


def test_verbatim_script_is_returned_unchanged():
    assert fill("while true; do gt mol status; sleep 5; done") == "while true; do gt mol status; sleep 5; done"


@pytest.mark.parametrize(
    "source, expected",
    [
        ("s {{ arg(1) }}", "s 'x; rm -rf ~'"),
        ("s {{ arg(2) }}", 's "$HOME"'),
        ("s {{ arg(3) }} {{ arg(9) }}.", "s plain ."),  # a missing argument prints nothing
        ("s {{ arg(9) | default('open') }} {{ arg(1) | default('open') }}", "s open 'x; rm -rf ~'"),
        ("s {{ args }}", "s 'x; rm -rf ~' \"$HOME\" plain"),
        ("s {{ args[1:] | join(' ') }}", 's "$HOME" plain'),
        ("s {{ args[-1] }} {{ args[7] }}.", "s plain ."),
        ("s {{ args | value }}", "s 'x; rm -rf ~' '$HOME' plain"),
        ("s {{ arg(2) | quote }}", "s '$HOME'"),
        ("s {{ args|raw }}", "s 'x; rm -rf ~' \"$HOME\" plain"),
        ("{{ matched }} --wait", "gt convoy wait --wait"),
        ("{{ raw }}", "gt convoy wait …"),
        ("cd {{ cwd }} && {{ full }}", "cd '/w d' && 'full; cmd'"),
        ("s {{.Arg 2}} {{.Args}}", 's "$HOME" \'x; rm -rf ~\' "$HOME" plain'),
    ],
)
def test_placeholders_print_the_agents_words_as_typed(source, expected):
    assert fill(source) == expected
    assert fill(source + "{# through Jinja2 #}") == expected


def test_template_logic_sees_values():
    # (printed by echo: a command word that is itself a value would make every other value refused)
    source = "{% if arg(2) == '$HOME' %}echo {{ args|length }} {{ arg(1)|upper }}{% endif %}{{ arg(5) is defined }}"
    assert fill(source) == "echo 3 'X; RM -RF ~'False"
    assert fill("{% for a in args %}--id {{ a }} {% endfor %}") == "--id 'x; rm -rf ~' --id \"$HOME\" --id plain "


def test_the_agents_words_reach_the_script_as_they_would_the_original_command(tmp_path):
    typed = ["'x; rm -rf ~'", '"$HOME"', "~/x", "*.txt"]
    (tmp_path / "a.txt").write_text("")
    args = [Arg("", word) for word in typed]
    script = render("printf '[%s]' {{ args }}", args=args, matched="", raw="", full="", cwd="")[0]
    original = "printf '[%s]' " + " ".join(typed)
    def run(text):
        return subprocess.run(["bash", "-c", text], cwd=tmp_path, capture_output=True, text=True).stdout
    assert run(script) == run(original) == f"[x; rm -rf ~][{os.environ['HOME']}][{os.environ['HOME']}/x][a.txt]"


def test_arguments_used_by_the_template():
    assert used("no args") == set()
    assert used("echo {{ arg(1) }} {{ arg(3) }}") == {1, 3}
    assert used("echo {{ arg(1) }} {{ arg(3) }}{# jinja #}") == {1, 3}
    assert used("{{ args }}") is None
    assert used("{{ raw }}") is None
    assert used("{% set n = 2 %}{{ arg(n) }}") is None


def test_sandbox_blocks_unsafe_attribute_access():
    with pytest.raises(RecipeError):
        fill("{{ args.__class__.__mro__ }}")
    with pytest.raises(RecipeError):
        fill("{{ cwd.__class__.__init__.__globals__ }}")


def test_render_errors_raise_recipe_error():
    with pytest.raises(RecipeError):
        fill("{{ arg(1) ")
    with pytest.raises(RecipeError):
        fill("{{ 1 // 0 }}")
    with pytest.raises(RecipeError, match="would run as code in sh -c"):
        fill('sh -c "{{ args }}"')


def test_template_error_reports_line_numbers():
    assert template_error("plain script; no tags") is None
    assert template_error("a {{ arg(1) }}\n{% for x in args %}{{ x }}{% endfor %}") is None
    assert template_error("{{.Arg 2}} {{.Args}}") is None
    syntax = template_error("line one\n{% for x in args %}\n{{ x }}")
    assert syntax is not None and syntax.startswith("line ") and "\n" not in syntax
    unknown = template_error("ok\nstill ok\n{{ argz }}")
    assert unknown.startswith("line 3: unknown variable 'argz'")


@pytest.mark.parametrize("source, message", [
    ("{{ 'a' * 999999999 }}", "too big: a repetition"),
    ("{{ [1, 2] * 99999999 }}", "too big: a repetition"),
    ("{{ args * 10**8 }}", "too big"),
    ("{% for i in range(10**9) %}x{% endfor %}", "too big"),
    ("{% for i in range(20000) %}{% endfor %}", "too big: range() of 20,000 items"),
    ("{{ 10 ** 10 ** 10 }}", "too big: a power"),
    ("{{ 'x'.ljust(10**9) }}", "too big"),
    ("{{ '%999999999s' % 1 }}", "too big: a format width"),
    ("{{ '%*s' % (999999999, 1) }}", "too big: a format width"),
    ("{% macro f(x) %}{{ f(x ~ x) }}{% endmacro %}{{ f('ab') }}", "too big: a string above"),
    ("{{ ('a' * 99999) ~ ('b' * 99999) }}", "too big: a string above"),
    ("{% for i in range(9000) %}{% for j in range(9000) %}{{ i }}{% endfor %}{% endfor %}", "too big: output"),
    ("{% for i in range(9000) %}{% for j in range(9000) %}{% endfor %}{% endfor %}", "takes more than"),
    ("{{ 'a'|center(999999) }}", "No filter named 'center'"),
    ("{{ 'a'|wordwrap(5) }}", "No filter named 'wordwrap'"),
    ("{{ '{}'.format(cwd) }}", "format() is not available"),
    ("{{ cwd.replace('/', 'xx') }}", "replace() is not available"),
    ("{% set ns = namespace(x='a') %}", "unknown variable 'namespace'"),
])
def test_size_bombs_are_refused_when_written(source, message):
    """Judged by a trial render within the sandbox's bounds; the hook would stop at the same bound."""
    started = time.monotonic()
    error = template_error(source)
    assert error is not None and message in error, error
    assert time.monotonic() - started < 6
    if "No filter" not in message and "unknown variable" not in message and "takes more" not in message:
        with pytest.raises(RecipeError):
            fill(source)


def _random_template(rng: random.Random) -> str:
    expressions = ["args", "arg(1)", "arg(2)", "arg(4)", "args[0]", "args[-1]", "args[5]", "args[1:]",
                   "args[:2]", "args[-2:]", "matched", "raw", "full", "cwd"]
    filters = ["raw", "value", "quote", "join", "join(' ')", "join(',')", "default('dflt')", 'default("d v")',
               "d('x')"]
    pieces = ["echo "]  # complete Bash: a template whose placement cannot be judged is refused
    for _ in range(rng.randint(2, 8)):
        pieces.append(rng.choice(["echo ", " ", "x", "--flag=", "\necho ", "\r\necho ", " | cat ", "'lit' "]))
        chain = "".join(f" | {rng.choice(filters)}" for _ in range(rng.randint(0, 2)))
        pieces.append("{{" + rng.choice(["", " "]) + rng.choice(expressions) + chain + rng.choice(["", " "]) + "}}")
    return "".join(pieces)


def _random_word(rng: random.Random) -> Arg:
    value = "".join(rng.choice(["a", " ", "'", '"', "$", "*", "~", "\\", ";", "é", "\n", "x"])
                    for _ in range(rng.randint(0, 6)))
    return Arg(value, rng.choice([value, shlex.quote(value), '"' + value + '"']))


def test_compiled_and_jinja_renderings_agree_on_random_templates_and_arguments():
    rng = random.Random(2026)
    for _ in range(120):
        source = _random_template(rng)
        assert program_for(source) is not None, source
        args = [_random_word(rng) for _ in range(rng.randint(0, 4))]
        values = dict(args=args, matched="gt x", raw="gt x 'a b'", full="gt x 'a b' && ls", cwd="/w d")
        compiled = _outcome(source, values)
        via_jinja = _outcome(source + "{# force Jinja2 #}", values)
        assert compiled == via_jinja, (source, args)


def _outcome(source: str, values: dict):
    """The rendering, or the refusal (a value a program would read as an option): both renderers agree."""
    try:
        return render(source, **values)
    except RecipeError as error:
        return str(error)


def test_compiled_templates_are_cached_and_a_bad_cache_is_ignored(private_cache):
    source = "{% for a in args %}x {{ a }};{% endfor %}"
    expected = "x 'x; rm -rf ~';x \"$HOME\";x plain;"
    assert fill(source) == expected
    [cached] = private_cache.glob("recipe-*.marshal")
    assert fill(source) == expected  # served from the cache
    cached.write_bytes(b"not marshal data")
    assert fill(source) == expected
    assert cached.read_bytes() != b"not marshal data"


def test_a_cached_template_is_used_only_for_the_exact_source_it_was_compiled_from(private_cache):
    """The cache's file name is a short checksum: the file keeps the whole stamp, and another
    template's code under that name (a checksum collision) is never run."""
    import marshal

    first, second = "{% for a in args %}x {{ a }};{% endfor %}", "{% for a in args %}y {{ a }};{% endfor %}"
    assert fill(second).startswith("y ")
    [other] = private_cache.glob("recipe-*.marshal")
    colliding = other.read_bytes()
    other.unlink()
    assert fill(first).startswith("x ")
    [cached] = private_cache.glob("recipe-*.marshal")
    cached.write_bytes(colliding)  # the second template's stamp and code under the first's name
    assert fill(first) == "x 'x; rm -rf ~';x \"$HOME\";x plain;"
    stamp, _ = marshal.loads(cached.read_bytes())
    assert stamp.endswith(_in_context(first))  # the template as fitted to its places (its checks included)


def test_an_agents_word_a_program_would_read_as_an_option_is_refused_the_templates_own_is_not():
    """Issue 47: ``arg(n)`` is checked when the hook renders it; ``args`` and the template's default are not."""
    template = 'gh pr view {{ arg(1) | default("--web") }}'
    assert fill(template, args=[]) == "gh pr view --web"
    assert fill(template, args=[Arg("42")]) == "gh pr view 42"
    with pytest.raises(RecipeError, match=r"^line 1: \{\{ arg\(1\) \| default\(\"--web\"\) \}\} would be read as an "
                                          r"option by gh: its value '--repo=x/y' starts with -"):
        fill(template, args=[Arg("--repo=x/y")])
    with pytest.raises(RecipeError, match="known only when it runs"):
        fill("sed 's/a/b/' {{ arg(1) }}", args=[Arg("*.txt")])
    assert fill("sed 's/a/b/' {{ arg(1) }}", args=[Arg("", '"$X"')]) == "sed 's/a/b/' \"$X\""  # the agent's own
    assert fill("gh pr view -- {{ arg(1) }}", args=[Arg("-x")]) == "gh pr view -- -x"
    assert fill("git commit {{ args }}", args=[Arg("-m"), Arg("fix it", "'fix it'")]) == "git commit -m 'fix it'"
