"""Recipes as amplihack-recipe-runner 0.3.6 runs them (seed 001).

Each test restates one of the runner's own recipe or parser cases: the same
YAML must be accepted and give the same result under dp. Where dp is stricter
on purpose, the test says so and the README lists the rule with its reason
("Where dp is stricter than the recipe runner").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dp.process import ProcessResult
from dp.recipes import model
from dp.recipes.agents import AgentAdapter
from dp.recipes.parser import RecipeError, load_recipe, parse_recipe_text
from dp.recipes.runner import RunOptions, run_recipe


class Recording(AgentAdapter):
    """The runner's RecordingAdapter: answers by the first pattern found in the prompt."""

    def __init__(self, answers=(), fail_on=()):
        self.answers = list(answers)
        self.fail_on = list(fail_on)
        self.prompts = []

    def run(self, request):
        self.prompts.append(request.prompt)
        if any(pattern in request.prompt for pattern in self.fail_on):
            return ProcessResult(1, "adapter failed", False, False, 1)
        for pattern, answer in self.answers:
            if pattern in request.prompt:
                return ProcessResult(0, answer, False, False, 1)
        return ProcessResult(0, "default response", False, False, 1)


def run(text, project, adapter=None, overrides=None, **options):
    recipe = parse_recipe_text(text)
    return run_recipe(recipe, RunOptions(project, adapter=adapter or Recording(), **options), overrides)


def step(result, step_id):
    return next(s for s in result.steps if s.step_id == step_id)


# --- parser -------------------------------------------------------------------


def test_minimal_recipe_is_a_bash_step():
    recipe = parse_recipe_text('name: "test-recipe"\nsteps:\n  - id: "step-1"\n    command: "echo hello"\n')
    assert (recipe.name, [s.id for s in recipe.steps], recipe.steps[0].type) == ("test-recipe", ["step-1"], "bash")


@pytest.mark.parametrize(
    "body, expected",
    [
        ('agent: "amplihack:core:architect"\n    prompt: "Do something"', "agent"),
        ('prompt: "Only a prompt"', "agent"),
        ('type: "recipe"\n    recipe: "child-recipe"', "recipe"),
        ('recipe: "child-recipe"', "recipe"),
        ('type: bash\n    command: "echo x"\n    prompt: "ignored"', "bash"),
    ],
)
def test_step_type_is_inferred_or_explicit(body, expected):
    recipe = parse_recipe_text(f"name: t\nsteps:\n  - id: s\n    {body}\n")
    assert recipe.steps[0].type == expected


def test_every_metadata_and_step_field_is_accepted():
    recipe = parse_recipe_text(
        """
name: "full-metadata"
description: "A recipe with every metadata field populated"
version: "3.1.4"
author: "Test Suite"
tags: ["test", "comprehensive", "metadata"]
context: {key1: "val1", key2: 42, key3: true}
steps:
  - id: "full-step"
    type: agent
    agent: "amplihack:core:builder"
    prompt: "Do the thing"
    output: "result"
    condition: "true"
    parse_json: true
    mode: "plan"
    working_dir: "/tmp"
    timeout: 300
    auto_stage: false
"""
    )
    assert (recipe.name, recipe.version, recipe.author) == ("full-metadata", "3.1.4", "Test Suite")
    assert recipe.tags == ["test", "comprehensive", "metadata"]
    assert recipe.context == {"key1": "val1", "key2": 42, "key3": True}
    full = recipe.steps[0]
    assert (full.agent, full.output, full.condition, full.mode, full.timeout) == (
        "amplihack:core:builder", "result", "true", "plan", 300,
    )
    assert full.parse_json and full.auto_stage is False


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('name: "dup"\nsteps:\n  - {id: same, command: "echo 1"}\n  - {id: same, command: "echo 2"}\n', "duplicate step id"),
        ('name: ""\nsteps:\n  - {id: s, command: "echo"}\n', "'name' is required"),
        ("name: test\n", "'steps' is required"),
        ('name: test\nsteps:\n  - {id: "", command: "echo hello"}\n', "'id'"),
        ("", "a recipe is a YAML mapping"),
        ("   \n\n  ", "a recipe is a YAML mapping"),
    ],
)
def test_what_the_runner_rejects_dp_rejects(text, fragment):
    with pytest.raises(RecipeError, match=fragment):
        parse_recipe_text(text)


