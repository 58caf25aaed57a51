"""Where a placeholder sits in Bash: one scanner (dp.shell.lexer) judges every template."""

import re

import pytest

from dp.shell.lexer import Unparseable
from dp.shell.script_shape import has_several_commands, needs_own_line
from dp.shell.placement import misplaced, reparsing_commands

TAG = re.compile(r"\{\{.*?\}\}")


def contexts(text: str, allowed=frozenset()) -> list[str]:
    return [item.context for item in misplaced(text, [m.span() for m in TAG.finditer(text)], allowed=allowed)]


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
    assert contexts(text) == []


@pytest.mark.parametrize("text,context", [
    ('echo "{{x}}"', "double-quoted"),
    ('echo $"{{x}}"', "double-quoted"),
    ("echo '{{x}}'", "single-quoted"),
    ("echo $'{{x}}'", "ansi-c-quoted"),
    ("echo `echo {{x}}`", "backtick"),
    ('echo "`echo {{x}}`"', "backtick"),
    ("echo $(( {{x}} + 1 ))", "arithmetic"),
    ("(( {{x}} > 1 )) && echo big", "arithmetic"),
    ("echo ${v:-{{x}}}", "parameter"),
    ("echo ${a[{{x}}]}", "parameter"),
    ("[[ {{x}} -gt 1 ]]", "test-arithmetic"),
    ("cat <<EOF\n{{x}}\nEOF", "heredoc"),
    ("cat <<-EOF\n\t$(echo {{x}})\n\tEOF", "heredoc"),
    ("cat <<'EOF'\n{{x}}\nEOF", "quoted-heredoc"),
    ('cat <<"EOF"\n{{x}}\nEOF', "quoted-heredoc"),
    ("cat <<{{x}}\nbody\n{{x}}", "heredoc-delimiter"),
    ("echo ok # {{x}}", "comment"),
    ('echo "$(echo "{{x}}")"', "double-quoted"),  # innermost context wins
])
def test_every_other_context_is_named(text, context):
    assert set(contexts(text)) == {context}


def test_allowed_contexts_and_blanked_tags():
    assert contexts("echo ok # {{x}}", allowed={"comment"}) == []
    text = "{% if a == '\"' %}echo {{x}}{% endif %}"
    blanks = [m.span() for m in re.finditer(r"\{%.*?%\}", text)]
    assert misplaced(text, [m.span() for m in TAG.finditer(text)], blanks) == []


def test_the_safe_form_moves_every_placeholder_of_a_string_out():
    [first, second] = misplaced('echo "pre {{a}} mid {{b}}" tail', [(10, 15), (20, 25)])
    assert first.advice == second.advice == 'write it as a plain word: echo "pre "{{a}}" mid "{{b}} tail'
    assert first.line == 1


def test_incomplete_bash_cannot_be_judged():
    for text in ("echo '{{x}}", 'echo "{{x}}', "cat <<EOF\n{{x}}", "echo $(( {{x}}"):
        with pytest.raises(Unparseable):
            misplaced(text, [m.span() for m in TAG.finditer(text)])


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


@pytest.mark.parametrize("text, tools", [
    ("eval echo {{x}}", ["eval"]),
    ("ls; ssh host ls {{dir}}", ["ssh"]),
    ("trap 'rm {{f}}' EXIT", ["trap"]),
    ("bash  -c 'echo {{x}}'", ["bash -c"]),
    ('sh -c "echo {{x}}"', ["sh -c"]),
    ("su -c {{cmd}}", ["su -c"]),
    ("sh -c 'echo \"$1\"' _ {{x}}", []),  # an argument after the script: data
    ("evaluate {{x}}", []),
    ("eval x\necho {{y}}", []),
])
def test_reparsing_commands_name_the_tool_that_reads_a_placeholder_as_code(text, tools):
    assert reparsing_commands(text) == tools
