"""pave-check finds the commands inside the Bash constructs bashlex 0.18 misreads.

Each shape below once made dp leave the whole command alone (bashlex failed on
it), drop the commands after a newline silently, or — with a line
continuation in a substitution — edit the wrong characters. dp's pre-pass
(``dp.shell.scanner`` / ``dp.shell.constructs``) now overwrites what bashlex
misreads with same-length text, so each command is found where the agent wrote it.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from hook_support import BIN, build_store

RULES = [
    ["--cmd", "grep", "--replace", "rg"],
    ["--cmd", "find", "--replace", "fd"],
    ["--cmd", "rm", "--replace", "trash"],
]


@pytest.fixture(scope="module")
def hook_env(tmp_path_factory):
    return build_store(tmp_path_factory.mktemp("hook-constructs"), RULES)


def updated(env, command: str) -> str | None:
    """The command pave-check hands back for a Bash call (None: left alone)."""
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}, "cwd": "/tmp"}
    proc = subprocess.run(
        [str(BIN / "pave-check")], input=json.dumps(payload), capture_output=True, text=True, env=env, timeout=30
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    return json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"] if proc.stdout else None


@pytest.mark.parametrize(
    "command, expected",
    [
        # old-style arithmetic $[…]
        ("echo $[4/0] || grep -c x app.py", "echo $[4/0] || rg -c --include-zero x app.py"),
        ('echo "$[1 + $(grep -c x app.py)]"', 'echo "$[1 + $(rg -c --include-zero x app.py)]"'),
        # && and || in $( ) and <( ), nested substitutions
        (
            'echo $(cd $(dirname "$1") && grep -l x app.py)/$(basename "$1")',
            'echo $(cd $(dirname "$1") && rg -l x app.py)/$(basename "$1")',
        ),
        (
            'sort <(cd src && grep -l x app.py) <(cd lib || find . -name "*.py") | uniq',
            'sort <(cd src && rg -l x app.py) <(cd lib || fd --hidden --no-ignore --case-sensitive --glob "*.py" .) | uniq',
        ),
        # & and a trailing ; in a substitution
        ("x=$(grep -c x app.py & wait;)", "x=$(rg -c --include-zero x app.py & wait;)"),
        # braces split by a space: `{ }` is no group here
        ("find / -size 0 -ok rm { } \\;", "find / -size 0 -ok trash { } \\;"),
        ("ls >{ } && grep -c x app.py", "ls >{ } && rg -c --include-zero x app.py"),
        # a backtick in the single quotes of an assignment is no substitution
        ("x=$(sep='`' ; grep -c x app.py)", "x=$(sep='`' ; rg -c --include-zero x app.py)"),
        # $# and a # inside a word in a substitution are no comment
        ("n=$(seq 1 $#); grep -c x app.py", "n=$(seq 1 $#); rg -c --include-zero x app.py"),
    ],
)
def test_commands_inside_constructs_bashlex_misreads_are_rewritten(hook_env, command, expected):
    assert updated(hook_env, command) == expected


def test_a_case_clause_with_its_terminator_on_its_own_line(hook_env):
    command = 'case "$x" in\n  a) grep foo app.py\n  ;;\n  b) grep bar app.py ;;\nesac'
    assert updated(hook_env, command) == 'case "$x" in\n  a) rg foo app.py\n  ;;\n  b) rg bar app.py ;;\nesac'


@pytest.mark.parametrize(
    "command, expected",
    [
        ("x=$(cd src\ngrep -l x app.py)", "x=$(cd src\nrg -l x app.py)"),
        ("x=`cd src\ngrep -l x app.py`", "x=`cd src\nrg -l x app.py`"),
        ("x=$(\n  cd src # go there\n  grep -l x app.py;\n)", "x=$(\n  cd src # go there\n  rg -l x app.py;\n)"),
        (
            "x=$(cat <<EOF\nnote\nEOF\ngrep -l x app.py)",
            "x=$(cat <<EOF\nnote\nEOF\nrg -l x app.py)",
        ),
        ("x=$(f() {\n  read l < <(grep x app.py)\n}\nf)", "x=$(f() {\n  read l < <(rg x app.py)\n}\nf)"),
    ],
)
def test_every_line_of_a_multi_line_substitution_is_read(hook_env, command, expected):
    assert updated(hook_env, command) == expected


def test_a_line_continuation_in_a_substitution_keeps_every_edit_in_place(hook_env):
    command = "x=$(ls -l \\\n  src | xargs rm -f)"
    assert updated(hook_env, command) == "x=$(ls -l \\\n  src | xargs trash -f)"
