"""A command given by path names one program: a rule for the bare name leaves it alone.

`/testbed/venv/bin/python x.py` runs the interpreter of that virtual environment; a rule
`python → python3` (for the `python` found on PATH) must not drop the environment the agent
named. The same holds for flag, literal and recipe rules. A rule that itself names the path
acts on exactly that path.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from hook_support import BIN, build_store, programs_dir

RULES = [
    ["--cmd", "python", "--replace", "python3"],
    ["--cmd", "/opt/py2/bin/python", "--replace", "python3"],
    ["--cmd", "scp", "--flag", "r", "R"],
    ["--cmd", "rsync", "user@old:", "user@new:"],
    ["--recipe", "gt convoy wait", "gt convoy status {{ arg(1) }} --watch"],
    ["--recipe", "./gt convoy check", "gt convoy status {{ arg(1) }}"],
]


@pytest.fixture(scope="module")
def hook_env(tmp_path_factory):
    root = tmp_path_factory.mktemp("path-commands")
    env = build_store(root, RULES)
    # The programs the rules lead to are on the agent's PATH: what is left alone is left for the path.
    env["PATH"] = str(programs_dir(root / "bin", python3="python3", gt="true"))
    (root / "work" / "app").mkdir(parents=True)  # in no project: no paving of `python -m pytest`
    return env, str(root / "work")


def check(hook_env, command: str):
    env, cwd = hook_env
    payload = {"session_id": "s1", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": command}}
    proc = subprocess.run([str(BIN / "pave-check")], input=json.dumps(payload), capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"] if proc.stdout else None


@pytest.mark.parametrize("command", [
    "/testbed/venv/bin/python x.py",
    ".venv/bin/python -m pytest",
    "cd app && ./venv/bin/python -m pytest -q",
    "sudo /usr/local/bin/python setup.py install",
    "/usr/bin/scp -r build host:/srv",
    "./rsync a user@old:/x",
    "./gt convoy wait abc",
    "/usr/local/bin/gt convoy wait abc",
    "gt convoy check abc",
])
def test_a_command_given_by_path_is_not_the_bare_name(hook_env, command):
    assert check(hook_env, command) is None


@pytest.mark.parametrize("command, expected", [
    ("python x.py", "python3 x.py"),
    ("cd app && python -m pytest -q", "cd app && python3 -m pytest -q"),
    ("scp -r build host:/srv", "scp -R build host:/srv"),
    ("rsync a user@old:/x", "rsync a user@new:/x"),
    ("gt convoy wait abc", "gt convoy status abc --watch"),
    # The path and the bare name in one command line: each gets what is its own.
    ("python a.py && .venv/bin/python b.py", "python3 a.py && .venv/bin/python b.py"),
])
def test_the_bare_name_is_still_rewritten(hook_env, command, expected):
    assert check(hook_env, command) == expected


@pytest.mark.parametrize("command, expected", [
    ("/opt/py2/bin/python x.py", "python3 x.py"),
    ("./gt convoy check abc", "gt convoy status abc"),
])
def test_a_rule_that_names_the_path_acts_on_that_path(hook_env, command, expected):
    assert check(hook_env, command) == expected
