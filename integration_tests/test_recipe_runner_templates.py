"""The recipe runner's own template, recipe and parser cases, run through ``dp recipe``.

Restated from amplihack-recipe-runner's public repository (``src/context.rs``
render tests, ``tests/outside_in_tests.rs``, ``recipes/testing/*.yaml``):
the same YAML gives the same step output under dp. The runner inlines or
references values (its ``render_shell``); dp always passes them through the
environment, so the assertions are on what the steps print, which is what a
recipe author sees. Where dp is stricter on purpose (docs: "Where dp is
stricter than the recipe runner") the case is asserted as a refusal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "project"
    path.mkdir()
    (path / ".git").mkdir()
    return path


def run(dp, project: Path, text: str, *sets: str) -> dict:
    recipe = project / "recipe.yaml"
    recipe.write_text(text)
    args = [arg for value in sets for arg in ("--set", value)]
    proc = dp("recipe", "run", recipe, "--json", *args, cwd=project)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return {step["id"]: step for step in json.loads(proc.stdout)["steps"]}


def outputs(dp, project, text, *sets) -> dict:
    return {step_id: step["output"] for step_id, step in run(dp, project, text, *sets).items()}


# --- recipes/testing/nested-context.yaml -----------------------------------------------------------

NESTED = """
name: nested-context
context:
  config:
    db: {host: "localhost", port: 5432}
    app: {name: "test", debug: true}
steps:
  - id: nested-port-condition
    condition: "config.db.port == 5432"
    command: "echo 'PASS: config.db.port == 5432'"
  - id: nested-host-template
    type: bash
    command: "echo 'host={{config.db.host}}'"
  - id: nested-app-template
    command: "echo 'app={{config.app.name}}'"
  - id: nested-debug-condition
    condition: "config.app.debug"
    command: "echo 'PASS: config.app.debug is true'"
  - id: nested-combined
    condition: 'config.app.name == "test"'
    command: "echo 'connecting to {{config.db.host}}:{{config.db.port}} for app {{config.app.name}}'"
"""


def test_nested_context_values_inside_single_quotes(dp, project):
    assert outputs(dp, project, NESTED) == {
        "nested-port-condition": "PASS: config.db.port == 5432",
        "nested-host-template": "host=localhost",
        "nested-app-template": "app=test",
        "nested-debug-condition": "PASS: config.app.debug is true",
        "nested-combined": "connecting to localhost:5432 for app test",
    }


# --- recipes/testing/output-chaining.yaml ----------------------------------------------------------

def test_output_chaining_through_single_quotes(dp, project):
    steps = "".join(
        f"  - id: chain-step-{n}\n    type: bash\n    command: \"echo -n '{{{{step{n - 1}_out}}}}{letter}'\"\n"
        f"    output: step{n}_out\n"
        for n, letter in zip(range(2, 6), "BCDE")
    )
    text = ("name: output-chaining\ncontext: {}\nsteps:\n"
            "  - id: chain-step-1\n    type: bash\n    command: \"echo -n 'A'\"\n    output: step1_out\n" + steps)
    assert outputs(dp, project, text) == {
        "chain-step-1": "A", "chain-step-2": "AB", "chain-step-3": "ABC", "chain-step-4": "ABCD",
        "chain-step-5": "ABCDE",
    }


# --- recipes/testing/large-context.yaml ------------------------------------------------------------

def test_large_context_keeps_every_value_apart(dp, project):
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
             "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango"]
    context = "".join(f"  v{n:02}: \"{word}\"\n" for n, word in enumerate(words, 1))
    steps = "".join(
        f"  - id: step-{n:02}\n    command: \"echo '{{{{v{2 * n - 1:02}}}}}-{{{{v{2 * n:02}}}}}'\"\n"
        f"    output: out_{n:02}\n" for n in range(1, 11))
    steps += "  - id: step-chain\n    command: \"echo '{{out_01}}+{{out_10}}'\"\n"
    result = outputs(dp, project, f"name: large-context\ncontext:\n{context}steps:\n{steps}")
    assert result["step-01"] == "alpha-bravo" and result["step-10"] == "sierra-tango"
    assert result["step-chain"] == "alpha-bravo+sierra-tango"


# --- recipes/testing/step-type-inference.yaml ------------------------------------------------------

def test_step_types_are_inferred_as_the_runner_does(dp, project):
    recipe = project / "inference.yaml"
    recipe.write_text("""
