"""Where a placeholder sits in Bash, and which program would read it as code (dp.shell.placement, dp.shell.sinks)."""

import re

import pytest

from dp.shell.lexer import Unparseable
from dp.shell.placement import DOUBLE, HEREDOC_BODY, SINGLE, WORD, plan, rewrite
from dp.shell.script_shape import has_several_commands, needs_own_line
from dp.shell.sinks import SINKS

TAG = re.compile(r"\{\{.*?\}\}")


def judged(text: str, blanks=()):
    return plan(text, [m.span() for m in TAG.finditer(text)], blanks)


def contexts(text: str) -> list[str]:
    return [context for context, _, _ in judged(text).contexts.values()]


def refusals(text: str) -> list[str]:
    return [problem.text for problem in judged(text).problems]


@pytest.mark.parametrize("text", [
    "echo {{x}}",
    "echo a{{x}}b",
    "x={{x}} cmd {{y}} > {{z}}",
    'echo "$(cat {{x}})"',  # a substitution is code again, even inside double quotes
    "diff <(sort {{x}}) <(sort {{y}})",
    "( cd {{x}} && ls ) | wc -l",
    "[[ -n {{x}} && {{y}} == a* ]]",
    "case {{x}} in a) echo {{y}};; esac",
    "for f in {{x}}; do echo \"$f\"; done",
    "cat <<< {{x}}",
    "cat <<'EOF'\ntext\nEOF\necho {{x}}",
])
def test_plain_words_are_fine(text):
    assert set(contexts(text)) == {WORD} and refusals(text) == []


@pytest.mark.parametrize("text,context", [
    ('echo "{{x}}"', DOUBLE),
    ('echo $"{{x}}"', DOUBLE),
    ("echo '{{x}}'", SINGLE),
    ("echo $'{{x}}'", SINGLE),
    ("cat <<EOF\n{{x}}\nEOF", HEREDOC_BODY),
    ("cat <<-EOF\n\t$(echo {{x}})\n\tEOF", HEREDOC_BODY),
    ("cat <<'EOF'\n{{x}}\nEOF", HEREDOC_BODY),
    ('cat <<"EOF"\n{{x}}\nEOF', HEREDOC_BODY),
    ("echo ok # {{x}}", WORD),
    ('echo "$(echo "{{x}}")"', DOUBLE),  # innermost context wins
])
def test_data_contexts_are_rendered_not_refused(text, context):
    assert set(contexts(text)) == {context} and refusals(text) == []


@pytest.mark.parametrize("text,fragment", [
    ("echo `echo {{x}}`", "inside backticks"),
    ('echo "`echo {{x}}`"', "inside backticks"),
    ("echo ${v:-{{x}}}", "parameter expansion"),
    ("echo ${a[{{x}}]}", "parameter expansion"),
    ("cat <<{{x}}\nbody\n{{x}}", "heredoc delimiter"),
    ("echo $(( {{x}} + 1 ))", "in arithmetic"),
    ("(( {{x}} > 1 )) && echo big", "in arithmetic"),
    ("[[ {{x}} -gt 1 ]]", "in arithmetic"),
    ("[[ -v {{x}} ]]", "in arithmetic"),
    ("a[{{x}}]=1", "in an array assignment"),
])
def test_places_that_cannot_hold_data_are_refused(text, fragment):
    [problem] = refusals(text)
    assert fragment in problem and problem.startswith("line ")


def test_blanked_tags_and_the_rewrite_of_a_quoted_heredoc():
    text = "{% if a == '\"' %}echo {{x}}{% endif %}"
    blanks = [m.span() for m in re.finditer(r"\{%.*?%\}", text)]
    assert judged(text, blanks).problems == []
    text = "cat <<'EOF' >out\n$HOME `x` \\ {{v}}\nEOF\necho 'a={{v}}' \"{{v}}\""
    result = rewrite(text, judged(text), lambda tag, context, span: f"<{context}>")
    assert result == ("cat <<EOF >out\n\\$HOME \\`x\\` \\\\ <heredoc>\nEOF\n"
                      "echo 'a='<single-quoted>'' \"<double-quoted>\"")


def test_a_quoted_delimiter_that_is_not_a_plain_word_is_renamed():
    text = "cat <<'END HERE'\n{{v}}\nEND HERE\n"
    assert rewrite(text, judged(text), lambda tag, context, span: "V") == "cat <<DP_EOF\nV\nDP_EOF\n"


def test_incomplete_bash_cannot_be_judged():
    for text in ("echo '{{x}}", 'echo "{{x}}', "cat <<EOF\n{{x}}", "echo $(( {{x}}"):
        with pytest.raises(Unparseable):
            judged(text)


