"""Command shapes: program, subcommand and flags, never arguments."""

from __future__ import annotations

import pytest

from dp.shell.shape import MAX_COMMANDS, MAX_FLAGS, Shape, shapes, split_commands, split_words


@pytest.mark.parametrize(
    "text, expected",
    [
        ("python3 x.py", [Shape("python3")]),
        ('git -C repo commit -m "fix: x" --amend', [Shape("git", "commit", ("-C", "-m", "--amend"))]),
        ("cd /x && python x.py | grep -n foo", [Shape("cd"), Shape("python"), Shape("grep", "", ("-n",))]),
        ("FOO=1 sudo -u me timeout 5 pip install --user requests", [Shape("pip", "install", ("--user",))]),
        ("echo $(fd -e py); ls -la  # comment -z", [Shape("echo"), Shape("fd", "", ("-e",)), Shape("ls", "", ("-la",))]),
        ("rg --line-number=3 -e pat -- -x", [Shape("rg", "", ("--line-number", "-e"))]),
        ("/usr/bin/npm run test", [Shape("npm", "run")]),
        ("head -5 f; tail -n -3 g", [Shape("head"), Shape("tail", "", ("-n",))]),
        ("cat secret-file.txt passwords.db", [Shape("cat")]),
        ("VAR=1", []),
        ("", []),
    ],
)
def test_shapes(text, expected):
    assert shapes(text) == expected


def test_arguments_of_programs_without_subcommands_are_never_kept():
    [shape] = shapes("mytool hunter2 --flag value")
    assert shape == Shape("mytool", "", ("--flag",))


def test_quoted_operators_do_not_split():
    assert shapes("echo 'a && b' \"c | d\" && ls") == [Shape("echo"), Shape("ls")]


def test_unbalanced_quotes_do_not_raise():
    assert shapes("echo 'unterminated && ls")[0].command == "echo"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("echo 'a b' \"c \\\" d\" e\\ f ''", [["echo", "a b", 'c " d', "e f", ""]]),
        ("a `b -x` $(c -y) $x", [["a"], ["b", "-x"], ["c", "-y"], ["$x"]]),
        ("a # not ; a command\nb#c", [["a"], ["b#c"]]),
        ("x=1 y='2 3' cmd", [["x=1", "y=2 3", "cmd"]]),
        ("a\\", [["a\\"]]),
        ("echo \"unterminated ; ls", [["echo", "unterminated ; ls"]]),
    ],
)
def test_split_commands_unquotes_words_and_splits_on_unquoted_operators(text, expected):
    assert split_commands(text) == expected


def test_split_commands_keeps_at_most_the_first_commands():
    assert len(split_commands("a;" * (MAX_COMMANDS + 5))) == MAX_COMMANDS


def test_flags_are_names_only_deduplicated_and_bounded():
    many = " ".join(f"--f{n}=secret" for n in range(MAX_FLAGS + 5))
    [shape] = shapes(f"tool -v -v -1 -.5 - -x/y --a=b {many}")
    assert shape.flags[:2] == ("-v", "--a") and len(shape.flags) == MAX_FLAGS
    assert not any("secret" in flag or "=" in flag for flag in shape.flags)


def test_a_heredocs_body_is_no_command_but_redaction_still_reads_its_words():
    """A script fed to a program (``python3 - <<'PY'``) is that program's input: its ``class Cart:`` and
    ``print(…)`` lines are no programs of the call (they were shapes, and a failure was stored as theirs)."""
    script = ("python3 - <<'PY'\nclass Cart:\n    pass\nprint(Cart)\nPY\necho done && cat <<-\"END\" > notes\n"
              "\trm -rf build\n\tEND\nls | wc -l <<< 'x'")
    assert [shape.command for shape in shapes(script)] == ["python3", "echo", "cat", "ls", "wc"]
    assert [shape.command for shape in shapes("cat <<EOF\nnever ended")] == ["cat"]
    assert [shape.command for shape in shapes("echo $((1 << 2))\nls")][-1] == "ls"  # a shift, no heredoc
    assert ["class", "Cart:"] in [[word for word, _, _ in command] for command in split_words(script)]
