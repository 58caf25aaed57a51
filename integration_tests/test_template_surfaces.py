"""Alias recipes and YAML recipe steps: one ``{{ }}`` placement rule, one error type, one wording.

The two surfaces render differently (``dp.templating`` says why), but a
placeholder bash would read again as code is refused by both, through the
same check, in the same words, as one ``dp: error:`` line.
"""

from __future__ import annotations

import re

import pytest
from cli_assertions import assert_one_line_error

from dp.errors import DpError
from dp.recipes import templates
from dp.rules import recipe as alias_recipe
from dp.templating import TemplateError

# (alias script, YAML command, what both say about the placeholder)
MISPLACED = [
    ('bash -c "echo {{ args }}"', 'bash -c "echo {{ who }}"', "would run as code in bash -c"),
    ("trap 'rm {{ args }}' EXIT", "trap 'rm {{ who }}' EXIT", "would run as code in trap"),
    ("echo $(( {{ arg(1) }} + 1 ))", "echo $(( {{ who }} + 1 ))", "would run as code in arithmetic"),
    ("python3 - <<EOF\n{{ args }}\nEOF", "python3 - <<EOF\n{{ who }}\nEOF", "would run as code in python3"),
    ("echo `echo {{ args }}`", "echo `echo {{ who }}`", "is inside backticks"),
]
_SHAPE = re.compile(r"line \d+: \{\{ ?[\w()]+ ?\}\} (would run as code in .+|is .+, where bash would read it "
                    r"again as code); .+")


@pytest.mark.parametrize("alias_script, yaml_command, context", MISPLACED)
def test_both_surfaces_refuse_the_same_places_in_the_same_words(dp, tmp_path, alias_script, yaml_command,
                                                               context):
    alias = dp("alias", "--recipe", "gt x", alias_script)
    assert_one_line_error(alias, context)
    recipe = tmp_path / "r.yaml"
    indented = yaml_command.replace("\n", "\n      ")
    recipe.write_text(f"name: r\ncontext:\n  who: me\nsteps:\n  - id: s\n    command: |\n      {indented}\n")
    validate = dp("recipe", "validate", recipe)
    assert validate.returncode == 2
    assert_one_line_error(validate, context)
    for proc in (alias, validate):
        assert _SHAPE.search(proc.stderr), proc.stderr


def test_one_error_type_for_both_surfaces():
    with pytest.raises(TemplateError) as yaml_error:
        templates.render_shell('sh -c "{{ who }}"', {"who": "x"})
    with pytest.raises(TemplateError) as alias_error:
        alias_recipe.render('sh -c "{{ args }}"', args=["x"], matched="gt x", raw="gt x x", full="gt x x",
                            cwd="/")
    assert templates.TemplateError is alias_recipe.TemplateError is TemplateError
    assert issubclass(TemplateError, DpError)
    assert "would run as code in sh -c" in yaml_error.value.message
    assert "would run as code in sh -c" in alias_error.value.message


def test_an_alias_template_that_fails_to_render_is_the_same_error():
    with pytest.raises(TemplateError, match="too big"):
        alias_recipe.render("{{ 'a' * 999999999 }}", args=[], matched="m", raw="r", full="f", cwd="/")
    with pytest.raises(TemplateError, match="not complete Bash"):
        templates.render_shell("echo {{ who }} 'open", {"who": "x"})
