"""Templates: text rendering, and shell rendering that never lets a value run."""

import os
import re
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
    "echo 'glued to quotes: '{{evil}}\"!\"",
    'echo "$(echo {{evil}})"',
    "echo $(echo {{evil}})",
    "VALUE={{evil}}; echo \"$VALUE\"",
    "printf '%s\\n' {{evil}} {{evil}}",
    "if [ -n {{evil}} ]; then echo {{evil}}; fi",
    "[[ {{evil}} == *touch* ]] && echo {{evil}}",
    "echo {{evil}} # trailing comment {{evil}}",
    "cat <<< {{evil}}",
    "cat <<'EOF'\n$literal\nEOF\necho {{evil}}",
])
def test_hostile_values_are_inert_and_arrive_intact(tmp_path, template):
    output = run_bash(template, VARS, tmp_path)
    assert_nothing_ran(tmp_path)
    # The value arrives as data (word splitting may fold its whitespace in unquoted spots).
    assert "$(touch pwned-sub); `touch pwned-tick`; ' \" \\ ; touch pwned-semi" in output
    assert "touch pwned-eof" in output


@pytest.mark.parametrize("template", [
    'echo "Hi {{evil}}"',
    'echo "{{evil}}"',
    "echo 'quoted: {{evil}}'",
    "echo $'a\\t{{evil}}'",
    "cat <<EOF\nbefore {{evil}}\nEOF",
    "cat <<'EOF'\nbefore {{evil}} $HOME `x` \\n\nEOF",
    "cat <<-EOF\n\t{{evil}}\n\tEOF",
    "cat <<EOF\n$(echo {{evil}})\nEOF",
    'echo x\necho "line two {{evil}}"',
])
def test_values_in_quotes_and_heredocs_are_data(tmp_path, template):
    """Inside quotes and heredoc bodies a value is rendered as data: nothing in it runs."""
    output = run_bash(template, VARS, tmp_path)
    assert_nothing_ran(tmp_path)
    assert "$(touch pwned-sub); `touch pwned-tick`" in output


@pytest.mark.parametrize("template,context,advice", [
    ('bash -c "echo {{evil}}"', "would run as code in bash -c", "sh -c '… \"$1\"' _ {{evil}}"),
    ("trap 'rm -f {{evil}}' EXIT", "would run as code in trap", "trap cleanup EXIT"),
    ("echo `echo {{evil}}`", "inside backticks", "$( … )"),
    ("echo $(( {{n}} + 1 ))", "would run as code in arithmetic", "case $n in"),
    ("if (( {{n}} > 0 )); then echo positive; fi", "would run as code in arithmetic", "n={{n}}"),
    ("[[ {{n}} -eq 3 ]] && echo three", "would run as code in arithmetic", "n={{n}}"),
    ("arr=(a b); echo ${arr[{{n}}]}", "parameter expansion", "v={{n}}"),
    ("echo ${unset:-{{n}}}", "parameter expansion", "v={{n}}"),
    ("cat <<{{who}}\nx\n{{who}}", "heredoc delimiter", "fixed word"),
    ("echo x\neval {{who}}", "line 2: {{who}} would run as code in eval", "not through eval"),
])
def test_code_sinks_and_unplaceable_spots_are_refused(template, context, advice):
    """Where a program reads a value as code, or no rendering keeps it data, a template is refused."""
    with pytest.raises(TemplateError) as error:
        render_shell(template, VARS)
    assert context in str(error.value)
    assert advice in str(error.value)


def test_the_advice_is_itself_accepted(tmp_path):
    with pytest.raises(TemplateError) as error:
        render_shell("sh -c {{evil}}", VARS)
    fixed = str(error.value).split("pass it as an argument: ", 1)[1].split(" (", 1)[0]
    assert fixed == "sh -c '… \"$1\"' _ {{evil}}"
    output = run_bash(fixed.replace("…", "echo"), VARS, tmp_path)
    assert_nothing_ran(tmp_path)
    assert "touch pwned-eof" in output


def test_incomplete_bash_with_placeholders_is_refused():
    with pytest.raises(TemplateError, match="not complete Bash"):
        render_shell("echo {{who}} 'open", VARS)
    assert render_shell("echo 'open", VARS).text == "echo 'open"  # nothing to place: bash judges it


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


@pytest.mark.parametrize("render", [render_shell, render_text])
def test_a_value_that_is_missing_is_an_error_naming_each_line(render):
    with pytest.raises(TemplateError) as caught:
        render("echo [{{nope}}]\necho [{{obj.missing}}] {{obj.list[5]}} {{who.deeper}}", VARS)
    assert [line.split(" has no value")[0] for line in caught.value.message.splitlines()] == [
        "line 1: {{nope}}", "line 2: {{obj.missing}}", "line 2: {{obj.list[5]}}", "line 2: {{who.deeper}}"]


def test_a_default_stands_in_for_a_missing_value_only(tmp_path):
    template = "echo [{{ nope | default('') }}] [{{ who | default(\"x\") }}] [{{obj.missing|default('a b')}}]"
    assert run_bash(template, VARS, tmp_path) == "[] [world] [a b]\n"
    assert render_text(template, VARS).text == "echo [] [world] [a b]"


@pytest.mark.parametrize("template, error", [
    ("echo {{ unclosed", "line 1: '{{' is not closed"),
    ("echo ok\necho {{name} and {{other}}", "line 2: '{{' is not closed"),
    ("echo {{ name | upper }}", "line 1: {{ name | upper }} does not parse: the only filter is | default('text')"),
])
@pytest.mark.parametrize("render", [render_shell, render_text])
def test_a_template_that_does_not_parse_is_an_error(render, template, error):
    with pytest.raises(TemplateError, match=re.escape(error)):
        render(template, {**VARS, "name": "n", "other": "o"})


def test_non_placeholder_braces_are_left_alone():
    template = "docker inspect --format '{{.State.Status}}' {{ who }} {{ 1 + 1 }} {{with space}}"
    rendered = render_shell(template, VARS)
    assert "{{.State.Status}}" in rendered.text
    assert "{{ 1 + 1 }}" in rendered.text
    assert "{{with space}}" in rendered.text
    assert rendered.env == {"DP_VAR_who": "world"}


def test_nul_bytes_cannot_reach_the_environment():
    assert render_shell("echo {{v}}", {"v": "a\0b"}).env == {"DP_VAR_v": "ab"}


@pytest.mark.parametrize("template,expected", [
    ("Hello {{who}}!", "Hello world!"),
    ("{{ obj.nested.key }}", "deep"),
    ("{{obj.list[0]}} {{obj.list[1].x}} {{obj.list[-1]['x']}}", "zero one one"),
    ("{{obj['nested'][\"key\"]}}", "deep"),
    ("{{n}}/{{flag}}", "3/true"),
    ("{{evil}}", HOSTILE),
    ("[{{missing | default('')}}]", "[]"),
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
