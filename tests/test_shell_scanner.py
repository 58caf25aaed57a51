"""Each construct the scanner reads: its regions, what the pre-pass makes of it, and the spans the hook edits.

The hook rewrites a Bash string by the spans of its simple commands and their
words (``dp.shell.segment``), found by bashlex on the lexer's pre-pass. So for
every construct this checks three things on the real interfaces: the quoting
regions (``lexer.regions``), the same-length text bashlex reads
(``lexer.prepare``), and the exact source text of each command, argument and
redirection. Last, a round trip: rewriting no span (or every span by itself)
gives back the input byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dp.rules.apply import apply_edits, rewrite
from dp.rules.model import BASH_PARAM, BASH_TOOL, COMMAND, Rule
from dp.shell import lexer
from dp.shell.lexer import Unparseable, prepare, regions
from dp.shell.segment import simple_commands

CORPUS = Path(__file__).resolve().parent.parent / "integration_tests" / "data" / "corpus.txt"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """bashlex tables go to a temporary cache, not ~/.cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def kinds(text: str) -> list[tuple[str, str]]:
    """(source text, kind) of every region, in the order the scanner records them (innermost first)."""
    return [(text[start:stop], kind) for start, stop, kind in regions(text)]


def spans(text: str) -> list[tuple[str, str, list[str], list[str]]]:
    """(name, command text, argument texts, redirection texts) of each simple command, by span."""
    commands = simple_commands(text)
    assert commands is not None, f"could not segment {text!r}"
    return [(c.name, text[c.start : c.end], [text[a.start : a.end] for a in c.args],
             [text[start:end] for start, end in c.redirects]) for c in commands]


# --- quotes ---------------------------------------------------------------------


def test_nested_quotes_inside_a_substitution_inside_double_quotes():
    text = "echo \"a 'b' $(grep \"x y\" 'z') c\""
    assert kinds(text) == [
        ('"x y"', lexer.DOUBLE_QUOTED),
        ("'z'", lexer.SINGLE_QUOTED),
        ("$(grep \"x y\" 'z')", lexer.SUBSTITUTION),
        ("\"a 'b' $(grep \"x y\" 'z') c\"", lexer.DOUBLE_QUOTED),
    ]
    assert prepare(text).text == text
    assert spans(text) == [
        ("echo", text, ["\"a 'b' $(grep \"x y\" 'z') c\""], []),
        ("grep", "grep \"x y\" 'z'", ['"x y"', "'z'"], []),
    ]


def test_single_quotes_inside_double_quotes_are_plain_characters():
    text = "echo \"it's\" 'a \"b\"' && grep x"
    assert kinds(text) == [('"it\'s"', lexer.DOUBLE_QUOTED), ("'a \"b\"'", lexer.SINGLE_QUOTED)]
    assert [name for name, *_ in spans(text)] == ["echo", "grep"]


def test_ansi_c_quotes_end_only_at_an_unescaped_quote():
    text = "echo $'it\\'s; grep' ; ls"
    assert kinds(text) == [("$'it\\'s; grep'", lexer.ANSI_C_QUOTED)]
    assert [name for name, *_ in spans(text)] == ["echo", "ls"]
    assert prepare(text).literals == [(5, 19)]


def test_parameter_expansion_with_nested_braces_and_quotes():
    text = 'echo ${x:-"${y} }"} done'
    assert kinds(text) == [("${y}", lexer.PARAMETER), ('"${y} }"', lexer.DOUBLE_QUOTED),
                           ('${x:-"${y} }"}', lexer.PARAMETER)]
    assert spans(text)[0][2] == ['${x:-"${y} }"}', "done"]


# --- substitutions ----------------------------------------------------------------


def test_command_substitution_in_double_quotes_is_a_command_with_its_own_span():
    text = 'x="$(grep -c y f)" ; echo "$x"'
    assert kinds(text)[0] == ("$(grep -c y f)", lexer.SUBSTITUTION)
    assert [found[:3] for found in spans(text)] == [
        ("grep", "grep -c y f", ["-c", "y", "f"]),
        ("echo", 'echo "$x"', ['"$x"']),
    ]


def test_backticks_outside_and_inside_double_quotes():
    text = 'echo `grep x f` "`wc -l`"'
    assert kinds(text) == [("`grep x f`", lexer.BACKTICK), ("`wc -l`", lexer.BACKTICK),
                           ('"`wc -l`"', lexer.DOUBLE_QUOTED)]
    assert [found[:2] for found in spans(text)] == [
        ("echo", text), ("grep", "grep x f"), ("wc", "wc -l")]


