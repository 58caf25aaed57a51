"""pave-check on real Bash commands, with a store built by `dp alias`."""

from __future__ import annotations

import itertools
import json
import subprocess

import pytest
from hook_support import BIN, build_store

RULES = [
    ["--cmd", "scp", "--flag", "r", "R"],
    ["--cmd", "grep", "--replace", "rg", "--message", "use ripgrep"],
    ["--cmd", "rg", "--flag", "n", "line-number"],
    ["--cmd", "scp", "user@old:", "user@new:"],
    ["--recipe", "gt convoy wait", "gt convoy status {{ arg(1) }} --watch"],
    ["--recipe", "gt await-signal", "while ! gt mol status | grep -q signaled; do sleep 5; done"],
]


@pytest.fixture(scope="module")
def hook_env(tmp_path_factory):
    return build_store(tmp_path_factory.mktemp("hook-bash"), RULES)


_CALLS = itertools.count(1)


def check(env, command: str, **extra_input):
    """Run pave-check on a Bash call; returns (updated command or None, full output dict or None)."""
    payload = {
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, **extra_input},
        "tool_use_id": f"toolu_{next(_CALLS)}",  # each call its own, as the client's are
    }
    proc = subprocess.run(
        [str(BIN / "pave-check")], input=json.dumps(payload), capture_output=True, text=True, env=env, timeout=30
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    if not proc.stdout:
        return None, None
    output = json.loads(proc.stdout)
    return output["hookSpecificOutput"]["updatedInput"]["command"], output


@pytest.mark.parametrize(
    "command, expected",
    [
        ("scp -r a h:/ && scp -r b h:/", "scp -R a h:/ && scp -R b h:/"),
        ("ls &&\n  grep -n foo bar.py", "ls &&\n  rg --line-number foo bar.py"),
        ("sudo FOO=1 scp -r a h:/", "sudo FOO=1 scp -R a h:/"),
        # A path names one program: rules for the bare name leave it alone.
        ("sudo FOO=1 /usr/bin/scp -r a h:/", None),
        ('echo "grep x" | grep y', 'echo "grep x" | rg y'),
        ("cat > notes.md <<'EOF'\nrun grep -n and scp -r here\nEOF\nwc -l notes.md", None),
        (
            "git commit -m \"$(cat <<'EOF'\nUse grep -r, not scp -r\nEOF\n)\" && grep -n x f.py",
            "git commit -m \"$(cat <<'EOF'\nUse grep -r, not scp -r\nEOF\n)\" && rg --line-number x f.py",
        ),
        ("scp -r file user@old:/srv 'user@old:'", "scp -R file user@new:/srv 'user@old:'"),
        ("for f in *.py; do grep -l TODO \"$f\"; done", "for f in *.py; do rg -l --max-depth 0 TODO \"$f\"; done"),
        # "$f" may name a binary file, whose count rg and grep print differently: left as typed.
        ("for f in *.py; do grep -c TODO \"$f\"; done", None),
        ("find . -name '*.py' | xargs grep -l x", "find . -name '*.py' | xargs rg -l --max-depth 0 x"),
        ("[[ -f x ]] && time grep -n y x.py", "[[ -f x ]] && time rg --line-number y x.py"),
        ("echo 'grep -n' # grep -n", None),
        ("echo $'it\\'s' ; grep -n x f.py ; echo 'ok'", "echo $'it\\'s' ; rg --line-number x f.py ; echo 'ok'"),
        ("command -v grep || grep -n x f.py", "command -v grep || rg --line-number x f.py"),
        ("gt await-signal &", "{ while ! gt mol status | rg -q signaled; do sleep 5; done; } &"),
        ("ls | xargs gt await-signal", None),
    ],
)
def test_bash_rewrites(hook_env, command, expected):
    assert check(hook_env, command)[0] == expected


def test_full_input_survives_and_context_explains(hook_env):
    _, output = check(hook_env, "grep -n x f.py", description="Search", timeout=120000, run_in_background=False)
    specific = output["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse"
    assert specific["updatedInput"] == {
        "command": "rg --line-number x f.py",
        "description": "Search",
        "timeout": 120000,
        "run_in_background": False,
    }
    assert specific["additionalContext"] == "dp: grep → rg (use ripgrep); rg: -n → --line-number"
    assert "permissionDecision" not in specific


def test_recipe_args_keep_the_agents_quoting(hook_env):
    """Spliced as typed: a quoted argument stays quoted, an expansion stays the agent's expansion."""
    command, _ = check(hook_env, "gt convoy wait 'x; rm -rf ~' && echo done")
    assert command == "gt convoy status 'x; rm -rf ~' --watch && echo done"
    command, _ = check(hook_env, "gt convoy wait '$(touch /tmp/pwned)'")
    assert command == "gt convoy status '$(touch /tmp/pwned)' --watch"
    command, _ = check(hook_env, "gt convoy wait \"$ID\"")
    assert command == "gt convoy status \"$ID\" --watch"


def test_recipe_in_a_pipeline_is_grouped_and_dropped_args_are_reported(hook_env):
    command, output = check(hook_env, "echo start && gt await-signal --timeout 30 | tail -1")
    # Later kinds see the recipe's output: the grep → rg rule applies to the script too.
    assert command == (
        "echo start && { while ! gt mol status | rg -q signaled; do sleep 5; done; } | tail -1"
    )
    context = output["hookSpecificOutput"]["additionalContext"]
    assert "dropped arguments: --timeout 30" in context


def test_hang_input_returns_within_a_second(hook_env):
    import time

    check(hook_env, "grep warm-up")  # the first parse may build bashlex's table cache
    started = time.monotonic()
    check(hook_env, "grep -n x")  # a normal parse: what a process costs on this machine right now
    normal = time.monotonic() - started
    started = time.monotonic()
    assert check(hook_env, "echo 'a${'b && grep -n x") == (None, None)
    assert time.monotonic() - started < normal + 1.0  # bashlex alone would never return


def test_commands_with_many_distinct_words_still_find_their_rules(hook_env):
    # Over 500 distinct words: the store is asked in chunks.
    words = " ".join(f"w{n}" for n in range(1200))
    assert check(hook_env, f"echo {words} && grep -n x f.py")[0] == f"echo {words} && rg --line-number x f.py"
