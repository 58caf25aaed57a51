"""Recipe parsing: structure, typo suggestions, limits, extends, --set typing."""

import json
import re
import time
from pathlib import Path

import pytest

from dp.hook import HOOK_TIMEOUT_SECONDS
from dp.recipes import model
from dp.recipes.parser import RecipeError, load_recipe, parse_assignment, parse_recipe_text, resolve_recipe_argument

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "recipes"


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text)
    return path


def invalid(text: str) -> str:
    with pytest.raises(RecipeError) as caught:
        parse_recipe_text(text, "r.yaml")
    assert caught.value.exit_code == 2
    return caught.value.message


def test_minimal_recipe_and_type_inference():
    recipe = parse_recipe_text(
        """
name: demo
steps:
  - {id: a, command: echo hi}
  - {id: b, prompt: summarise}
  - {id: c, agent: reviewer, prompt: review}
  - {id: d, recipe: other}
  - {id: e, task: test}
  - {id: f, type: bash, command: "true"}
"""
    )
    assert recipe.name == "demo"
    assert [s.type for s in recipe.steps] == ["bash", "agent", "agent", "recipe", "task", "bash"]
    assert recipe.max_depth == 6 and recipe.max_total_steps == 200
    assert recipe.warnings == []


@pytest.mark.parametrize("text,fragment", [
    ("steps: [{id: a, command: x}]", "'name' is required"),
    ("name: ''\nsteps: [{id: a, command: x}]", "'name' is required"),
    ("name: x", "'steps' is required"),
    ("name: x\nsteps: []", "'steps' is required"),
    ("name: x\nsteps: [{command: x}]", "step #1: 'id' is required"),
    ("name: x\nsteps: [{id: 'bad id', command: x}]", "step #1: 'id' \"bad id\" is not valid: use a name"),
    ("name: x\nsteps: [{id: 3, command: x}]", "step #1: 'id' 3 is not valid"),
    ("name: x\nsteps: [{id: a, command: x}, {id: a, command: y}]", "step 'a': duplicate step id"),
    ("name: x\nsteps: [{id: build}]", "step 'build': a bash step needs 'command'"),
    ("name: x\nsteps: [{id: ask, agent: reviewer}]", "step 'ask': an agent step needs 'prompt'"),
    ("name: x\nsteps: [{id: t, type: task}]", "step 't': a task step needs 'task'"),
    ("name: x\nsteps: [{id: a, type: shell, command: x}]", "unknown type 'shell'"),
    ("name: x\nsteps: [{id: a, type: bsh, command: x}]", "did you mean 'bash'?"),
    ("name: x\nsteps: [{id: a, command: x, timeout: -1}]", "'timeout' must be"),
    ("name: x\nsteps: [{id: a, command: x, timeout: yes}]", "'timeout' must be"),
    ("name: x\nsteps: [{id: a, command: x, continue_on_error: 'no'}]", "must be true or false"),
    ("name: x\nsteps: [{id: a, command: x, condition: 'a =='}]", "step 'a': bad condition"),
    ("name: x\nsteps: [{id: a, command: x, condition: '{{a}} == 1'}]", "not '{{count}} > 1'"),
    ("name: x\nsteps: [{id: a, command: [x]}]", "'command' must be non-empty text"),
    ("name: x\nsteps: [{id: a, command: x, output: 'a b'}]", "'output' must be a variable name"),
    ("name: x\nsteps: [{id: a, command: x, when_tags: [1]}]", "'when_tags' must be a list"),
    ("name: x\nsteps: [{id: a, recipe: ../etc/passwd}]", "'recipe' must be a recipe name"),
    ("name: x\nsteps: [{id: a, task: \"test 'open\"}]", "'task' cannot be split"),
    ("name: x\nsteps: [{id: a, command: 'cat <<{{x}}'}]", "heredoc delimiter"),
    ("name: x\ncontext: [1]\nsteps: [{id: a, command: x}]", "'context' must be a mapping"),
    ("name: x\nrecursion: {max_depth: 0}\nsteps: [{id: a, command: x}]", "positive integer"),
    ("name: x\nhooks: {pre_step: [x]}\nsteps: [{id: a, command: x}]", "'hooks.pre_step'"),
    ("name: x\nsteps: [{id: a, command: x}]\nname: y", "duplicate key 'name'"),
    ("name: x\nsteps: [{id: a, command: x, command: y}]", "duplicate key 'command'"),
    ("- just\n- a list", "a recipe is a YAML mapping"),
    ("name: x\nsteps: [{id: a, command: echo a: b}]", "invalid YAML"),
    ("name: [unclosed", "invalid YAML"),
    ("name: x\ncontext: {b: !!binary aGk=}\nsteps: [{id: a, command: x}]", "not supported"),
    ("name: x\ncontext: {s: !!set {a: null}}\nsteps: [{id: a, command: x}]", "not supported"),
    ("name: x\ncontext: {o: !!python/object:os.system {}}\nsteps: [{id: a, command: x}]",
     "invalid YAML"),
])

