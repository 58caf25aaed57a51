"""pave-check translating flags between tools (grep → rg, find → fd), or leaving the command alone."""

from __future__ import annotations

import json
import subprocess

import pytest
from hook_support import BIN, build_store

RULES = [
    ["--cmd", "grep", "--replace", "rg"],
    ["--cmd", "find", "--replace", "fd"],
    ["--cmd", "ls", "--replace", "eza"],
    ["--cmd", "rg", "--flag", "n", "line-number"],
]


@pytest.fixture(scope="module")
def hook_env(tmp_path_factory):
    return build_store(tmp_path_factory.mktemp("hook-translate"), RULES)


def run_hook(env, command: str, *options: str) -> dict | None:
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}, "cwd": "/tmp"}
    proc = subprocess.run(
        [str(BIN / "pave-check"), *options], input=json.dumps(payload), capture_output=True, text=True, env=env,
        timeout=30,
    )
    assert proc.returncode == 0
    # --verbose also says on stderr why a command went ahead as typed (test_hook_verbose.py).
    assert proc.stderr == "" or ("--verbose" in options and proc.stderr.startswith("pave-check: ")), proc.stderr
    return json.loads(proc.stdout)["hookSpecificOutput"] if proc.stdout else None


@pytest.mark.parametrize(
    "command, expected",
    [
        ("grep -rn foo .", "rg --line-number --hidden --no-ignore foo ."),
        ("grep -rln foo .", "rg -l --line-number --hidden --no-ignore --binary foo ."),
        ("grep -n '^def \\|^class ' app.py", "rg --line-number '^def |^class ' app.py"),
        ("grep '\\<word\\>' app.py", "rg '\\bword\\b' app.py"),
        ("grep '*.py' notes.txt", "rg '\\*.py' notes.txt"),
        ("grep --binary-files=text IHDR logo.png", "rg -a IHDR logo.png"),
        ("grep -l IHDR logo.png", "rg -l IHDR logo.png"),
        ("grep -E 'a|b' app.py", "rg 'a|b' app.py"),
        ("grep 'a\\|b' app.py", "rg 'a|b' app.py"),
        ("grep -rin --include='*.py' TODO src", "rg -i --line-number -g '*.py' --hidden --no-ignore TODO src"),
        ("grep -rl --include=*.py x", "rg -l -g '*.py' --hidden --no-ignore --binary x ."),
        ("grep -rIl x src", "rg -l --hidden --no-ignore x src"),
        ("git log | grep -c fix", "git log | rg -c --include-zero fix"),
        ("grep -h x a.txt b.txt", "rg -I x a.txt b.txt"),
        (
            "find . -name '*.py' -exec ls -l {} +",
            "fd --hidden --no-ignore --case-sensitive --glob '*.py' . --exec-batch eza -l {}",
        ),
        ("find src -iname '*.md' -type f", "fd --ignore-case --type f --hidden --no-ignore --glob '*.md' src"),
        (
            "cat $(find . -name '*.txt' -type f) | grep -v x",
            "cat $(fd --type f --hidden --no-ignore --case-sensitive --glob '*.txt' .) | rg -v x",
        ),
    ],
)
def test_known_flags_are_translated(hook_env, command, expected):
    assert run_hook(hook_env, command)["updatedInput"]["command"] == expected


def test_the_context_says_what_was_translated(hook_env):
    context = run_hook(hook_env, "grep -rn --include='*.py' foo")["additionalContext"]
    assert context.startswith("dp: grep → rg: ")
    assert "--include='*.py' → -g '*.py'" in context
    assert "added --hidden --no-ignore (rg skips hidden and .gitignored files, grep -r searches them)" in context
    assert context.endswith("rg: -n → --line-number")


