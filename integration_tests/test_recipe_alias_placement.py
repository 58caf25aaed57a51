"""Recipe aliases: the agent's words are data in every quoting context, and never code.

Placeholders render inside ``"…"``, ``'…'``, ``$'…'`` and heredoc bodies (the
agent's words fitted to the place, ``dp.shell.placement``); they are refused
when the alias is written (``dp alias --recipe``, ``dp aliases import``) where a
program would run them as code (``dp.shell.sinks``) or where no rendering keeps
them data — ``|raw`` or not: alias recipes have no opt-in. The hook skips a
stored template that fails the same check. A recipe spliced into a list stays
one command of that list whatever the script's shape (heredoc, several lines,
a trailing comment): checked by running bash on the original and the rewrite.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess

import pytest
from cli_assertions import assert_one_line_error


@pytest.mark.parametrize("script,fragment", [
    ("sh -c 'echo {{ args }}'", "line 1: {{ args }} would run as code in sh -c"),
    ('bash -c "ls {{ arg(1) }}"', "would run as code in bash -c"),
    ("eval {{ args }}", "would run as code in eval"),
    ("trap 'rm -f {{ arg(1) }}' EXIT", "would run as code in trap"),
    ("ssh host ls {{ args }}", "would run as code in ssh"),
    ("sudo sh -c {{ args|raw }}", "would run as code in sh -c"),
    ("python3 -c {{ arg(1) }}", "would run as code in python3 -c"),
    ("bash <<EOF\n{{ args }}\nEOF", "line 2: {{ args }} would run as code in bash"),
    ("echo $(( {{ arg(1) }} * 2 ))", "would run as code in arithmetic"),
    ("[[ {{ arg(1) }} -gt 2 ]] && echo big", "would run as code in arithmetic"),
    ("echo `ls {{ args }}`", "inside backticks"),
    ("echo ${X:-{{ arg(1) }}}", "parameter expansion"),
    ('{% for a in args %}sh -c "{{ a }}"; {% endfor %}', "would run as code in sh -c"),
])
def test_alias_refuses_code_sinks_and_unplaceable_spots(dp, db_path, script, fragment):
    proc = dp("alias", "--recipe", "gt x", script)
    assert_one_line_error(proc, "recipe template for 'gt x' is refused: ")
    assert fragment in proc.stderr
    assert "values_as_code" not in proc.stderr and "end the tag in |raw" not in proc.stderr  # no opt-in here
    assert not db_path.exists() or _rows(db_path) == []


ARGUMENT = "'it'\\''s $(touch pwned) `touch pwned2`; \"q\"'"


@pytest.mark.parametrize("script,expected", [
    ('echo "Hello, {{ arg(1) }}!"', "Hello, it's $(touch pwned) `touch pwned2`; \"q\"!\n"),
    ("echo 'x={{ arg(1) }}'", "x=it's $(touch pwned) `touch pwned2`; \"q\"\n"),
    ('printf "[%s]" "{{ args }}"', "[it's $(touch pwned) `touch pwned2`; \"q\" two]"),
    ("printf '[%s]' '{{ args }}'", "[it's $(touch pwned) `touch pwned2`; \"q\" two]"),
    ("cat <<EOF\nvalue: {{ arg(1) }}\nEOF", "value: it's $(touch pwned) `touch pwned2`; \"q\"\n"),
    ("cat <<'EOF'\n$HOME {{ arg(1) }}\nEOF", "$HOME it's $(touch pwned) `touch pwned2`; \"q\"\n"),
    ('echo "{{.Args}}"', "it's $(touch pwned) `touch pwned2`; \"q\" two\n"),
    ('{% for a in args %}echo "<{{ a }}>"; {% endfor %}', "<it's $(touch pwned) `touch pwned2`; \"q\">\n<two>\n"),
    ("echo ok # {{ args }}", "ok\n"),
])
def test_alias_renders_every_quoting_context_as_data(dp, pave_check, tmp_path, script, expected):
    """Through the real hook: the rewrite prints the agent's words as text, and runs nothing in them."""
    assert dp("alias", "--recipe", "gt x", script).returncode == 0
    proc = pave_check({"tool_name": "Bash", "tool_input": {"command": f"gt x {ARGUMENT} two"}})
    rewritten = json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    work = tmp_path / "work"
    work.mkdir()
    ran = subprocess.run(["bash", "-c", rewritten], cwd=work, capture_output=True, text=True, timeout=10)
    assert (ran.returncode, ran.stdout) == (0, expected), rewritten
    assert sorted(p.name for p in work.iterdir()) == []