def test_structural_errors(text, fragment):
    assert fragment in invalid(text)


def test_dates_stay_text():
    recipe = parse_recipe_text("name: x\ncontext: {day: 2024-01-31}\nsteps: [{id: a, command: x}]")
    assert recipe.context == {"day": "2024-01-31"}


def test_all_problems_reported_at_once_one_line_each():
    message = invalid("name: x\nsteps: [{id: a}, {id: b, prompt: p, timeout: 0}]")
    assert message.splitlines() == [
        "invalid recipe r.yaml: step 'a': a bash step needs 'command'",
        "invalid recipe r.yaml: step 'b': 'timeout' must be a number of seconds, above 0 and at most 86400",
    ]


def test_misspelt_keys_are_all_reported_at_once_and_unknown_ones_warn():
    text = """
name: typos
descripton: oops
hooks: {pre_stpe: "echo"}
steps:
  - id: a
    comand: echo hi
    command: echo ok
    paralel_group: g
    zzzzzz: 1
"""
    with pytest.raises(RecipeError) as caught:
        parse_recipe_text(text)
    assert caught.value.exit_code == 2
    assert str(caught.value).splitlines() == [
        "invalid recipe <recipe>: unknown key 'descripton' (did you mean 'description'?)",
        "invalid recipe <recipe>: unknown key 'hooks.pre_stpe' (did you mean 'pre_step'?)",
        "invalid recipe <recipe>: step 'a': unknown key 'comand' (did you mean 'command'?)",
        "invalid recipe <recipe>: step 'a': unknown key 'paralel_group' (did you mean 'parallel_group'?)",
    ]
    recipe = parse_recipe_text("name: t\nsteps:\n  - id: a\n    command: echo\n    zzzzzz: 1\n")
    assert [w for w in recipe.warnings if w.endswith("unknown key 'zzzzzz'")]


def test_misspelt_required_key_is_one_error_with_the_suggestion():
    assert invalid("name: x\nsteps: [{id: a, comand: ls}]") == \
        "invalid recipe r.yaml: step 'a': unknown key 'comand' (did you mean 'command'?)"
    assert invalid("name: x\nsteps: [{id: a, agent: r, promt: hi}]") == \
        "invalid recipe r.yaml: step 'a': unknown key 'promt' (did you mean 'prompt'?)"


def test_fields_for_other_step_types_warn():
    recipe = parse_recipe_text("name: x\nsteps: [{id: a, command: ls, model: opus}]")
    assert recipe.warnings == ["step 'a': 'model' is ignored on a bash step"]


def test_parallel_group_warnings():
    recipe = parse_recipe_text(
        """
name: x
steps:
  - {id: a, command: echo 1, parallel_group: g}
  - {id: b, command: "echo {{a}}", parallel_group: g}
  - {id: c, command: echo 3}
  - {id: d, command: echo 4, parallel_group: g}
"""
    )
    assert any("uses 'a' from the same parallel group 'g'" in w for w in recipe.warnings)
    assert any("step 'd': parallel_group 'g' is split" in w for w in recipe.warnings)


def test_file_over_one_megabyte_is_rejected(tmp_path):
    path = write(tmp_path, "big.yaml", "name: big\nsteps: [{id: a, command: x}]\n# "
                 + "x" * (1024 * 1024))
    with pytest.raises(RecipeError, match="larger than 1 MB") as caught:
        load_recipe(path)
    assert caught.value.exit_code == 2