def test_process_substitution_and_array_keep_the_commands_they_run():
    text = "diff <(sort a) >(tee b) && arr=(x $(pwd) y) grep -n z"
    prepared = prepare(text)
    assert prepared.text == "diff <(sort a) >(tee b) && arr=___$(pwd)___ grep -n z"
    assert [found[:2] for found in spans(text)] == [
        ("diff", "diff <(sort a) >(tee b)"), ("sort", "sort a"), ("tee", "tee b"),
        ("grep", "arr=(x $(pwd) y) grep -n z"), ("pwd", "pwd")]


# --- heredocs ---------------------------------------------------------------------


def test_unquoted_heredoc_body_is_blanked_and_the_next_line_kept():
    text = "cat <<EOF > out\n$(date) grep\nEOF\ngrep x"
    assert kinds(text) == [("$(date) grep\n", lexer.HEREDOC)]
    assert prepare(text).text == "cat <____ > out\n" + " " * 16 + "\ngrep x"
    assert spans(text) == [("cat", "cat <<EOF > out", [], ["<<EOF", "> out"]), ("grep", "grep x", ["x"], [])]


@pytest.mark.parametrize("operator", ["<<'EOF'", '<<"EOF"', "<<\\EOF", "<<E'O'F"])
def test_quoted_delimiters_make_a_quoted_heredoc(operator):
    text = f"cat {operator}\nbody $(x)\nEOF\nls"
    assert kinds(text)[-1] == ("body $(x)\n", lexer.QUOTED_HEREDOC)
    assert [name for name, *_ in spans(text)] == ["cat", "ls"]


def test_dash_heredoc_strips_tabs_before_the_delimiter_and_two_bodies_follow_one_line():
    text = "cat <<-A <<B\n\tone\n\tA\ntwo\nB\ngrep x"
    assert kinds(text) == [("\tone\n", lexer.HEREDOC), ("two\n", lexer.HEREDOC)]
    assert prepare(text).text.endswith("\ngrep x")
    assert [found[:2] for found in spans(text)] == [("cat", "cat <<-A <<B"), ("grep", "grep x")]


def test_a_delimiter_line_with_spaces_does_not_end_the_body():
    text = "cat <<EOF\n EOF\nEOF \nEOF\nls"
    assert kinds(text) == [(" EOF\nEOF \n", lexer.HEREDOC)]


@pytest.mark.parametrize("text", ["cat <<EOF\nbody", "cat <<-EOF\nbody\n EOF", "cat <<\nx", "cat <<EOF"])
def test_unterminated_heredocs_are_unparseable(text):
    with pytest.raises(Unparseable):
        regions(text)
    assert simple_commands(text) is None


def test_heredoc_inside_a_substitution_the_claude_code_commit_form():
    text = "git commit -m \"$(cat <<'EOF'\nfix grep\nEOF\n)\" && grep -n x f"
    assert ("fix grep\n", lexer.QUOTED_HEREDOC) in kinds(text)
    assert [found[:2] for found in spans(text)][-1] == ("grep", "grep -n x f")


# --- case ---------------------------------------------------------------------------


def test_case_arms_become_a_group_with_every_command_at_its_place():
    text = "case $x in a|b) grep x;; (c) ;; *) ls;& d) cat f;;& esac"
    prepared = prepare(text)
    assert prepared.text == "{               grep x;            ls;     cat f;   }   "
    assert [found[:2] for found in spans(text)] == [("grep", "grep x"), ("ls", "ls"), ("cat", "cat f")]


def test_case_over_several_lines_with_comments_and_an_empty_arm():
    text = "case \"$1\" in\n  # start\n  start)\n    grep -q x f ;;\n  stop) ;;\nesac\nls"
    assert ("# start", lexer.COMMENT) in kinds(text)
    assert [found[:2] for found in spans(text)] == [("grep", "grep -q x f"), ("ls", "ls")]


def test_esac_is_a_keyword_only_in_command_position():
    text = "case a in a) echo esac;; esac"
    assert [found[:3] for found in spans(text)] == [("echo", "echo esac", ["esac"])]


@pytest.mark.parametrize("text", ["case a in a) ls;;", "case a b) ls;; esac", "case a in a ls;; esac", "ls ;; ls"])
def test_broken_case_is_unparseable(text):
    with pytest.raises(Unparseable):
        prepare(text)


# --- arithmetic and tests ----------------------------------------------------------------


def test_arithmetic_expansion_command_and_for_loop():
    text = "echo $(( $(wc -l < f) + 1 )) && (( i++ )) && for ((i=0;i<3;i++)); do grep x; done"
    assert kinds(text) == [("$(wc -l < f)", lexer.SUBSTITUTION), ("$(( $(wc -l < f) + 1 ))", lexer.ARITHMETIC),
                           ("(( i++ ))", lexer.ARITHMETIC)]
    assert prepare(text).text == "echo $___$(wc -l < f)_______ && :         && while :            ; do grep x; done"
    assert [found[:2] for found in spans(text)] == [
        ("echo", "echo $(( $(wc -l < f) + 1 ))"), ("wc", "wc -l < f"), ("grep", "grep x")]