name: step-type-inference
steps:
  - id: infer-bash-from-command
    command: "echo 'PASS: inferred bash from command field'"
  - id: explicit-bash
    type: bash
    command: "echo 'PASS: explicit bash type'"
  - id: infer-agent-from-fields
    agent: "mock:test:agent"
    prompt: "Test prompt for agent inference"
  - id: infer-agent-from-prompt
    prompt: "Test prompt only"
  - id: infer-recipe-from-field
    recipe: "output-chaining"
  - id: command-and-prompt
    command: "echo 'the runner runs the command'"
    prompt: "unused"
  - id: agent-with-command
    agent: "mock:test:agent"
    command: "echo x"
    prompt: "p"
""")
    proc = dp("recipe", "explain", recipe, "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    plan = json.loads(proc.stdout)
    assert {step["id"]: step["type"] for step in plan["steps"]} == {
        "infer-bash-from-command": "bash", "explicit-bash": "bash", "infer-agent-from-fields": "agent",
        "infer-agent-from-prompt": "agent", "infer-recipe-from-field": "recipe",
        "command-and-prompt": "bash", "agent-with-command": "agent",
    }
    assert "step 'command-and-prompt': 'prompt' is ignored on a bash step" in plan["warnings"]


# --- src/context.rs render_shell cases, as what the step prints ------------------------------------

CONTEXT_CASES = [
    # test_render_shell_uses_env_var_refs: a value is never code
    ("echo {{cmd}}", "hello; rm -rf /"),
    # test_render_shell_heredoc_unquoted_no_quotes_in_body
    ("cat <<EOF\nUser: {{user}}\nEOF", "User: alice"),
    # test_render_shell_heredoc_multiple_vars
    ("cat <<EOF\n{{user}} works on {{project}}\nEOF", "alice works on dp"),
    # test_render_shell_heredoc_with_tab_strip
    ("cat <<-EOF\n\t{{user}}\n\tEOF", "alice"),
    # test_render_shell_quoted_heredoc_inlines_value
    ("cat <<'PYEOF'\necho {{greeting}}\nPYEOF", "echo hello"),
    # test_render_shell_double_quoted_heredoc_inlines_value
    ("cat <<\"PYEOF\"\nprint('{{short}}')\nPYEOF", "print('hi')"),
    # test_render_shell_realistic_recipe_pattern
    ("TASK_DESC=$(cat <<EOFTASKDESC\n{{task_description}}\nEOFTASKDESC\n)\necho \"$TASK_DESC\"", "Fix the login bug"),
    # test_render_shell_realistic_single_quoted_heredoc_recipe_pattern
    ("TASK_DESC=$(cat <<'EOFTASKDESC'\n{{task_description}}\nEOFTASKDESC\n)\necho \"$TASK_DESC\"",
     "Fix the login bug"),
    # test_render_shell_heredoc_with_dot_notation_var
    ("cat <<EOF\nStatus: {{obj.status}}\nEOF", "Status: ok"),
    # test_render_shell_heredoc_missing_var_in_body / quoted_heredoc_missing_var: the runner renders
    # {{missing}} empty; dp refuses it (test_a_variable_nothing_sets_is_refused), and says it so
    ("cat <<EOF\n[{{ missing | default('') }}]\nEOF", "[]"),
    ("cat <<'EOF'\n[{{ missing | default('') }}]\nEOF", "[]"),
    # test_render_shell_heredoc_preserves_non_template_content (and quoted: nothing else expands)
    ("cat <<EOF\nplain text $EXISTING_VAR {{user}} more text\nEOF", "plain text from-env alice more text"),
    ("cat <<'EOF'\nplain text $EXISTING_VAR `x` \\n {{user}}\nEOF", "plain text $EXISTING_VAR `x` \\n alice"),
    # test_render_shell_empty_heredoc_body
    ("cat <<EOF\nEOF\necho after", "after"),
    # test_render_shell_single_quoted_heredoc_multiline_value_behavior
    ("cat <<'EOF'\n{{multi}}\nEOF", "line one\nline two"),
    # test_render_shell_mixed_heredoc_and_regular / var_on_heredoc_start_line_is_quoted
    ("cat <<EOF > {{file}}\n{{user}}\nEOF\ncat {{file}}", "alice"),
    # test_render_shell_no_heredoc_preserves_quoted_behavior
    ("echo {{cmd}} && echo {{cmd}}", "hello; rm -rf /\nhello; rm -rf /"),
    # the most common agent-recipe shape: a prompt written to a file through a quoted heredoc
    ("cat <<'EOF' > prompt.md\n# Task\n{{task_description}}\nCost: $5\nEOF\ncat prompt.md", "# Task\nFix the login bug\nCost: $5"),
]

CONTEXT = """name: context-cases
context:
  cmd: "hello; rm -rf /"
  user: alice
  project: dp
  greeting: hello
  short: hi
  task_description: Fix the login bug
  obj: {status: ok}
  multi: "line one\\nline two"
  file: "out file.txt"