def test_alias_bomb_is_rejected_quickly(tmp_path):
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 12):
        refs = ", ".join([f"*a{level - 1}"] * 10)
        lines.append(f"a{level}: &a{level} [{refs}]")
    bomb = "name: bomb\n" + "\n".join(lines) + "\nsteps: [{id: a, command: x}]\n"
    path = write(tmp_path, "bomb.yaml", bomb)
    started = time.monotonic()
    with pytest.raises(RecipeError, match=r"bomb\.yaml: YAML expands to more than .*alias bomb"):
        load_recipe(path)
    assert time.monotonic() - started < HOOK_TIMEOUT_SECONDS


def test_modest_aliases_are_fine():
    recipe = parse_recipe_text(
        """
name: anchors
context:
  shared: &shared {retries: 2}
  again: *shared
steps:
  - {id: a, command: echo, context: *shared, recipe: other}
"""
    )
    assert recipe.context["again"] == {"retries": 2}


def test_deep_nesting_is_rejected_as_it_is_read():
    """Stopped at the limit, not by Python's recursion limit (slow, and says nothing useful)."""
    with pytest.raises(RecipeError, match="<recipe>: YAML is nested more than 100 levels deep"):
        parse_recipe_text("name: x\ncontext: {v: " + "[" * 5000 + "]" * 5000 + "}\nsteps: [{id: a, command: x}]")


def test_extends_merges_parent_first_and_child_context_wins(tmp_path):
    write(tmp_path, "base.yaml", """
name: base
context: {target: debug, keep: kept}
hooks: {pre_step: echo base}
steps:
  - {id: lint, command: make lint}
""")
    child = write(tmp_path, "child.yaml", """
name: child
extends: base
context: {target: release}
steps:
  - {id: ship, command: make ship}
""")
    recipe = load_recipe(child)
    assert recipe.name == "child"
    assert [s.id for s in recipe.steps] == ["lint", "ship"]
    assert recipe.context == {"target": "release", "keep": "kept"}
    assert recipe.hooks == {"pre_step": "echo base"}


def test_extends_parent_found_in_search_roots(tmp_path):
    roots = tmp_path / "shared"
    roots.mkdir()
    write(roots, "base.yml", "name: base\nsteps: [{id: a, command: x}]")
    child = write(tmp_path, "child.yaml", "name: c\nextends: base\nsteps: [{id: b, command: y}]")
    assert [s.id for s in load_recipe(child, [roots]).steps] == ["a", "b"]


def test_extends_cycle_is_named(tmp_path):
    write(tmp_path, "a.yaml", "name: a\nextends: b\nsteps: [{id: s1, command: x}]")
    write(tmp_path, "b.yaml", "name: b\nextends: c\nsteps: [{id: s2, command: x}]")
    write(tmp_path, "c.yaml", "name: c\nextends: a\nsteps: [{id: s3, command: x}]")
    with pytest.raises(RecipeError) as caught:
        load_recipe(tmp_path / "a.yaml")
    assert "'extends' cycle: a.yaml -> b.yaml -> c.yaml -> a.yaml" in caught.value.message


def test_extends_self_is_a_cycle(tmp_path):
    path = write(tmp_path, "me.yaml", "name: me\nextends: me\nsteps: [{id: a, command: x}]")
    with pytest.raises(RecipeError, match="cycle: me.yaml -> me.yaml"):
        load_recipe(path)


@pytest.mark.parametrize("child,fragment", [
    ("name: d\nextends: base\nsteps: [{id: a, command: y}]", "step 'a': duplicate step id"),
    ("name: o\nextends: nowhere\nsteps: [{id: a, command: y}]", "parent recipe 'nowhere' not found"),
    ("name: e\nextends: ../x\nsteps: [{id: a, command: y}]", "must be a recipe name"),
])
def test_bad_extends(tmp_path, child, fragment):
    write(tmp_path, "base.yaml", "name: base\nsteps: [{id: a, command: x}]")
    with pytest.raises(RecipeError, match=re.escape(fragment)):
        load_recipe(write(tmp_path, "child.yaml", child))


def test_child_may_only_override_context(tmp_path):
    write(tmp_path, "base.yaml", "name: base\nsteps: [{id: a, command: x}]")
    child = write(tmp_path, "child.yaml", "name: c\nextends: base\ncontext: {v: 1}")
    assert [s.id for s in load_recipe(child).steps] == ["a"]