def test_empty_command_is_accepted_and_runs_as_a_no_op(tmp_path):
    result = run('name: t\nsteps:\n  - id: "s1"\n    command: ""\n', tmp_path)
    assert result.success and step(result, "s1").status == model.COMPLETED
    assert step(result, "s1").output == ""


def test_unknown_fields_are_named_and_misspelt_ones_refused_all_at_once():
    # the runner warns and runs (a misspelt 'tmeout' silently has no timeout); dp refuses, every typo in one go
    with pytest.raises(RecipeError) as caught:
        parse_recipe_text("name: t\ndescrption: oops\nsteps:\n  - id: s1\n    command: echo\n    tmeout: 5\n")
    assert [line.split(": ", 1)[1] for line in str(caught.value).splitlines()] == [
        "unknown key 'descrption' (did you mean 'description'?)",
        "step 's1': unknown key 'tmeout' (did you mean 'timeout'?)",
    ]
    recipe = parse_recipe_text("name: t\nsteps:\n  - id: s1\n    command: echo\n    future_field: 5\n")
    assert any("future_field" in warning for warning in recipe.warnings)


@pytest.mark.parametrize(
    "text, fragment",
    [
        # the runner parses these and warns; dp refuses them (README: "stricter on purpose")
        ('name: bad\nsteps:\n  - id: "agent-no-prompt"\n    agent: "amplihack:core:architect"\n', "needs 'prompt'"),
        ("name: t\nsteps:\n  - id: s1\n    comand: echo\n", "did you mean 'command'"),
        ("name: test\nsteps: []\n", "'steps' is required"),
    ],
)
def test_stricter_on_purpose(text, fragment):
    with pytest.raises(RecipeError, match=fragment):
        parse_recipe_text(text)


def test_name_with_special_characters():
    assert parse_recipe_text('name: "test-recipe_v2.1 (beta)"\nsteps: [{id: s, command: echo}]').name == (
        "test-recipe_v2.1 (beta)"
    )


def _write(directory: Path, name: str, text: str) -> Path:
    path = directory / f"{name}.yaml"
    path.write_text(text)
    return path


def test_extends_merges_steps_context_and_tags(tmp_path):
    _write(tmp_path, "parent", """
name: "parent"
description: "Parent recipe"
tags: ["base", "shared"]
context: {parent_var: "from-parent", shared_var: "parent-value"}
steps:
  - {id: "parent-step-1", command: "echo parent step 1"}
  - {id: "parent-step-2", command: "echo parent step 2"}
""")
    child = _write(tmp_path, "child", """
name: "child"
description: "Child recipe"
extends: "parent"
tags: ["child-tag", "shared"]
context: {child_var: "from-child", shared_var: "child-value"}
steps:
  - {id: "child-step-1", command: "echo child step 1"}
""")
    recipe = load_recipe(child, [tmp_path])
    assert (recipe.name, recipe.description) == ("child", "Child recipe")
    assert [s.id for s in recipe.steps] == ["parent-step-1", "parent-step-2", "child-step-1"]
    assert recipe.context == {"parent_var": "from-parent", "shared_var": "child-value", "child_var": "from-child"}
    assert set(recipe.tags) == {"base", "shared", "child-tag"}


