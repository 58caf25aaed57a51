"""`pave-check --verbose` says on stderr why it let a call through untouched.

Every path that ends in silence (exit 0, no output) has a reason a person debugging the hook
needs: input it ignores, an agent name it does not know, no store, no rule, paving switched
off. Without --verbose the same calls stay silent, and every one of them exits 0: a hook must
never break the agent's session. An unknown --agent is a mistake in the hook command itself,
so it is said on stderr even without --verbose.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from hook_support import BIN, dp_alias, isolated_env, programs_dir
from paving_projects import make_js_project


@pytest.fixture
def env(tmp_path):
    env = isolated_env(tmp_path)
    assert dp_alias(env, "--cmd", "grep", "--replace", "rg").returncode == 0
    env["PATH"] = f"{programs_dir(tmp_path / 'bin', rg='grep')}:{env['PATH']}"
    return env


def run(env, data, *options: str) -> subprocess.CompletedProcess:
    if isinstance(data, dict):
        data = json.dumps(data)
    data = data.encode() if isinstance(data, str) else data
    proc = subprocess.run([str(BIN / "pave-check"), *options], input=data, capture_output=True, env=env, timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def bash(command, **extra) -> dict:
    return {"session_id": "s", "hook_event_name": "PreToolUse", "cwd": "/tmp", "tool_name": "Bash",
            "tool_input": {"command": command}, **extra}


SILENT = [
    ("empty stdin", b"", "no input"),
    ("not JSON", "grep -rn x", "not JSON"),
    ("a JSON array", "[1, 2]", "not a JSON object"),
    ("over the size limit", json.dumps(bash("echo " + "x" * (1 << 20))), "over 1 MiB"),
    ("no tool name", {"hook_event_name": "PreToolUse", "tool_input": {}}, "no tool call"),
    ("an event pave-check does not act on", {**bash("grep x"), "hook_event_name": "PostToolUse"},
     "PostToolUse"),
    ("input that is not an object", {**bash("x"), "tool_input": "grep x"}, "input is not an object"),
    ("an empty command", bash(""), "empty command"),
    ("no rule for the command", bash("ls -la | sort"), "no rule for ls, sort"),
    ("no rule for the tool", {**bash(""), "tool_name": "Read", "tool_input": {"file_path": "/x"}},
     "no rule for Read"),
    ("a rule that changes nothing", bash("echo grep"), "changed nothing"),
]


@pytest.mark.parametrize("payload, reason", [case[1:] for case in SILENT], ids=[case[0] for case in SILENT])
def test_verbose_explains_every_silent_path(env, payload, reason):
    quiet = run(env, payload)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    verbose = run(env, payload, "--verbose")
    assert (verbose.returncode, verbose.stdout) == (0, "")
    assert verbose.stderr.startswith("pave-check: ") and reason in verbose.stderr, verbose.stderr


def test_no_store(tmp_path):
    env = isolated_env(tmp_path)
    proc = run(env, bash("grep x"), "--verbose")
    assert (proc.returncode, proc.stdout) == (0, "")
    assert f"no store at {tmp_path / 'dp.db'}" in proc.stderr


def test_an_unreadable_store_is_said_and_the_call_goes_ahead(tmp_path):
    env = isolated_env(tmp_path)
    (tmp_path / "dp.db").write_bytes(b"not a database at all, " * 100)
    assert (run(env, bash("grep x")).stdout, run(env, bash("grep x")).stderr) == ("", "")
    proc = run(env, bash("grep x"), "--verbose")
    assert (proc.returncode, proc.stdout) == (0, "")
    assert "the call goes ahead as typed" in proc.stderr and "not a database" in proc.stderr


def test_paving_switched_off(env, tmp_path):
    project = make_js_project(tmp_path / "app", "pnpm")
    subprocess.run([str(BIN / "dp"), "paving", "off"], env=env, check=True, capture_output=True)
    proc = run(env, bash("npm ci", cwd=str(project)), "--verbose")
    assert (proc.returncode, proc.stdout) == (0, "")
    assert "paving is off" in proc.stderr and "dp paving on" in proc.stderr


def test_a_rewrite_under_verbose_still_answers_on_stdout(env):
    proc = run(env, bash("grep -n x f.py"), "--verbose")
    assert json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"] == "rg -n x f.py"


@pytest.mark.parametrize("options", [[], ["--verbose"]])
def test_an_unknown_agent_is_said_on_stderr_with_a_did_you_mean(env, options):
    proc = run(env, bash("grep -n x f.py"), "--agent", "gemni", *options)
    assert (proc.returncode, proc.stdout) == (0, "")
    assert "unknown agent 'gemni'" in proc.stderr and "did you mean 'gemini'?" in proc.stderr
    assert "--agent" in proc.stderr  # where the fix goes: the hook command


def test_a_copilot_payload_without_a_tool_is_explained(env):
    proc = run(env, {"sessionId": "s", "cwd": "/tmp"}, "--agent", "copilot", "--verbose")
    assert (proc.returncode, proc.stdout) == (0, "")
    assert "Copilot CLI" in proc.stderr and "no tool call" in proc.stderr


# A rule word inside quotes inside a substitution (issue 49, finding 11): the quote after
# ``$(echo `` opens a string inside the substitution, it does not close the outer one.
NESTED = [
    ('echo "$(comm -12 <(echo "$a" | fold -w1 | sort | uniq) <(echo "$b" | sort))"',
     'echo "$(comm -12 <(echo "$a" | fold -w1 | gsort | uniq) <(echo "$b" | gsort))"'),
    ('echo "$(echo "x" | sort)"', 'echo "$(echo "x" | gsort)"'),
    ('echo "`echo "x" | sort`"', 'echo "`echo "x" | gsort`"'),
    ('echo "$(echo "$(echo "a b" | sort)")" done', 'echo "$(echo "$(echo "a b" | gsort)")" done'),
    ("echo \"$(echo 'it\"s' | sort)\"", "echo \"$(echo 'it\"s' | gsort)\""),
]


@pytest.fixture
def sort_env(tmp_path):
    env = isolated_env(tmp_path)
    assert dp_alias(env, "--cmd", "sort", "--replace", "gsort").returncode == 0
    env["PATH"] = f"{programs_dir(tmp_path / 'bin', gsort='sort')}:{env['PATH']}"
    return env


@pytest.mark.parametrize("command, expected", NESTED)
def test_a_rule_word_in_quotes_inside_a_substitution_is_rewritten(sort_env, command, expected):
    for options in ((), ("--verbose",)):
        proc = run(sort_env, bash(command), *options)
        assert proc.returncode == 0 and proc.stdout, proc.stderr
        assert json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"] == {"command": expected}


def test_verbose_names_as_ruleless_only_the_words_it_looked_up(sort_env):
    """A word in a quoted string is no program; the programs named are the ones without a rule."""
    proc = run(sort_env, bash('echo "$(printf "%s" "sort me" | tr a b)"'), "--verbose")
    assert (proc.returncode, proc.stdout) == (0, "")
    assert "no rule for echo, printf, tr" in proc.stderr and "sort" not in proc.stderr, proc.stderr