def test_resolve_argument_path_then_name(tmp_path):
    roots = [tmp_path / "recipes"]
    roots[0].mkdir()
    named = write(roots[0], "ci.yaml", "name: ci\nsteps: [{id: a, command: x}]")
    assert resolve_recipe_argument("ci", roots, tmp_path) == named.resolve()
    assert resolve_recipe_argument("recipes/ci.yaml", roots, tmp_path) == tmp_path / "recipes/ci.yaml"
    with pytest.raises(RecipeError) as caught:
        resolve_recipe_argument("nope", roots, tmp_path)
    assert caught.value.exit_code == 3
    with pytest.raises(RecipeError) as caught:
        resolve_recipe_argument("../../etc/passwd", roots, tmp_path)
    assert caught.value.exit_code == 3


def test_recipe_symlink_outside_root_is_not_found(tmp_path):
    outside = write(tmp_path, "outside.yaml", "name: o\nsteps: [{id: a, command: x}]")
    root = tmp_path / "recipes"
    root.mkdir()
    (root / "sneaky.yaml").symlink_to(outside)
    with pytest.raises(RecipeError) as caught:
        resolve_recipe_argument("sneaky", [root], tmp_path / "elsewhere")
    assert caught.value.exit_code == 3


@pytest.mark.parametrize("text,key,value", [
    ("flag=true", "flag", True),
    ("flag=false", "flag", False),
    ("n=42", "n", 42),
    ("n=-3", "n", -3),
    ("f=2.5", "f", 2.5),
    ("obj={\"a\": [1, 2]}", "obj", {"a": [1, 2]}),
    ("arr=[1, \"x\"]", "arr", [1, "x"]),
    ("s=hello world", "s", "hello world"),
    ("s=True", "s", "True"),
    ("s={not json", "s", "{not json"),
    ("eq=v=w", "eq", "v=w"),
    ("empty=", "empty", ""),
    ("ver=1.2.3", "ver", "1.2.3"),
    ("ver=1.10", "ver", "1.10"),
    ("zip=01234", "zip", "01234"),
    ("n=+5", "n", "+5"),
    ("e=1e3", "e", "1e3"),
    ("f=-0.5", "f", -0.5),
    ("zero=0", "zero", 0),
])
def test_set_values_are_typed(text, key, value):
    assert parse_assignment(text) == (key, value)


@pytest.mark.parametrize("text", ["novalue", "=x", "bad key=1", "a.b=1"])
def test_bad_set_is_an_error(text):
    with pytest.raises(RecipeError, match="KEY=VALUE"):
        parse_assignment(text)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_examples_are_valid_without_warnings(path):
    recipe = load_recipe(path, [EXAMPLES])
    assert recipe.steps and recipe.warnings == []
    assert all(isinstance(step, model.Step) for step in recipe.steps)


@pytest.mark.parametrize("command,tool", [
    ("eval echo {{x}}", "eval"),
    ("bash -c {{x}}", "bash -c"),
    ("sh  -c ls{{x}}", "sh -c"),
    ("trap {{x}} EXIT", "trap"),
    ("cd /; ssh host ls {{x}}", "ssh"),
])
def test_values_reaching_a_second_shell_are_refused_unless_the_step_opts_in(command, tool):
    message = invalid(f"name: x\nsteps: [{{id: a, command: {json.dumps(command)}}}]")
    assert message.startswith(f"invalid recipe r.yaml: step 'a': 'command': line 1: {{{{x}}}} would run as code in {tool}: ")
    assert message.endswith("(a value you wrote yourself may run there: values_as_code: true on the step)")
    recipe = parse_recipe_text(f"name: x\nsteps: [{{id: a, command: {json.dumps(command)}, values_as_code: true}}]")
    assert recipe.steps[0].values_as_code is True
    assert recipe.warnings == [f"step 'a': 'command': values_as_code: its values run as code where placed "
                               f"({tool}); give it only values you wrote"]


@pytest.mark.parametrize("command", [
    "sh -c 'echo \"$1\"' _ {{x}}", "echo {{x}}; bash -c 'ls'", "echo evaluate {{x}}", "eval true",
])
def test_values_passed_as_script_arguments_are_not_warned_about(command):
    recipe = parse_recipe_text(f"name: x\nsteps: [{{id: a, command: {json.dumps(command)}}}]")
    assert recipe.warnings == []