steps:
  - id: s
    command: |
"""


@pytest.mark.parametrize("command, expected", CONTEXT_CASES, ids=[case[0][:40] for case in CONTEXT_CASES])
def test_render_shell_cases_print_what_the_runner_prints(dp, project, command, expected):
    body = "".join(f"      {line}\n" if line else "\n" for line in command.split("\n"))
    recipe = project / "recipe.yaml"
    recipe.write_text(CONTEXT + body)
    proc = dp("recipe", "run", recipe, "--json", cwd=project, extra_env={"EXISTING_VAR": "from-env"})
    assert proc.returncode == 0, proc.stderr
    [step] = json.loads(proc.stdout)["steps"]
    assert step["output"] == expected


@pytest.mark.parametrize("command", ["cat <<EOF\n[{{missing}}]\nEOF", "cat <<'EOF'\n[{{missing}}]\nEOF"])
def test_a_variable_nothing_sets_is_refused_where_the_runner_renders_it_empty(dp, project, command):
    """Where dp differs on purpose (docs/recipes.md): no step runs, the error names file, step and line."""
    body = "".join(f"      {line}\n" for line in command.split("\n"))
    recipe = project / "recipe.yaml"
    recipe.write_text(CONTEXT + body)
    proc = dp("recipe", "run", recipe, "--json", cwd=project)
    assert proc.returncode == 2 and proc.stderr == ""
    assert json.loads(proc.stdout)["error"].startswith(f"invalid recipe {recipe}: step 's': 'command': line 2: "
                                                       "{{missing}} has no value"), proc.stdout


# --- tests/outside_in_tests.rs -----------------------------------------------------------------------

def test_heredoc_var_expansion_no_spurious_quotes(dp, project):
    result = outputs(dp, project, """
name: heredoc-fix-test
steps:
  - id: capture-via-heredoc
    command: |
      CAPTURED=$(cat <<EOFTEST
      {{task_description}}
      EOFTEST
      )
      echo "$CAPTURED"
""", "task_description=Fix the login bug")
    assert result == {"capture-via-heredoc": "Fix the login bug"}


def test_regular_command_var_still_protected(dp, project):
    result = outputs(dp, project, "name: r\nsteps:\n  - id: echo-var\n    command: echo {{message}}\n",
                     "message=hello world with spaces")
    assert result == {"echo-var": "hello world with spaces"}


def test_output_chaining_between_steps(dp, project):
    result = outputs(dp, project, """
name: chain
steps:
  - id: producer
    command: "echo hello-from-producer"
    output: produced_value
  - id: consumer
    command: "echo got-{{produced_value}}"
""")
    assert result["consumer"] == "got-hello-from-producer"


def test_context_flows_between_steps_and_set_overrides_defaults(dp, project):
    text = """
name: flow
context: {task: "build it", greeting: "hello"}
steps:
  - id: first
    command: "echo {{task}}"
    output: result1
  - id: second
    command: "echo previous was {{result1}}; echo {{greeting}}"
"""
    assert outputs(dp, project, text, "greeting=hi there")["second"] == "previous was build it\nhi there"


# --- where dp is stricter: refused, with the fix ------------------------------------------------

@pytest.mark.parametrize("command, program", [
    ("sh -c \"echo {{msg}}\"", "sh -c"),
    ("eval {{msg}}", "eval"),
    ("python3 -c '{{msg}}'", "python3 -c"),
])
def test_a_value_the_runner_would_run_as_code_is_refused(dp, project, command, program):
    recipe = project / "code.yaml"
    recipe.write_text(f"name: code\nsteps:\n  - id: s\n    command: {json.dumps(command)}\n")
    proc = dp("recipe", "run", recipe, "--set", "msg=$(touch pwned)", cwd=project)
    assert proc.returncode == 2 and not (project / "pwned").exists()
    assert f"would run as code in {program}" in proc.stderr and "values_as_code: true" in proc.stderr
