"""Templates: text rendering, and shell rendering that never lets a value run."""

import os
import subprocess

import pytest

from dp.recipes.templates import TemplateError, placeholders, render_shell, render_text

HOSTILE = "$(touch pwned-sub); `touch pwned-tick`; ' \" \\ ; touch pwned-semi\nEOF\ntouch pwned-eof\n$HOME ${HOME}"

VARS = {
    "evil": HOSTILE,
    "who": "world",
    "n": 3,
    "flag": True,
    "obj": {"nested": {"key": "deep"}, "list": ["zero", {"x": "one"}]},
    "with space": "never matched",
}


def run_bash(template: str, variables: dict, cwd) -> str:
    rendered = render_shell(template, variables)
    env = {**os.environ, **rendered.env}
    proc = subprocess.run(["bash", "-c", rendered.text], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=10)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def assert_nothing_ran(directory):
    assert sorted(p.name for p in directory.iterdir() if p.name.startswith("pwned")) == []


@pytest.mark.parametrize("template", [
    "echo {{evil}}",
    "echo prefix-{{evil}}-suffix",
    'echo "in double quotes: {{evil}}"',
    "echo 'in single quotes: {{evil}}'",
    "echo $'ansi quotes: {{evil}}'",
    'echo "$(echo {{evil}})"',
    "echo $(echo {{evil}})",
    "echo `echo {{evil}}`",
    "VALUE={{evil}}; echo \"$VALUE\"",
    "printf '%s\\n' {{evil}} {{evil}}",
    "if [ -n {{evil}} ]; then echo {{evil}}; fi",
    "echo {{evil}} # trailing comment {{evil}}",
])
def test_hostile_values_are_inert_and_arrive_intact(tmp_path, template):
    output = run_bash(template, VARS, tmp_path)
    assert_nothing_ran(tmp_path)
    # The value arrives as data (word splitting may fold its whitespace in unquoted spots).
    assert "$(touch pwned-sub); `touch pwned-tick`; ' \" \\ ; touch pwned-semi" in output
    assert "touch pwned-eof" in output


@pytest.mark.parametrize("opener", ["<<EOF", "<< EOF", "<<'EOF'", '<<"EOF"', "<<\\EOF", "<<-EOF"])
def test_heredoc_bodies_are_inert(tmp_path, opener):
    template = f"cat {opener}\nbefore {{{{evil}}}} after $literal\nEOF\necho done {{{{who}}}}"
    output = run_bash(template, {**VARS}, tmp_path)
    assert_nothing_ran(tmp_path)
    assert f"before {HOSTILE} after" in output
    assert output.endswith("done world\n")


def test_quoted_heredoc_keeps_its_literal_text(tmp_path):
    template = "cat <<'EOF'\n$HOME `not run` \\n {{who}}\nEOF"
    assert run_bash(template, VARS, tmp_path) == "$HOME `not run` \\n world\n"


def test_quoted_heredoc_without_placeholders_is_untouched():
    template = "cat <<'EOF'\n$HOME {{.State}}\nEOF\n"
    rendered = render_shell(template, VARS)
    assert rendered.text == template
    assert rendered.env == {}


def test_unquoted_heredoc_still_expands_shell_variables(tmp_path):
    template = "X=shell; cat <<EOF\n$X {{who}}\nEOF"
    assert run_bash(template, VARS, tmp_path) == "shell world\n"


def test_values_travel_in_the_environment_not_the_script():
    rendered = render_shell("echo {{evil}} {{obj.nested.key}} {{evil}}", VARS)
    assert HOSTILE not in rendered.text
    assert "touch" not in rendered.text
    assert rendered.env == {"DP_VAR_evil": HOSTILE, "DP_VAR_obj_nested_key": "deep"}
    assert rendered.text == 'echo "${DP_VAR_evil}" "${DP_VAR_obj_nested_key}" "${DP_VAR_evil}"'


def test_similar_paths_get_distinct_variables():
    rendered = render_shell("echo {{a.b}} {{a_b}}", {"a": {"b": "dotted"}, "a_b": "flat"})
    assert sorted(rendered.env.values()) == ["dotted", "flat"]
    assert len(rendered.env) == 2


def test_shell_rendering_preserves_spaces_and_globs(tmp_path):
    (tmp_path / "file1").write_text("")
    output = run_bash("printf '[%s]' {{v}}", {"v": "  two  words * "}, tmp_path)
    assert output == "[  two  words * ]"


def test_numbers_booleans_and_collections(tmp_path):
    output = run_bash("echo {{n}} {{flag}} {{obj.list}}", VARS, tmp_path)
    assert output == '3 true ["zero",{"x":"one"}]\n'