def test_a_heredoc_value_that_could_end_the_body_leaves_the_command_alone(dp, pave_check):
    """A line break (or an expansion) cannot become heredoc text: the hook does not rewrite then."""
    assert dp("alias", "--recipe", "gt x", "cat <<EOF\n{{ arg(1) }}\nEOF").returncode == 0
    for argument in ("$'a\\nEOF\\ntouch pwned'", '"$HOME"'):
        proc = pave_check({"tool_name": "Bash", "tool_input": {"command": f"gt x {argument}"}})
        assert (proc.returncode, proc.stdout) == (0, "")


@pytest.mark.parametrize("script", [
    "echo {{ args }}",
    'echo "$(cat {{ arg(1) }})" {{ args[1:] | join(" ") }}',
    "{% if arg(1) == 'open' %}xdg-open {{ arg(2) }}{% else %}echo '{% raw %}x{% endraw %}'{% endif %}",
    "cat <<'EOF'\nliteral $HOME\nEOF\necho {{ args }}",
    "[[ -n {{ arg(1) }} ]] && echo {{ arg(1) }}",
    "docker ps --format '{% raw %}{{.State}}{% endraw %}' {{ args }}",
    "sh -c 'echo \"$@\"' _ {{ args }}",
])
def test_alias_accepts_data_positions(dp, script):
    proc = dp("alias", "--recipe", "gt x", script)
    assert proc.returncode == 0, proc.stderr


def test_import_refuses_the_same_and_writes_nothing(dp, tmp_path, db_path):
    dp("alias", "keep_me", "Read")
    collection = tmp_path / "team.json"
    collection.write_text(json.dumps({"aliases": [
        {"from": "gt ok", "to": "echo '{{ args }}'", "command": "gt", "match_kind": "recipe",
         "tool": "Bash", "param": "command"},
        {"from": "gt bad", "to": "sh -c 'echo {{ args }}'", "command": "gt", "match_kind": "recipe",
         "tool": "Bash", "param": "command"},
    ]}))
    proc = dp("aliases", "import", collection)
    assert_one_line_error(proc, "entry 2: recipe template for 'gt bad' is refused: line 1: {{ args }} would run "
                                "as code in sh -c")
    assert [row[0] for row in _rows(db_path)] == ["keep_me"]


def test_raw_is_no_opt_out_and_doctor_lists_every_use(dp):
    assert dp("alias", "--recipe", "gt x", 'sh -c "{{ args|raw }}"').returncode != 0
    assert dp("alias", "--recipe", "gt x", 'echo "{{ args|raw }}" {{ arg(1) }}').returncode == 0
    report = json.loads(dp("doctor", "--json").stdout)
    raw = [f["message"] for f in report["checks"] if "|raw" in f["message"]]
    assert len(raw) == 1 and "{{ args|raw }}" in raw[0]


def test_hook_skips_a_stored_template_that_fails_the_check(dp, db_path, pave_check, tmp_path):
    """A row written by an older dp (or by hand) is never rendered into a code sink."""
    dp("alias", "--recipe", "gt x", "echo {{ args }}")
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE aliases_v3 SET to_name = ? WHERE from_name = 'gt x'", ('sh -c "echo {{ args }}"',))
    proc = pave_check({"tool_name": "Bash", "tool_input": {"command": "gt x '$(touch pwned)'"}})
    assert (proc.returncode, proc.stdout) == (0, "")
    doctor = dp("doctor")
    assert "can never fire: recipe template for 'gt x' is refused" in doctor.stdout