def test_for_arithmetic_directly_followed_by_do_gets_its_separator():
    assert prepare("for ((;;)) do ls; done").text == "while :;   do ls; done"


def test_an_arithmetic_closed_by_one_parenthesis_is_unparseable():
    with pytest.raises(Unparseable):
        prepare("echo $(( 1 + 2 )")


def test_double_brackets_are_masked_but_their_substitutions_run():
    text = "[[ -n $(id -u) && $x == y* ]] && ls"
    assert kinds(text) == [("$(id -u)", lexer.SUBSTITUTION), ("[[ -n $(id -u) && $x == y* ]]", lexer.TEST)]
    assert prepare(text).text == ":     $(id -u)                && ls"
    assert [found[:2] for found in spans(text)] == [("id", "id -u"), ("ls", "ls")]


# --- prefixes ---------------------------------------------------------------------------


def test_time_coproc_and_select_leave_the_command_they_run():
    text = "time -p grep x; coproc N { cat; }; select v in a b; do echo $v; done"
    assert prepare(text).text == "        grep x;          { cat; }; for    v in a b; do echo $v; done"
    assert [found[:2] for found in spans(text)] == [("grep", "grep x"), ("cat", "cat"), ("echo", "echo $v")]


def test_redirections_including_and_greater_than():
    text = "grep -n x f &> out 2>&1 <<< word >| clobbered"
    assert spans(text) == [("grep", text, ["-n", "x", "f"], ["&> out", "2>&1", "<<< word", ">| clobbered"])]


# --- comments and continuations ------------------------------------------------------------


def test_comments_start_only_at_a_word_and_end_at_the_line():
    text = "ls # grep x\necho a#b; #c"
    assert kinds(text) == [("# grep x", lexer.COMMENT), ("#c", lexer.COMMENT)]
    assert [found[:3] for found in spans(text)] == [("ls", "ls", []), ("echo", "echo a#b", ["a#b"])]


def test_line_continuations_join_one_command_over_several_lines():
    text = "grep \\\n  -n x \\\n  f && ls"
    assert regions(text) == []
    assert spans(text)[0] == ("grep", "grep \\\n  -n x \\\n  f", ["-n", "x", "f"], [])


def test_a_function_definition_and_a_subshell():
    text = "f() { grep x; }; (cd d && ls)"
    assert [found[:2] for found in spans(text)] == [("grep", "grep x"), ("cd", "cd d"), ("ls", "ls")]


@pytest.mark.parametrize("text", ["echo )", "(ls", "echo `ls", "echo $(ls", "echo \"a", "echo 'a", "echo ${a"])
def test_unbalanced_input_is_unparseable(text):
    with pytest.raises(Unparseable):
        regions(text)


# --- round trip ---------------------------------------------------------------------------

CONSTRUCTS = [
    "echo \"a 'b' $(grep \"x y\" 'z') c\"",
    "cat <<-A <<'B'\n\tone\n\tA\ntwo $(x)\nB\ngrep x",
    "case $x in a|b) grep x;; (c) ;; *) ls;& d) cat f;;& esac",
    "echo $(( $(wc -l < f) + 1 )) && (( i++ )) && for ((i=0;i<3;i++)); do grep x; done",
    'echo `grep x f` "`wc -l`" # trailing comment',
    "grep \\\n  -n x \\\n  f && ls",
    "[[ -n $(id) ]] && time -p grep x; coproc N { cat; }; arr=(a $(pwd)) ls &> out",
]


def corpus_commands() -> list[str]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    return [line.partition(" ⟶ ")[0] for line in lines if line.strip() and not line.startswith("#")]


def test_rewriting_every_span_by_itself_reproduces_the_input_byte_for_byte():
    texts = CONSTRUCTS + corpus_commands()
    for text in texts:
        commands = simple_commands(text)
        if commands is None:
            continue
        words = [(word.start, word.end, word.raw) for command in commands for word in (command.word, *command.args)]
        assert all(text[start:end] == raw for start, end, raw in words), text
        assert apply_edits(text, words) == text
        assert apply_edits(text, [(c.start, c.end, text[c.start : c.end]) for c in commands]) == text
        prepared = prepare(text)
        assert len(prepared.text) == len(text)
        assert all(a == b for index, (a, b) in enumerate(zip(text, prepared.text))
                   if not prepared.masked(index, index + 1)), text
    assert sum(simple_commands(text) is not None for text in texts) >= 250


def test_renaming_every_command_to_itself_leaves_the_string_untouched():
    for text in CONSTRUCTS:
        names = {command.name for command in simple_commands(text)}
        rules = [Rule(name, name, BASH_TOOL, BASH_PARAM, name, COMMAND) for name in sorted(names)]
        result = rewrite({"command": text}, rules)
        assert result is None or result.updated_input["command"] == text, text