def test_missing_values_render_empty_and_are_reported(tmp_path):
    rendered = render_shell("echo [{{nope}}] [{{obj.missing}}]", VARS)
    assert rendered.missing == ["nope", "obj.missing"]
    assert rendered.warnings("step 'x'") == [
        "step 'x': variable 'nope' is not set; rendered empty",
        "step 'x': variable 'obj.missing' is not set; rendered empty",
    ]
    assert run_bash("echo [{{nope}}]", VARS, tmp_path) == "[]\n"


def test_non_placeholder_braces_are_left_alone():
    template = "docker inspect --format '{{.State.Status}}' {{ who }} {{ 1 + 1 }} {{with space}}"
    rendered = render_shell(template, VARS)
    assert "{{.State.Status}}" in rendered.text
    assert "{{ 1 + 1 }}" in rendered.text
    assert "{{with space}}" in rendered.text
    assert rendered.env == {"DP_VAR_who": "world"}


def test_heredoc_delimiter_cannot_be_a_template():
    with pytest.raises(TemplateError, match="delimiter"):
        render_shell("cat <<{{who}}\nx\n{{who}}", VARS)


def test_nul_bytes_cannot_reach_the_environment():
    assert render_shell("echo {{v}}", {"v": "a\0b"}).env == {"DP_VAR_v": "ab"}


@pytest.mark.parametrize("template,expected", [
    ("Hello {{who}}!", "Hello world!"),
    ("{{ obj.nested.key }}", "deep"),
    ("{{obj.list[0]}} {{obj.list[1].x}} {{obj.list[-1]['x']}}", "zero one one"),
    ("{{obj['nested'][\"key\"]}}", "deep"),
    ("{{n}}/{{flag}}", "3/true"),
    ("{{evil}}", HOSTILE),
    ("[{{missing}}]", "[]"),
    ("{{obj.list[5]}}|{{who.deeper}}", "|"),
])
def test_render_text(template, expected):
    assert render_text(template, VARS).text == expected


def test_text_rendering_is_single_pass():
    assert render_text("{{a}}", {"a": "{{b}}", "b": "no"}).text == "{{b}}"


def test_placeholders_lists_paths():
    assert placeholders("{{a}} {{ b.c[0] }} {{.x}}") == ["a", "b.c[0]"]


def test_display_shows_values_quoted():
    display = render_shell("echo {{evil}}", VARS).display()
    assert display.startswith("DP_VAR_evil='$(touch pwned-sub)")
    assert display.endswith('echo "${DP_VAR_evil}"')


ARITHMETIC_BOMB = "a[$(touch pwned-arith)]"


@pytest.mark.parametrize("template", [
    "echo $(( {{n}} + 1 ))",
    'echo "sum: $(( {{n}} + 1 ))"',
    "if (( {{n}} > 0 )); then echo positive; fi",
    "[[ {{n}} -eq 3 ]] && echo three",
    "echo $(( $(echo {{n}}) * 2 ))",
    "cat <<EOF\n$(( {{n}} + 1 ))\nEOF",
    "cat <<EOF\n$( [[ {{n}} -gt 1 ]] && echo big )\nEOF",
    "arr=(a b c d); echo ${arr[{{n}}]}",
    'arr=(a b c d); echo "${arr[{{n}}]}"',
    "s=abcdef; echo ${s:{{n}}} ${s:1:{{n}}}",
    "cat <<EOF\n${BASH_VERSINFO[{{n}}]}\nEOF",
])
def test_values_in_shell_arithmetic_must_be_integers(tmp_path, template):
    """Bash evaluates arithmetic operands as code: an array subscript runs $( )."""
    with pytest.raises(TemplateError, match="arithmetic.*must be an integer"):
        render_shell(template, {"n": ARITHMETIC_BOMB})
    assert run_bash(template, {"n": 3}, tmp_path).strip() != ""
    render_shell(template, {"n": " -3 "})
    render_shell(template, {"n": "0x1F"})
    assert_nothing_ran(tmp_path)


@pytest.mark.parametrize("template", [
    "[[ {{n}} == *touch* ]] && echo matched",
    "cat <<'EOF'\n$(( {{n}} ))\nEOF",
    "echo $((1)) {{n}}",
    "cat <<EOF\n$(( 1 )) {{n}}\nEOF",
    "echo ${unset:-{{n}}}",
    'echo "${unset:-{{n}}}"',
    "cat <<EOF\n${unset:-{{n}}}\nEOF",
])
def test_non_arithmetic_uses_of_a_value_take_any_text(tmp_path, template):
    output = run_bash(template, {"n": ARITHMETIC_BOMB}, tmp_path)
    assert ARITHMETIC_BOMB in output or output == "matched\n"
    assert_nothing_ran(tmp_path)


@pytest.mark.parametrize("template", ["cat <<< {{evil}}", 'cat <<<"{{evil}}"'])
def test_here_strings_are_not_heredocs(tmp_path, template):
    output = run_bash(template + "\necho after", VARS, tmp_path)
    assert_nothing_ran(tmp_path)
    assert output.startswith("$(touch pwned-sub)") and output.endswith("after\n")
