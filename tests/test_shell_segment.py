"""The Bash segmenter: simple commands with spans on the original string."""

from __future__ import annotations

import time

import pytest

from dp.hook import HOOK_TIMEOUT_SECONDS
from dp.shell.segment import MAX_PARSE_CHARS, command_word_index, sequential, simple_commands


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """bashlex tables and compiled recipes go to a temporary cache, not ~/.cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "dp"


def found(text: str) -> list[tuple[str, str]]:
    """(command name, exact source text of the simple command) for each command."""
    commands = simple_commands(text)
    assert commands is not None, f"could not segment {text!r}"
    return [(command.name, text[command.start : command.end]) for command in commands]


def names(text: str) -> list[str]:
    return [name for name, _ in found(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a; b", ["a", "b"]),
        ("a && b || c", ["a", "b", "c"]),
        ("a | b |& c", ["a", "b", "c"]),
        ("a & b", ["a", "b"]),
        ("a\nb\n\nc", ["a", "b", "c"]),
        ("(a; b)", ["a", "b"]),
        ("{ a; b; }", ["a", "b"]),
        ("echo $(a) `b`", ["echo", "a", "b"]),
        ("diff <(a) <(b)", ["diff", "a", "b"]),
        ("if a; then b; elif c; then d; else e; fi", ["a", "b", "c", "d", "e"]),
        ("for i in 1 2; do a $i; done", ["a"]),
        ("while a; do b; done", ["a", "b"]),
        ("until a; do b; done", ["a", "b"]),
        ("f() { a; }", ["a"]),
        ("x=$(a) && echo \"in quotes $(b)\"", ["a", "echo", "b"]),
    ],
)
def test_every_separator_and_nesting_is_found(text, expected):
    assert names(text) == expected


def test_leading_whitespace_and_newlines_do_not_shift_spans():
    text = "\n\n   \tgrep -n x f\n  ls"
    assert found(text) == [("grep", "grep -n x f"), ("ls", "ls")]


def test_command_word_after_assignments_redirects_and_wrappers():
    text = "sudo FOO=1 /usr/bin/scp -r a h:/"
    [command] = simple_commands(text)
    assert command.name == "scp"
    assert text[command.word.start : command.word.end] == "/usr/bin/scp"
    assert [arg.raw for arg in command.args] == ["-r", "a", "h:/"]
    assert text[command.start : command.end] == text


@pytest.mark.parametrize(
    "text",
    [
        "env -i PATH=/bin grep x",
        "time grep x",
        "time -p grep x",
        "nice -n 5 grep x",
        "nohup grep x",
        "command grep x",
        "exec grep x",
        "timeout 10 grep x",
        "timeout -s KILL 10 grep x",
        "xargs -I{} -n 1 grep x",
        "xargs -0 -P 4 grep x",
        "sudo -u root -- grep x",
        "FOO=1 BAR=2 grep x",
        ">out 2>&1 grep x",
        "sudo nice -n 3 timeout 5 env A=1 grep x",
    ],
)
def test_transparent_wrappers(text):
    commands = [command for command in simple_commands(text) if command.name == "grep"]
    assert len(commands) == 1
    assert [arg.raw for arg in commands[0].args] == ["x"]


def test_commands_run_by_find_exec():
    text = "find . -name '*.py' -exec grep -l TODO {} \\; -execdir wc -l {} +"
    result = found(text)
    assert result[1:] == [("grep", "grep -l TODO {}"), ("wc", "wc -l {}")]
    [grep] = [command for command in simple_commands(text) if command.name == "grep"]
    assert [arg.raw for arg in grep.args] == ["-l", "TODO", "{}"]


def test_a_bare_wrapper_is_the_command_itself():
    assert names("env") == ["env"]
    assert names("sudo -v") == ["sudo"]


def test_quoted_strings_comments_and_heredoc_bodies_are_not_commands():
    text = "echo \"grep x\" 'grep y' # grep z\ncat <<EOF\ngrep body\nEOF\nls"
    assert names(text) == ["echo", "cat", "ls"]


def test_claude_code_commit_heredoc_then_a_matching_command():
    text = (
        'git commit -m "$(cat <<\'EOF\'\nFix grep handling\n\nCo-Authored-By: x\nEOF\n)" && grep -n x f'
    )
    result = found(text)
    assert [name for name, _ in result] == ["git", "cat", "grep"]
    assert result[-1] == ("grep", "grep -n x f")


def test_heredoc_with_dash_and_double_quoted_delimiter():
    text = 'cat <<-"END" > f\n\tgrep inside\n\tEND\ngrep outside'
    assert found(text)[-1] == ("grep", "grep outside")
    assert names(text) == ["cat", "grep"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[[ -f x && -d y ]] && grep x", ["grep"]),
        ("[[ $v =~ ^(a|b)$ ]] || grep x", ["grep"]),
        ("echo $((1 + 2)) && grep x", ["echo", "grep"]),
        ("(( i++ )) && grep x", ["grep"]),
        ("a=(1 2 'three four'); grep x", ["grep"]),
        ("declare -a a=(1 2) && grep x", ["declare", "grep"]),
        ("case $x in a|b) grep x;; (c) ;; *) ls\nesac", ["grep", "ls"]),
        ("echo $'it\\'s' && grep x", ["echo", "grep"]),
        ("echo ${x:-'a b'} ${#y} && grep x", ["echo", "grep"]),
    ],
)
def test_constructs_bashlex_cannot_read_are_pre_processed(text, expected):
    assert names(text) == expected


def test_spans_after_pre_processed_constructs_index_the_original():
    text = "[[ -n \"$x\" ]] && echo $((2*3)) && time grep -n x f"
    assert found(text)[-1] == ("grep", "grep -n x f")


def test_a_line_continuation_in_a_substitution_keeps_spans_on_the_original():
    text = "x=$(ls \\\n -l | xargs rm -f) && grep y"
    assert found(text) == [("ls", "ls \\\n -l"), ("rm", "xargs rm -f"), ("grep", "grep y")]


def test_overwritten_arguments_keep_their_value():
    [_, rm] = simple_commands("find / -ok rm { } \\;")
    assert [(arg.value, arg.masked) for arg in rm.args] == [("{", True), ("}", False)]
    [seq] = simple_commands("n=$(seq $# a#b)")
    assert [(arg.value, arg.masked) for arg in seq.args] == [("$#", True), ("a#b", True)]


def test_arguments_keep_value_and_source():
    text = "grep 'a b' \"c\"d my\\ file -- -x"
    [command] = simple_commands(text)
    assert [(arg.value, arg.raw) for arg in command.args] == [
        ("a b", "'a b'"), ("cd", '"c"d'), ("my file", "my\\ file"), ("--", "--"), ("-x", "-x"),
    ]


def test_run_by_marks_commands_that_xargs_or_find_exec_run():
    commands = simple_commands("ls | xargs -n 1 sudo gt x; find . -exec gt y {} \\; ; sudo gt z")
    assert [(command.name, command.run_by) for command in commands] == [
        ("ls", ""), ("gt", "xargs"), ("find", ""), ("gt", "find"), ("gt", ""),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "echo 'a${'b",  # valid Bash, but bashlex 0.18 loops forever on it
        "echo \"open",
        "echo $(open",
        "cat <<EOF\nno terminator",
        "a ;; b",
    ],
)
def test_unparseable_input_returns_none(text):
    assert simple_commands(text) is None


def test_hang_input_returns_quickly():
    started = time.monotonic()
    assert simple_commands("echo 'a${'b && grep x") is None
    assert time.monotonic() - started < HOOK_TIMEOUT_SECONDS


def test_the_time_guard_really_interrupts_a_bashlex_hang():
    from dp.shell.bashlex_loader import load
    from dp.shell.guard import Timeout, deadline

    bashlex = load()
    started = time.monotonic()
    with pytest.raises(Timeout):
        with deadline(0.2):
            bashlex.parse("echo 'a${'b")  # the lexer refuses this; here bashlex gets it raw
    assert time.monotonic() - started < HOOK_TIMEOUT_SECONDS


def test_size_cap():
    text = "grep x; " * (MAX_PARSE_CHARS // 8 + 1)
    assert len(text) > MAX_PARSE_CHARS
    assert simple_commands(text) is None
    assert names("grep x; " * 100) == ["grep"] * 100


def test_command_word_index_skips_timeout_duration_and_xargs_options():
    commands = simple_commands("timeout --signal=TERM 5 xargs -n 2 rg x")
    assert commands[0].name == "rg"


@pytest.mark.parametrize(
    "text, name", [("command -v grep", "command"), ("command -pV grep", "command"), ("sudo -l grep", "sudo"),
                   ("sudo --list grep", "sudo"), ("command -p grep x", "grep"), ("sudo -u lv grep", "grep")],
)
def test_a_wrapper_that_only_queries_is_itself_the_command(text, name):
    assert names(text) == [name]


def test_command_word_index_counts_from_the_first_word():
    [command] = simple_commands("sudo -u root env A=1 timeout 5 grep x")
    [whole] = simple_commands("sudo -u root env A=1 timeout 5 grep x".replace("grep x", "grep"))
    assert command.name == whole.name == "grep"
    words = simple_commands("nohup nice grep x")[0]
    assert words.word.raw == "grep"
    assert command_word_index([words.word, *words.args]) == 0


@pytest.mark.parametrize(
    "text, names",
    [
        ("[[ $(grep -c x f) -gt 0 ]] && echo y", ["grep", "echo"]),
        ('[[ -n "$(find . -name x)" ]]', ["find"]),
        ("arr=( $(grep -l x *.py) \"$(ls)\" )", ["grep", "ls"]),
        ("for ((i=0; i<$(wc -l < f); i++)); do grep x f; done", ["wc", "grep"]),
        ("for((;;)) do ls; done", ["ls"]),
        ("coproc grep x f", ["grep"]),
        ("coproc NAME { grep x; }", ["grep"]),
        ("coproc tail -f log", ["tail"]),
        ("while read l; do echo $l; done < <(grep x f)", ["read", "echo", "grep"]),
        ("{ ls; } > >(grep x)", ["ls", "grep"]),
        ("echo $(( $(grep -c x f) + 1 ))", ["echo", "grep"]),
        ("(( $(grep -c x f) > 0 )) && ls", ["grep", "ls"]),
        ("find . -ok rm {} \\;", ["find", "rm"]),
        ("select x in a b; do grep x \"$x\"; done", ["grep"]),
        ("echo $[1 + $(grep -c x f)] && ls", ["echo", "grep", "ls"]),
        ('echo $(cd $(dirname "$1") && pwd -P)/$(basename "$1")', ["echo", "cd", "dirname", "pwd", "basename"]),
        ("sort <(cd d && find .) <(a || b &) | uniq", ["sort", "cd", "find", "a", "b", "uniq"]),
        ("find / -size 0 -ok rm { } \\;", ["find", "rm"]),
        ("cat < <(ls) { } \\; && grep x", ["cat", "ls", "grep"]),
        ("ls >{ } && grep x", ["ls", "grep"]),
        ("a='`'; x=$(b='`x`' ; grep y)", ["grep"]),
        ("x=$(a\n  b # note\n  c;\n) && ls", ["a", "b", "c", "ls"]),
        ("x=`a\nb`; ls", ["a", "b", "ls"]),
        ("x=$(cat <<A; cat <<B\na\nA\nb\nB\ngrep z)", ["cat", "cat", "grep"]),
        ("n=$(seq 1 $#) m=$(echo a#b) && ls", ["seq", "echo", "ls"]),
        ("case $x in\na) grep x\n;;\nb) ls & ;;\nc) cat; ;;\nesac", ["grep", "ls", "cat"]),
    ],
)
def test_commands_inside_constructs_bashlex_cannot_read_are_found(text, names):
    assert [command.name for command in simple_commands(text)] == names


@pytest.mark.parametrize(
    "text",
    ["rsync -av host:'$(find logs -type f)' dir", "echo $'$(ls)'", "ssh h 'grep x f | wc -l'"],
)
def test_nothing_inside_single_quotes_is_a_command(text):
    assert [command.name for command in simple_commands(text)] == [text.split()[0]]


@pytest.mark.parametrize("text", ["\\grep -r x .", "\\ls", "\\time grep x f", "sudo \\grep x"])
def test_backslash_escaped_command_words_are_not_commands_to_rewrite(text):
    assert simple_commands(text) == []


@pytest.mark.parametrize("between, expected", [
    (" && ", True), ("; ", True), ("\n\n", True), ("", True), (" ;\n && ", True),
    (" | ", False), (" || ", False), (" & ", False), (") && ", False), ("; (", False), ("; then ", False),
])
def test_sequential_only_for_and_semicolon_and_newline(between, expected):
    assert sequential(between) is expected


def _shape(commands):
    """Everything a rule reads of the commands found."""
    if commands is None:
        return None
    return sorted(
        (c.start, c.end, c.name, c.run_by, c.stdin_redirected, tuple(c.redirects),
         tuple((w.start, w.end, w.value, w.raw, w.masked) for w in [c.word, *c.args]))
        for c in commands
    )


def test_plain_words_are_found_without_the_parser_exactly_as_the_parser_finds_them():
    """The plain-words path must agree with lexer + bashlex on every command it takes."""
    import random

    from dp.shell import segment

    vocabulary = ["grep", "-rn", "foo", ".", "src/a.py", "sudo", "-u", "bob", "env", "A=1", "--include=x.py",
                  "xargs", "-0", "find", "-exec", "-ok", "+", "rm", "time", "timeout", "5", "command", "-v",
                  "npm", "ci", "user@host:/tmp", "50%", "a,b", "/usr/bin/grep", "nice", "--", "-", "if", "x=1",
                  "src/*.py", "*", "a?c", "--include=*.ts", "*=1", "?",
                  # quoted plain text, whole words or parts of one
                  "'fix it'", '"a b"', "''", '""', "'grep'", "--message='x y'", "a'b c'd", "'&&'", "'|'",
                  "' lead'", "'a;b'", '"(x)"', "'#'", "'x=1'", '"if"', "'~/x'"]
    operators = ["&&", "||", ";", "|"]
    rng = random.Random(17)
    taken = listed = 0
    for _ in range(8000):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(1, 7))]
        for _ in range(rng.randint(0, 3)):  # lists and pipelines of such commands
            words[rng.randrange(len(words) + 1):0] = [rng.choice(operators)]
        text = " ".join(words)
        if segment._plain_words(text) is None:
            continue
        taken += 1
        listed += any(word in operators for word in words)
        assert _shape(segment.simple_commands(text)) == _shape(segment._parsed_commands(text)), text
    assert taken > 2500 and listed > 800


@pytest.mark.parametrize("text", [
    "A=1 grep x",  # an assignment first
    "time grep x",  # a reserved word first
    "grep  x",  # two spaces
    " grep x",
    "grep x ",
    "grep $x",
    "grep 'x",  # a quote not closed
    "grep 'a$b'",  # what expands or escapes inside quotes
    'grep "a`b`"',
    "grep 'a\\b'",
    "grep 'don'\\''t'",
    'grep "a!b"',
    "grep 'caf\u00e9'",
    "grep 'a\nb'",
    "grep [ab].py",
    "grep ~/x",
    "grep x # note",
    "\\grep x",
    "grep x|wc",  # an operator inside a word
    "grep x | ",
    "| grep x",
    "grep x && && ls",
    "grep x & ls",
    "grep x |& wc",
    "ls && time grep x",  # a reserved word first in the second command
    "ls ; A=1 grep x",
    "ls &&",
    "",
])
def test_anything_more_than_plain_words_goes_to_the_parser(text):
    from dp.shell import segment

    assert segment._plain_words(text) is None