@pytest.mark.parametrize("script,several,own_line", [
    ("echo a", False, False),
    ("echo 'a;b' \"c|d\" $(e; f)", False, False),
    ("echo a\\;b", False, False),
    ("echo a; echo b", True, False),
    ("echo a # note", True, True),
    ("cat <<EOF\nx\nEOF", True, True),
    ("echo 'open", True, True),
])
def test_script_shapes(script, several, own_line):
    assert has_several_commands(script) is several
    assert needs_own_line(script) is own_line


@pytest.mark.parametrize("text, program", [
    ("eval echo {{x}}", "eval"),
    ("ls; ssh host ls {{dir}}", "ssh"),
    ("trap 'rm {{f}}' EXIT", "trap"),
    ("bash  -c 'echo {{x}}'", "bash -c"),
    ('sh -c "echo {{x}}"', "sh -c"),
    ("sudo -u bob sh -c {{x}}", "sh -c"),
    ("timeout 5 nice -n 3 nohup bash -c {{x}}", "bash -c"),
    ("su -c {{cmd}}", "su"),
    ("runuser -u bob -c {{cmd}}", "runuser"),
    ("env -S {{x}}", "a wrapper"),
    ("env {{x}} ls", "a wrapped command word"),
    ("env -u HOME {{x}} ls", "a wrapped command word"),
    ("env --split-string={{x}}", "a wrapper"),
    ("watch {{x}}", "watch"),
    ("ls | xargs {{x}}", "a wrapped command word"),
    ("ls | xargs -0 sh -c {{x}}", "sh -c"),
    ("parallel echo ::: {{x}}", "parallel"),
    ("find . -exec sh -c {{x}} \\;", "sh -c"),
    ("find . -execdir {{x}} \\;", "a wrapped command word"),
    ("find . -ok bash -c {{x}} \\;", "bash -c"),
    ("python3 -c {{x}}", "python3 -c"),
    ("python3 {{x}}", "python3"),
    ("node -e {{x}}", "node -e"),
    ("node --print {{x}}", "node --print"),
    ("perl -ne {{x}} file", "perl -ne"),
    ("ruby -e {{x}}", "ruby -e"),
    ("php -r {{x}}", "php -r"),
    ("awk -F: {{x}} /etc/passwd", "awk"),
    ("sed -n {{x}} f", "sed"),
    ("sed -e {{x}} f", "sed -e"),
    ("jq -r {{x}} data.json", "jq"),
    ("bash <<EOF\n{{x}}\nEOF", "bash"),
    ("python3 - <<'EOF'\n{{x}}\nEOF", "python3"),
    ("bash <<< {{x}}", "bash"),
    ("printf '%s' {{x}} | sh", "sh"),
    ("printf '%s' {{x}} | xargs -I{} sh -c 'echo {}'", "xargs -I … sh"),
    ("let n={{x}}+1", "let"),
    ("printf {{x}}", "printf"),
    ("printf -v {{x}} %s 1", "printf -v"),
    ("source {{x}}", "source"),
    (". {{x}} arg", "."),
    ("export {{x}}", "export"),
    ("read -r {{x}}", "read"),
    ("[ -v {{x}} ]", "[ -v"),
])
def test_code_sinks_name_the_program_that_reads_the_value(text, program):
    [problem] = judged(text).problems
    assert problem.code and problem.program == program, problem.text
    assert f"would run as code in {program}: " in problem.text


@pytest.mark.parametrize("text", [
    "sh -c 'echo \"$1\"' _ {{x}}",  # an argument after the script: data
    "python3 -c 'import sys; print(sys.argv[1])' {{x}}",
    "python3 script.py <<EOF\n{{x}}\nEOF",  # a script file: stdin is data
    "awk -v v={{x}} '{ print v }' f",
    "sed s/a/b/ {{x}}",
    "jq --arg v {{x}} '.[$v]' data.json",
    "printf '%s\\n' {{x}}",
    "export NAME={{x}}",
    "trap 'echo bye' {{x}}",
    "timeout {{x}} ls",
    "sudo -u {{x}} ls",
    "env A={{x}} ls",
    "evaluate {{x}}",
    "eval x\necho {{y}}",
    "grep -e {{x}} file",
    "{{x}} --version",  # a program not wrapped: unknown commands are data
])
def test_data_positions_of_known_programs_and_unknown_programs_pass(text):
    assert judged(text).problems == []


def test_every_sink_has_a_reason_and_an_alternative():
    for program, (kind, _, reason, alternative) in SINKS.items():
        assert kind and reason and alternative, program