def test_extends_three_levels_and_cycles(tmp_path):
    _write(tmp_path, "grand", "name: grand\ncontext: {layer: grand, grand_only: g}\nsteps: [{id: grand-step, command: echo}]")
    _write(tmp_path, "mid", "name: mid\nextends: grand\ncontext: {layer: mid, mid_only: m}\nsteps: [{id: mid-step, command: echo}]")
    leaf = _write(tmp_path, "leaf", "name: leaf\nextends: mid\ncontext: {layer: leaf}\nsteps: [{id: leaf-step, command: echo}]")
    recipe = load_recipe(leaf, [tmp_path])
    assert [s.id for s in recipe.steps] == ["grand-step", "mid-step", "leaf-step"]
    assert recipe.context == {"layer": "leaf", "grand_only": "g", "mid_only": "m"}
    _write(tmp_path, "b", "name: b\nextends: a\nsteps: [{id: b1, command: echo}]")
    cyclic = _write(tmp_path, "a", "name: a\nextends: b\nsteps: [{id: a1, command: echo}]")
    with pytest.raises(RecipeError, match="cycle"):
        load_recipe(cyclic, [tmp_path])
    orphan = _write(tmp_path, "orphan", "name: orphan\nextends: nonexistent-parent\nsteps: [{id: s, command: echo}]")
    with pytest.raises(RecipeError, match="not found"):
        load_recipe(orphan, [tmp_path])


# --- running ------------------------------------------------------------------


def test_steps_route_to_bash_or_agent(tmp_path):
    adapter = Recording([("Do it", "agent done")])
    result = run("name: t\nsteps:\n  - {id: b, command: echo bash done}\n  - {id: a, prompt: Do it}\n", tmp_path, adapter)
    assert (step(result, "b").output, step(result, "a").output) == ("bash done", "agent done")
    assert adapter.prompts and adapter.prompts[0].startswith("Do it")


def test_a_missing_variable_is_refused_where_the_runner_renders_it_empty(tmp_path):
    """dp differs on purpose (docs/recipes.md): an empty string in its place is how build/{{dirr}} becomes build/."""
    with pytest.raises(RecipeError, match=r"step 's1': 'command': line 1: \{\{undefined\}\} has no value"):
        run('name: t\nsteps:\n  - {id: s1, command: "echo prefix-{{undefined}}-suffix"}\n', tmp_path)
    result = run('name: t\nsteps:\n  - {id: s1, command: "echo prefix-{{ undefined | default(\'\') }}-suffix"}\n',
                 tmp_path)
    assert step(result, "s1").output == "prefix--suffix"


def test_context_accumulates_and_user_values_override_defaults(tmp_path):
    result = run(
        """
name: t
context: {setting: default-val}
steps:
  - {id: s1, command: "echo {{setting}}", output: out1}
  - {id: s2, command: "echo {{out1}}-2", output: out2}
  - {id: s3, command: "echo {{out2}}-3", output: out3}
""",
        tmp_path,
        overrides={"setting": "custom-val"},
    )
    assert result.success
    assert (result.context["out1"], result.context["out2"], result.context["out3"]) == (
        "custom-val", "custom-val-2", "custom-val-2-3",
    )


@pytest.mark.parametrize(
    "answer, expected",
    [
        ('{"key": "value"}', {"key": "value"}),
        ("Here is the analysis:\n```json\n{\"items\": [1,2,3]}\n```\nDone.", {"items": [1, 2, 3]}),
        ("Result:\n```\n{\"x\": 42}\n```", {"x": 42}),
        ('Some preamble text... {"found": true} ...and trailing text', {"found": True}),
        ("Got: [1, 2, 3] done", [1, 2, 3]),
        ('Here: {"outer": {"inner": [1, {"deep": true}]}} done', {"outer": {"inner": [1, {"deep": True}]}}),
        ('{"message": "He said \\"hello\\" to her"}', {"message": 'He said "hello" to her'}),
    ],
)
def test_json_is_found_by_every_strategy(tmp_path, answer, expected):
    result = run("name: t\nsteps:\n  - {id: s1, prompt: give, parse_json: true, output: data}\n", tmp_path,
                 Recording([("give", answer)]))
    assert result.success and result.context["data"] == expected


