"""Recipe aliases keep the agent's words: each case runs the rewrite through bash and compares
what the script receives with what the original command would have passed to the same script.

The "original" is the agent's command with the recipe prefix defined as a bash function taking
its words as "$@" (or "$1", "$2" …), in the same directory, with the same environment.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from hook_support import BIN, build_store

RECIPES = {
    "all": ("printf '[%s]' {{ args }}", 'printf "[%s]" "$@"'),
    "two": ("printf '[%s]' {{ arg(1) }} {{ arg(2) }}", 'printf "[%s]" "$1" ${2+"$2"}'),
    "dflt": ("printf '[%s]' {{ arg(1) | default('open') }}", 'printf "[%s]" "${1-open}"'),
    "joined": ("printf '[%s]' {{ args | join(' ') }}", 'printf "[%s]" "$@"'),
    "rest": ("printf '[%s]' {{ args[1:] | join(' ') }}", 'shift; printf "[%s]" "$@"'),
    "sliced": ("printf '[%s]' {{ args[1:] }} -- {{ args[0] }}", 'printf "[%s]" "${@:2}" -- "$1"'),
    "go": ("printf '[%s]' {{.Args}}", 'printf "[%s]" "$@"'),
    "logic": ("{% if arg(1) == 'open' %}printf '[%s]' opened {{ args[1:] }}{% else %}printf '[%s]' {{ args }}"
              "{% endif %}", 'if [ "$1" = open ]; then shift; printf "[%s]" opened "$@"; else printf "[%s]" "$@"; fi'),
}
CASES = [
    ("all", "*.py", "glob"),
    ("all", "$HOME/x", "variable"),
    ("all", '"$VAR" ${VAR}x', "quoted variable"),
    ("all", "~/x ~", "tilde"),
    ("all", "$(echo sub) `echo tick`", "substitution"),
    ("all", "'x; touch pwned' \"a|b\" 'it''s' a\\ b", "quoted metacharacters"),
    ("all", "'$(touch pwned)' '\"; touch pwned; \"'", "quoted injection attempts"),
    ("all", "'line one\nline two'", "newline inside quotes"),
    ("all", "", "no arguments"),
    ("two", "one", "missing argument"),
    ("two", "one \"$VAR\"", "both arguments"),
    ("dflt", "", "default"),
    ("dflt", "~/given", "default not needed"),
    ("joined", "'a b' *.py $VAR", "join"),
    ("rest", "skip 'a b' *.py", "slice joined"),
    ("sliced", "first 'a b' ~/x", "slice"),
    ("go", "'a b' *.py $VAR", "Go template"),
    ("logic", "open 'a b' *.py", "template logic on values"),
    ("logic", "'open' ~", "template logic on a quoted value"),
    ("logic", "other $VAR", "template logic, other branch"),
]


@pytest.fixture(scope="module")
def store_env(tmp_path_factory):
    rules = [["--recipe", f"rr {name}", template] for name, (template, _) in RECIPES.items()]
    rules.append(["--recipe", "rr v", "printf '[%s]' {{ args | value }} {{ arg(1) | quote }}"])
    return build_store(tmp_path_factory.mktemp("recipes-as-typed"), rules)


def hook(env, command: str) -> str:
    payload = json.dumps({"tool_name": "Bash", "tool_input": {"command": command}})
    proc = subprocess.run([str(BIN / "pave-check")], input=payload, capture_output=True, text=True, env=env, timeout=60)
    return json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"]


@pytest.mark.parametrize("name,words,case", CASES, ids=[case for _, _, case in CASES])
def test_the_script_receives_what_the_original_command_would_have_passed(store_env, tmp_path, name, words, case):
    work = tmp_path / "work"
    work.mkdir()
    for file in ("a.py", "b.py", "notes.txt"):
        (work / file).write_text("")
    command = f"rr {name} {words}".rstrip()
    rewritten = hook(store_env, command)
    function = RECIPES[name][1]
    expected = _run(f"rr() {{ shift; {function}; }}\n{command}", work)
    assert _run(rewritten, work) == expected, rewritten
    assert not (work / "pwned").exists()


def test_value_filter_prints_values_quoted(store_env):
    rewritten = hook(store_env, 'rr v *.py "$HOME"')
    assert rewritten == "printf '[%s]' '*.py' '$HOME' '*.py'"


def _run(script: str, cwd) -> tuple[int, str, str]:
    env = {"HOME": "/home/agent", "VAR": "v a l", "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=10)
    return proc.returncode, proc.stdout, proc.stderr