@pytest.mark.parametrize(
    "command, reason",
    [
        ("grep -P '\\d+' app.py", "grep -P: rg -P needs a PCRE2 build"),
        ("grep -rU x .", "grep -U (binary mode) has no rg equivalent"),
        ("grep --label=x y app.py", "grep --label has no known rg equivalent"),
        ("grep '\\(ab\\)\\1' app.py", "uses regex syntax that rg reads differently"),
        ("grep IHDR logo.png", "a binary file by its name: rg prints its 'binary file matches' notice on standard output"),
        ("grep --binary-files=hex x app.py", "--binary-files=hex: hex is not one of binary, text, without-match"),
        ("find . -name '*.py' -exec wc -l {} \\;", "fd --exec runs them in parallel and exits 1 when one fails"),
        ("find . -name '*.py' -execdir wc -l {} \\;", "find -execdir from each file's own"),
        ("grep \"$PATTERN\" app.py", "uses a shell expansion"),
        ("find . -type d", "find also prints the start point . itself"),
        ("find . -name a -o -name b", "fd takes one pattern"),
        ("find . -name '*.tmp' -delete", "fd has no -delete"),
    ],
)
def test_unknown_flags_leave_the_command_alone_and_advise_says_why(hook_env, command, reason):
    assert run_hook(hook_env, command) is None
    for options in (["--mode", "advise"], ["--verbose"]):
        output = run_hook(hook_env, command, *options)
        assert "updatedInput" not in output and "permissionDecision" not in output
        assert " left as typed, not translated to " in output["additionalContext"]
        assert reason in output["additionalContext"]


def test_a_refused_command_next_to_a_translated_one(hook_env):
    output = run_hook(hook_env, "grep -P x a.py; grep -w x a.py", "--verbose")
    assert output["updatedInput"]["command"] == "grep -P x a.py; rg -w x a.py"
    assert "grep left as typed" in output["additionalContext"]


@pytest.mark.parametrize("command", ["\\grep -rn x .", "\\ls -la", "\\find . -name x", "\\time ls"])
def test_backslash_escaped_commands_are_never_rewritten(hook_env, command):
    assert run_hook(hook_env, command) is None


def test_find_exec_ls_is_rewritten_whole_in_one_pass(hook_env):
    output = run_hook(hook_env, "find . -name '*.log' -exec ls {} + && ls")
    assert output["updatedInput"]["command"] == (
        "fd --hidden --no-ignore --case-sensitive --glob '*.log' . --exec-batch eza {} && eza"
    )


def test_a_rename_without_a_table_is_warned_about_once_and_listed_by_doctor(tmp_path):
    from hook_support import dp_alias, isolated_env, programs_dir

    env = isolated_env(tmp_path)
    env["PATH"] = f"{programs_dir(tmp_path / 'bin', ack='true', fd='true')}:{env['PATH']}"  # installed
    created = dp_alias(env, "--cmd", "grep", "--replace", "ack")
    assert created.returncode == 0
    assert created.stderr.startswith("dp: warning: dp has no translation table for grep → ack: the command is renamed")
    updated = dp_alias(env, "--cmd", "grep", "--replace", "ack", "--message", "use ack")
    assert (updated.returncode, updated.stderr) == (0, "")
    translated = dp_alias(env, "--cmd", "find", "--replace", "fd")
    assert (translated.returncode, translated.stderr) == (0, "")
    doctor = subprocess.run([str(BIN / "dp"), "doctor"], capture_output=True, text=True, env=env, timeout=60)
    assert "command grep → ack only renames" in doctor.stdout + doctor.stderr
    assert "find → fd only renames" not in doctor.stdout + doctor.stderr


def test_changing_a_rules_target_to_a_tool_without_a_table_is_warned_about(tmp_path):
    from hook_support import dp_alias, isolated_env

    env = isolated_env(tmp_path)
    assert dp_alias(env, "--cmd", "grep", "--replace", "rg").stderr == ""
    changed = dp_alias(env, "--cmd", "grep", "--replace", "ag")
    assert changed.returncode == 0
    assert changed.stderr.startswith("dp: warning: dp has no translation table for grep → ag: the command is renamed")
    assert dp_alias(env, "--cmd", "grep", "--replace", "rg").stderr == ""
