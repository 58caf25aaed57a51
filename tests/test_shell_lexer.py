"""The lexer's pre-pass, the hook's command-word gate and the tokenisation helpers."""

from __future__ import annotations

import pytest

from dp.shell.lexer import Unparseable, plain_runs, prepare
from dp.shell.script_shape import has_several_commands
from dp.shell.words import command_words


@pytest.mark.parametrize(
    "text",
    [
        "git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\" && ls",
        "[[ -f x ]] && echo $((1+2)) && (( i++ )); time -p ls",
        "a=(1 2) b+=(3); case $x in a) ls;; esac",
        "echo $[1 + 2] $(a && b || c & d;) <(e\nf # g\n) `h\ni` $(j \\\n k) $(seq $#)",
        "find . -ok rm { } \\; ; case $x in\na) ls\n;;\nesac",
    ],
)
def test_prepare_keeps_length_and_everything_outside_the_masks(text):
    prepared = prepare(text)
    assert len(prepared.text) == len(text)
    assert prepared.masks
    for index, (before, after) in enumerate(zip(text, prepared.text)):
        if not prepared.masked(index, index + 1):
            assert before == after


@pytest.mark.parametrize(
    "text, expected",
    [
        ("echo $[2*(3+4)] x", "echo $_________ x"),
        ("x=$(a && b || c & d;)", "x=$(a ;  b ;  c ; d )"),
        ("x=<(a\n\nb # c\nd &\n)", "x=<(a; b ;   d   )"),
        ("x=`a\nb\n`", "x=`a;b `"),
        ("x=$(a \\\n b)", "x=$(a    b)"),
        ("x=$(seq $# a#b '#' ${#v})", "x=$(seq $_ a_b '#' ${#v})"),
        ("find -ok rm { } \\;", "find -ok rm _ } \\;"),
        ("case $x in\na) ls\n;;\nb) ls;;\nesac", "{         \n   ls\n  \n   ls; \n}   "),
    ],
)
def test_prepare_overwrites_what_bashlex_misreads(text, expected):
    assert prepare(text).text == expected


def test_prepare_leaves_braces_and_hashes_bashlex_reads():
    text = "echo { x } y && echo a#b ${x#y} \"$(echo '#')\""
    assert prepare(text).text == text


def test_prepare_blanks_heredoc_bodies_and_keeps_the_next_line():
    text = "cat <<'EOF' > f\ngrep body\nEOF\ngrep after"
    prepared = prepare(text)
    assert prepared.text.startswith("cat <______ > f\n")
    assert "grep body" not in prepared.text
    assert prepared.text.endswith("\ngrep after")


@pytest.mark.parametrize("text", ["echo 'a${'b", "echo x'${'", "echo 'a${x}${'\"b\"", "echo '${'$x"])
def test_prepare_refuses_the_quoting_that_hangs_bashlex(text):
    with pytest.raises(Unparseable):
        prepare(text)


@pytest.mark.parametrize("text", ["echo '${'", "echo '${x}'b", "echo '${' b", "sed 's/${VAR}/x/' f"])
def test_prepare_accepts_similar_quoting_bashlex_reads(text):
    assert prepare(text).text == text


def test_prepare_leaves_plain_commands_alone():
    text = "ls -la | grep -v x && echo 'a;b' \"c\" # done"
    prepared = prepare(text)
    assert prepared.text == text
    assert prepared.masks == []


@pytest.mark.parametrize("text", ["echo 'a${b", "echo \"x", "echo $(x", "echo ${x", "echo `x", "a )", "cat <<EOF\nx"])
def test_prepare_rejects_unbalanced_input(text):
    with pytest.raises(Unparseable):
        prepare(text)


def test_command_words_drop_plain_quoted_strings():
    assert command_words("echo 'grep x' \"rg y\" && /usr/bin/scp a") == {"echo", "scp", "/usr/bin/scp", "a"}


def test_command_words_keep_commands_inside_double_quoted_substitutions():
    words = command_words('echo "$(grep x)" "`rg y`"')
    assert {"grep", "rg"} <= words


def test_command_words_see_through_escapes_and_separators():
    words = command_words("echo it\\'s;grep x|wc&&(ls)>f")
    assert {"echo", "grep", "wc", "ls"} <= words


def test_command_words_know_that_backslash_quote_does_not_end_ansi_c_quoting():
    assert "grep" in command_words("echo $'\\'' ; grep x ; echo 'y'")
    assert "grep" in command_words("echo \\$'a\\' ; grep x ; echo 'q'")  # an escaped $ starts no $'…'
    assert command_words("echo $'it\\'s grep' b") == {"echo", "b"}


def test_plain_runs_exclude_quotes_escapes_and_expansions():
    word = 'user@old:"q"$HOME/a\\ b$(c)d'
    assert [word[start:end] for start, end in plain_runs(word)] == ["user@old:", "/a", "b", "d"]


@pytest.mark.parametrize(
    "script, expected",
    [("a; b", True), ("a && b", True), ("a | b", True), ("a\nb", True), ("a &", True),
     ("echo 'a;b'", False), ('echo "a|b"', False), ("echo a\\;b", False), ("gt status --wait", False)],
)
def test_has_several_commands(script, expected):
    assert has_several_commands(script) is expected