def test_json_retry_rescues_then_degrades_then_fails_when_required(tmp_path):
    rescued = run("name: t\nsteps:\n  - {id: s1, prompt: first attempt, parse_json: true, output: data}\n",
                  tmp_path, Recording([("IMPORTANT", '{"retry": "success"}')]))
    assert rescued.success and rescued.context["data"] == {"retry": "success"}
    degraded = run("name: t\nsteps:\n  - {id: s1, prompt: gibberish, parse_json: true, output: data}\n", tmp_path)
    assert degraded.success and step(degraded, "s1").status == model.DEGRADED
    assert step(degraded, "s1").output
    required = run(
        "name: t\nsteps:\n  - {id: s1, prompt: gibberish, parse_json: true, parse_json_required: true, output: data}\n",
        tmp_path,
    )
    assert not required.success and step(required, "s1").status == model.FAILED
    assert "parse_json" in step(required, "s1").error


def test_sub_recipes_merge_context_back_and_stop_at_the_depth_limit(tmp_path):
    _write(tmp_path, "greeter", 'name: greeter\nsteps:\n  - {id: greet, command: "echo hello {{who}}", output: greeting}\n')
    result = run(
        'name: parent\ncontext: {who: Alice}\nsteps:\n  - id: run-greet\n    recipe: greeter\n    context: {who: "{{who}}"}\n',
        tmp_path, recipe_dirs=[tmp_path],
    )
    assert result.success and result.context["greeting"] == "hello Alice"
    _write(tmp_path, "loop", "name: loop\nsteps:\n  - {id: recurse, recipe: loop}\n")
    looped = run("name: starter\nsteps:\n  - {id: start, recipe: loop}\n", tmp_path, recipe_dirs=[tmp_path])
    assert not looped.success
    missing = run("name: t\nsteps:\n  - {id: s1, recipe: does-not-exist}\n", tmp_path)
    assert not missing.success and "not found" in step(missing, "s1").error


def test_fail_fast_adapter_failure_and_condition_errors(tmp_path):
    result = run("name: t\nsteps:\n  - {id: a, command: 'exit 3'}\n  - {id: b, command: echo never}\n", tmp_path)
    assert not result.success and [s.step_id for s in result.steps if s.status == model.COMPLETED] == []
    failed = run("name: t\nsteps:\n  - {id: a, prompt: boom}\n", tmp_path, Recording(fail_on=["boom"]))
    assert not failed.success and step(failed, "a").status == model.FAILED
    bad_condition = run("name: t\nsteps:\n  - {id: a, command: echo x, condition: \"int('x') == 1\"}\n", tmp_path)
    assert not bad_condition.success and step(bad_condition, "a").status == model.FAILED


def test_dry_run_calls_nothing_and_parse_json_steps_still_give_json(tmp_path):
    adapter = Recording()
    result = run(
        "name: t\nsteps:\n  - {id: a, prompt: analyze, parse_json: true, output: data}\n  - {id: b, command: 'touch made'}\n",
        tmp_path, adapter, dry_run=True,
    )
    assert result.success and adapter.prompts == [] and not (tmp_path / "made").exists()
    json.dumps(result.to_dict())


@pytest.mark.parametrize(
    "value, rendered",
    [({"status": "ok"}, '{"status":"ok"}'), ([1, 2], "[1,2]"), (None, ""), (True, "true"), (42, "42")],
)
def test_values_render_like_the_runner(tmp_path, value, rendered):
    result = run("name: t\nsteps:\n  - {id: s, command: 'printf %s {{v}}'}\n", tmp_path, overrides={"v": value})
    assert step(result, "s").output == rendered


def test_unicode_and_multiline(tmp_path):
    result = run(
        'name: t\ncontext: {name: "Zoë ✓"}\nsteps:\n  - id: s\n    condition: "name == \'Zoë ✓\'"\n'
        '    command: |\n      echo line one {{name}}\n      echo line two\n',
        tmp_path,
    )
    assert step(result, "s").output == "line one Zoë ✓\nline two"
