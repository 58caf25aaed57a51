"""A placeholder no value reaches is an error, through ``dp recipe validate`` and ``dp recipe run``.

The recipe runner renders it empty: a misspelt ``rm -rf build/{{dirr}}`` runs as
``rm -rf build/`` and the run reports success. dp refuses the recipe before any
step runs (or, for what only the run can tell, fails the step before it runs),
naming the file, step, template and line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path):
    """A project with a build tree the misspelt step would wipe."""
    path = tmp_path / "project"
    (path / ".git").mkdir(parents=True)
    (path / "build" / "out").mkdir(parents=True)
    (path / "build" / "keep.o").write_bytes(b"\x7fELF\x00\x01")
    (path / "build" / "out" / "app").write_text("binary\n")
    return path


def write(project: Path, name: str, text: str) -> Path:
    path = project / name
    path.write_text(text)
    return path


CLEAN = """name: clean
context:
  dir: out
steps:
  - id: first
    command: touch first-ran
  - id: wipe
    command: |
      echo wiping
      rm -rf build/{{dirr}}
"""


@pytest.mark.parametrize("command", [["validate"], ["run"], ["run", "--dry-run"], ["run", "--json"]])
def test_a_misspelt_variable_is_refused_before_any_step_runs(dp, project, command):
    recipe = write(project, "clean.yaml", CLEAN)
    proc = dp("recipe", command[0], recipe, *command[1:], cwd=project)
    message = (f"invalid recipe {recipe}: step 'wipe': 'command': line 2: {{{{dirr}}}} has no value (did you mean "
               "'dir'?): declare a default under 'context:' (dirr: …), pass --set dirr=VALUE, or write "
               "{{ dirr | default('') }}")
    assert proc.returncode == 2
    if "--json" in command:  # the error as JSON, on stdout
        assert proc.stderr == "" and json.loads(proc.stdout) == {"ok": False, "error": message, "exit_code": 2}
    else:
        assert proc.stdout == "" and proc.stderr == f"dp: error: {message}\n"
    assert (project / "build" / "keep.o").exists() and not (project / "first-ran").exists()


def test_set_gives_the_value_at_validation_and_run(dp, project):
    recipe = write(project, "clean.yaml", CLEAN)
    assert dp("recipe", "validate", recipe, "--set", "dirr=out", cwd=project).returncode == 0
    proc = dp("recipe", "run", recipe, "--set", "dirr=out", "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert not (project / "build" / "out").exists() and (project / "build" / "keep.o").exists()


@pytest.mark.parametrize("text, where", [
    ("steps:\n  - id: s\n    command: echo {{ unclosed\n", "step 's': 'command': line 1: '{{' is not closed"),
    ("steps:\n  - id: s\n    prompt: |\n      Review\n      {{name} please\n", "step 's': 'prompt': line 2: '{{' is not closed"),
    ("steps:\n  - id: s\n    task: test {{ flag | upper }}\n",
     "step 's': 'task': line 1: {{ flag | upper }} does not parse: the only filter is | default('text')"),
    ("hooks:\n  pre_step: echo {{step_id\nsteps:\n  - id: s\n    command: 'true'\n", "'hooks.pre_step': line 1: '{{' is not closed"),
])
def test_a_template_that_does_not_parse_names_file_step_and_line(dp, project, text, where):
    recipe = write(project, "bad.yaml", "name: bad\ncontext: {name: n, flag: f}\n" + text)
    for command in ("validate", "run"):
        proc = dp("recipe", command, recipe, cwd=project)
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.startswith(f"dp: error: invalid recipe {recipe}: {where}"), proc.stderr


def test_what_gives_a_value(dp, project):
    """Context, earlier outputs (output: or the id), a sub-recipe's context, defaults, hook names, conditions."""
    (project / "recipes").mkdir()
    write(project / "recipes", "child.yaml",
          "name: child\ncontext: {who: nobody}\nsteps:\n  - {id: inner, command: 'echo child-{{who}}', output: from_child}\n")
    recipe = write(project, "ok.yaml", """name: ok
context: {greeting: hi}
hooks:
  post_step: 'echo "{{recipe_name}}/{{step_id}}: {{step_status}}" >> hooks.log'
steps:
  - {id: one, command: 'echo {{greeting}}', output: said}
  - {id: two, command: 'echo {{said}}-{{one | default("x")}}'}
  - {id: sub, recipe: child, context: {who: "{{two}}"}}
  - {id: after, command: 'echo {{from_child}} {{who}}'}
  - {id: guarded, condition: "maybe", command: 'echo {{maybe}}'}
  - {id: fine, command: 'echo [{{ later | default("") }}]'}
""")
    assert dp("recipe", "validate", recipe, cwd=project).returncode == 0
    proc = dp("recipe", "run", recipe, "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    steps = {step["id"]: step for step in json.loads(proc.stdout)["steps"]}
    assert steps["two"]["output"] == "hi-x" and steps["after"]["output"] == "child-hi-x hi-x"
    assert steps["guarded"]["status"] == "skipped" and steps["fine"]["output"] == "[]"
    assert "ok/one: completed" in (project / "hooks.log").read_text()


@pytest.mark.parametrize("steps, line", [
    ("  - {id: a, command: 'echo {{b}}'}\n  - {id: b, command: 'echo b'}\n",
     "step 'a': 'command': line 1: {{b}} has no value before step 'b' has run"),
    ("  - {id: a, command: 'echo a', parallel_group: g}\n  - {id: b, command: 'echo {{a}}', parallel_group: g}\n",
     "step 'b': 'command': line 1: {{a}} has no value before step 'a' has run"),
])
def test_an_output_is_not_there_before_its_step_has_run(dp, project, steps, line):
    recipe = write(project, "order.yaml", "name: order\nsteps:\n" + steps)
    proc = dp("recipe", "validate", recipe, cwd=project)
    assert proc.returncode == 2 and line in proc.stderr, proc.stderr


def test_a_sub_recipe_must_get_or_declare_what_it_uses(dp, project):
    (project / "recipes").mkdir()
    child = write(project / "recipes", "child.yaml", "name: child\nsteps:\n  - {id: inner, command: 'rm -rf build/{{target}}'}\n")
    recipe = write(project, "parent.yaml", "name: parent\nsteps:\n  - {id: call, recipe: child}\n")
    proc = dp("recipe", "run", recipe, cwd=project)
    assert proc.returncode == 2, proc.stderr
    assert (f"dp: error: invalid recipe {recipe}: step 'call': sub-recipe {child}: step 'inner': 'command': line 1: "
            "{{target}} has no value") in proc.stderr
    assert (project / "build" / "keep.o").exists()
    write(project, "parent.yaml", "name: parent\nsteps:\n  - {id: call, recipe: child, context: {target: out}}\n")
    assert dp("recipe", "run", recipe, cwd=project).returncode == 0
    assert not (project / "build" / "out").exists() and (project / "build" / "keep.o").exists()


def test_a_key_missing_inside_a_value_fails_the_step_before_it_runs(dp, project):
    """Only the run can tell: {{result.dirr}} of an earlier step's JSON output."""
    recipe = write(project, "json.yaml", """name: json
steps:
  - {id: result, command: 'echo "{\\"dir\\": \\"out\\"}"', parse_json: true}
  - {id: wipe, command: 'rm -rf build/{{result.dirr}}'}
  - {id: never, command: 'touch never-ran'}
""")
    dry = dp("recipe", "run", recipe, "--dry-run", cwd=project)
    assert dry.returncode == 0 and "DP_VAR_result_dirr='<unknown until run: result.dirr>'" in dry.stdout, dry.stdout
    proc = dp("recipe", "run", recipe, "--json", cwd=project)
    assert proc.returncode == 1
    steps = {step["id"]: step for step in json.loads(proc.stdout)["steps"]}
    assert steps["wipe"]["status"] == "failed"
    assert steps["wipe"]["error"].startswith("step 'wipe': line 1: {{result.dirr}} has no value")
    assert steps["never"]["status"] == "pending"
    assert (project / "build" / "out" / "app").exists() and not (project / "never-ran").exists()


# -- alias recipes: the agent's words, a small language of their own ---------------------------------

@pytest.mark.parametrize("script, error", [
    ("echo {{ agrs }}", "line 1: unknown variable 'agrs' (available: args, arg(n), matched, raw, full, cwd)"),
    ("echo {{ args.lenght }}", "list value has no attribute 'lenght'"),
    ("echo {{ arg(1).stirp() }}", "Arg value has no attribute 'stirp'"),
    ("echo {{ cwd.nope }}", "str value has no attribute 'nope'"),
    ("echo {{ unclosed", "line 1: unexpected end of template"),
])
def test_an_alias_recipe_with_a_name_its_values_lack_is_refused_when_written(dp, script, error):
    proc = dp("alias", "--recipe", "mk build", script)
    assert proc.returncode != 0 and proc.stdout == ""
    assert proc.stderr.startswith(f"dp: error: recipe template for 'mk build' does not parse: {error}"), proc.stderr


def test_a_missing_argument_still_prints_nothing_or_its_default(dp, pave_check):
    """arg(n) and args[i] name the agent's optional words: absent, they print nothing (docs/hook.md)."""
    assert dp("alias", "--recipe", "mk", "echo {{ arg(3) | default('none') }} [{{ args[5] }}] {{ args | length }}").returncode == 0
    call = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s", "cwd": "/",
            "tool_input": {"command": "mk a b"}}
    answer = json.loads(pave_check(call).stdout)
    assert answer["hookSpecificOutput"]["updatedInput"]["command"] == "echo none [] 2"