SHAPES = {
    "heredoc": "cat <<'EOF'\nheredoc line\nEOF\necho {{ arg(1) }}",
    "heredoc-last": "echo {{ arg(1) }}\ncat <<EOF\nlast $((1 + 1))\nEOF",
    "multi-line": "echo one\necho {{ arg(1) }}",
    "trailing-comment": "echo {{ arg(1) }} # a note",
    "multi-line-comment": "echo one # first\necho {{ arg(1) }} # second",
    "background": "echo {{ arg(1) }} &\nwait",
    "one-command": "echo {{ arg(1) }}",
}
LISTS = [
    "gt x hello && echo done",
    "gt x hello; echo done",
    "gt x hello || echo never",
    "gt x hello | tr a-z A-Z",
    "echo before && gt x hello",
    "out=$(gt x hello); echo \"[$out]\"",
    "if gt x hello; then echo yes; fi",
    "gt x hello > out.txt && cat out.txt",
    "! gt x hello; echo after",
]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_recipe_spliced_into_a_list_behaves_like_the_original(dp, pave_check, tmp_path, shape):
    """The original runs with ``gt`` defined as a function whose body is the rendered script."""
    script = SHAPES[shape]
    assert dp("alias", "--recipe", "gt x", script).returncode == 0
    rendered = script.replace("{{ arg(1) }}", "hello")
    for command in LISTS:
        proc = pave_check({"tool_name": "Bash", "tool_input": {"command": command}})
        rewritten = json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
        syntax = subprocess.run(["bash", "-n", "-c", rewritten], capture_output=True, text=True)
        assert syntax.returncode == 0, (rewritten, syntax.stderr)
        expected = _bash(f"gt() {{\n{rendered}\n}}\n{command}", tmp_path / "expected")
        assert _bash(rewritten, tmp_path / "actual") == expected, rewritten


def _bash(script: str, cwd) -> tuple[int, str]:
    cwd.mkdir(exist_ok=True)
    proc = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=10)
    return proc.returncode, proc.stdout


def _rows(db_path) -> list[tuple]:
    with sqlite3.connect(db_path) as conn:
        return conn.execute("SELECT from_name, to_name FROM aliases_v3 ORDER BY rowid").fetchall()


BOMBS = [
    "echo {{ 'a' * 999999999 }}",
    "{% for i in range(10**9) %}x{% endfor %}",
    "echo {{ 'x'.ljust(10**9) }}",
    "{% macro f(x) %}{{ f(x ~ x) }}{% endmacro %}echo {{ f('ab') }}",
]


@pytest.mark.parametrize("script", BOMBS)
def test_size_bombs_are_refused_when_written_and_bounded_in_the_hook(dp, db_path, pave_check, tmp_path, script):
    proc = dp("alias", "--recipe", "gt x", script, timeout=30)
    assert_one_line_error(proc, "recipe template for 'gt x' does not parse: ")
    assert "too big" in proc.stderr
    collection = tmp_path / "bomb.json"
    collection.write_text(json.dumps({"aliases": [{"from": "gt x", "to": script, "command": "gt",
                                                   "match_kind": "recipe", "tool": "Bash", "param": "command"}]}))
    assert_one_line_error(dp("aliases", "import", collection, timeout=30), "too big")
    # A row that got into the store anyway (an older dp): the hook stays within its bounds.
    dp("alias", "--recipe", "gt x", "echo {{ args }}")
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE aliases_v3 SET to_name = ? WHERE from_name = 'gt x'", (script,))
    proc = pave_check({"tool_name": "Bash", "tool_input": {"command": "gt x a"}}, timeout=20)
    assert (proc.returncode, proc.stdout) == (0, "")


def test_programs_an_older_dp_compiled_are_compiled_again(dp, db_path, pave_check):
    """A version-1 program (|raw spliced unchecked then) is replaced when dp next writes the store."""
    assert dp("alias", "--recipe", "gt x", 'echo "{{ args|raw }}"').returncode == 0
    with sqlite3.connect(db_path) as conn:
        old = {"v": 1, "used": None, "parts": ['echo "', ["args", None, [["raw", None]]], '"']}
        conn.execute("UPDATE recipe_programs SET program = ?", (json.dumps(old, separators=(",", ":")),))
    assert dp("alias", "keep_me", "Read").returncode == 0
    with sqlite3.connect(db_path) as conn:
        [(program,)] = conn.execute("SELECT program FROM recipe_programs").fetchall()
    assert json.loads(program)["v"] == 3 and "dp_in" in program  # 3: with the option checks (issue 47)
    proc = pave_check({"tool_name": "Bash", "tool_input": {"command": "gt x '\"; touch pwned; \"'"}})
    rewritten = json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    assert rewritten == 'echo ""\'"; touch pwned; "\'""'
