"""Recipe templates: sandboxed Jinja2, quoting by default, |raw, template_error."""

from __future__ import annotations

import shlex
import subprocess

import pytest

from dp.rules.recipe import Arg, RecipeError, render, template_error

@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """bashlex tables and compiled recipes go to a temporary cache, not ~/.cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "dp"


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
        ("s {{ arg(2) }}", "s '$HOME'"),
        ("s {{ arg(3) }} {{ arg(9) }}", "s plain ''"),
        ("s {{ args }}", "s 'x; rm -rf ~' '$HOME' plain"),
        ("s {{ args|raw }}", "s 'x; rm -rf ~' \"$HOME\" plain"),
        ("s {{ arg(2)|raw }}", 's "$HOME"'),
        ("{{ matched }} --wait", "gt convoy wait --wait"),
        ("cd {{ cwd }} && {{ full }}", "cd '/w d' && 'full; cmd'"),
        ("s {{.Arg 1}} {{.Args}}", "s 'x; rm -rf ~' 'x; rm -rf ~' '$HOME' plain"),
    ],
)
def test_substitutions_quote_agent_values(source, expected):
    assert fill(source) == expected


@pytest.mark.parametrize(
    "simple, jinja",
    [
        ("a {{ arg(1) }} {{ args }} {{ cwd|raw }}", "a {{ arg(1) }} {{ args }} {{ cwd|raw }}{% if true %}{% endif %}"),
        ("{{ matched }} {{ args|raw }}", "{{ matched }} {{ args|raw }}{# comment #}"),
    ],
)
def test_fast_path_renders_exactly_like_jinja(simple, jinja):
    assert fill(simple) == fill(jinja)
    assert used(simple) == used(jinja)


def test_control_structures_and_filters_work_and_stay_quoted():
    source = "{% for a in args %}--id {{ a }} {% endfor %}{{ args|length }} {{ arg(1)|upper }}"
    assert fill(source) == "--id 'x; rm -rf ~' --id '$HOME' --id plain 3 'X; RM -RF ~'"


def test_injection_attempt_stays_one_argument_when_run_by_bash():
    script = fill("printf '%s\\n' {{ args }}")
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["x; rm -rf ~", "$HOME", "plain"]
    assert shlex.split(fill("echo {{ arg(1) }}"))[1] == "x; rm -rf ~"


def test_arguments_used_by_the_template():
    assert used("no args") == set()
    assert used("{{ arg(1) }} {{ arg(3) }}") == {1, 3}
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
        fill("{{ unknown_name }}")
    with pytest.raises(RecipeError):
        fill("{{ arg(1) ")
    with pytest.raises(RecipeError):
        fill("{{ 1 // 0 }}")


def test_template_error_reports_line_numbers():
    assert template_error("plain script; no tags") is None
    assert template_error("a {{ arg(1) }}\n{% for x in args %}{{ x }}{% endfor %}") is None
    assert template_error("{{.Arg 2}} {{.Args}}") is None
    syntax = template_error("line one\n{% for x in args %}\n{{ x }}")
    assert syntax is not None and syntax.startswith("line ") and "\n" not in syntax
    unknown = template_error("ok\nstill ok\n{{ argz }}")
    assert unknown.startswith("line 3: unknown variable 'argz'")


def test_compiled_templates_are_cached_and_a_bad_cache_is_ignored(private_cache):
    source = "{% for a in args %}x {{ a }};{% endfor %}"
    expected = "x 'x; rm -rf ~';x '$HOME';x plain;"
    assert fill(source) == expected
    [cached] = private_cache.glob("recipe-*.marshal")
    assert fill(source) == expected  # served from the cache
    cached.write_bytes(b"not marshal data")
    assert fill(source) == expected
    assert cached.read_bytes() != b"not marshal data"
