"""Every step type in the registry, through ``dp recipe run/validate/explain`` on real YAML files.

The cases are keyed by the registry itself (``dp.recipes.steps.REGISTRY``):
a step type added without a case here fails ``test_every_registered_type_has_a_case``.
"""

import json
import sys
from pathlib import Path

import pytest
from cli_assertions import assert_one_line_error

from dp.recipes.steps import REGISTRY

# One step of each type, and what it prints when it runs (the fake agent answers "agent-ran").
CASES = {
    "bash": ("  - id: b\n    command: echo bash-ran\n", "bash-ran"),
    "agent": ("  - id: a\n    prompt: say {{b}}\n", "agent-ran: say bash-ran"),
    "task": ("  - id: t\n    task: hello\n", "task-ran"),
    "recipe": ("  - id: r\n    recipe: child\n    context:\n      greeting: '{{b}}'\n",
               "child says bash-ran"),
}
PLANS = {
    "bash": "echo bash-ran",
    "agent": "agent (no agent definition): say ",
    "task": "task make hello (in {project})",
    "recipe": "recipe child ({project}/recipes/child.yaml)",
}

FAKE_AGENT = """#!{python}
import sys
prompt = sys.argv[2] if len(sys.argv) > 2 else sys.stdin.read()
print("agent-ran: " + prompt.split("\\n")[0])
"""


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    (root / "recipes").mkdir(parents=True)
    (root / "Makefile").write_text("hello:\n\t@echo task-ran\n")
    (root / "recipes" / "child.yaml").write_text(
        "name: child\ncontext:\n  greeting: hi\nsteps:\n"
        "  - id: inner\n    command: echo 'child says' {{greeting}}\n"
    )
    (root / "main.yaml").write_text(
        "name: main\nsteps:\n" + "".join(CASES[name][0] for name in ("bash", "agent", "task", "recipe"))
    )
    fake = tmp_path / "fake-agent"
    fake.write_text(FAKE_AGENT.format(python=sys.executable))
    fake.chmod(0o755)
    return root


def test_every_registered_type_has_a_case():
    assert set(CASES) == set(REGISTRY) == set(PLANS)


def test_each_type_runs_and_hands_its_output_on(dp, project, tmp_path):
    proc = dp("recipe", "run", "main.yaml", "--json", "--agent-binary", tmp_path / "fake-agent", cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = json.loads(proc.stdout)
    by_type = {step["type"]: step for step in result["steps"]}
    assert set(by_type) == set(REGISTRY)
    for name, (_, output) in CASES.items():
        assert (by_type[name]["status"], by_type[name]["output"]) == ("completed", output), name
    assert by_type["recipe"]["steps"][0]["id"] == "inner"
    assert result["context"]["greeting"] == "bash-ran"  # the child's final context comes back


def test_each_type_plans_a_dry_run_without_running(dp, project, tmp_path):
    log = tmp_path / "never"
    proc = dp("recipe", "run", "main.yaml", "--json", "--dry-run", "--agent-binary", log, cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    by_type = {step["type"]: step for step in json.loads(proc.stdout)["steps"]}
    for name, plan in PLANS.items():
        assert by_type[name]["status"] == "pending", name
        assert by_type[name]["rendered"].startswith(plan.format(project=project.resolve())), name
    assert not log.exists()


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_each_type_says_which_key_it_needs(dp, tmp_path, name):
    recipe = tmp_path / "needs.yaml"
    recipe.write_text(f"name: needs\nsteps:\n  - id: s\n    type: {name}\n")
    proc = dp("recipe", "validate", recipe)
    assert proc.returncode == 2
    article = "an" if name[0] in "aeiou" else "a"
    assert_one_line_error(proc, f"step 's': {article} {name} step needs '{REGISTRY[name].required}'")


def test_an_untyped_step_takes_its_type_from_its_keys(dp, project):
    (project / "untyped.yaml").write_text(
        "name: untyped\nsteps:\n"
        "  - id: p\n    prompt: hi\n"
        "  - id: t\n    task: hello\n"
        "  - id: r\n    recipe: child\n"
        "  - id: c\n    command: 'true'\n"
        "  - id: both\n    prompt: hi\n    recipe: child\n"  # a sub-recipe wins over an agent
    )
    proc = dp("recipe", "explain", "untyped.yaml", "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    types = {step["id"]: step["type"] for step in json.loads(proc.stdout)["steps"]}
    assert types == {"p": "agent", "t": "task", "r": "recipe", "c": "bash", "both": "recipe"}


def test_keys_of_another_type_are_ignored_with_a_warning(dp, tmp_path):
    recipe = tmp_path / "ignored.yaml"
    recipe.write_text("name: ignored\nsteps:\n  - id: s\n    type: bash\n    command: 'true'\n    prompt: hi\n    task: x\n")
    proc = dp("recipe", "validate", recipe)
    assert proc.returncode == 0, proc.stderr
    assert "step 's': 'prompt' is ignored on a bash step" in proc.stderr
    assert "step 's': 'task' is ignored on a bash step" in proc.stderr


def test_each_type_checks_its_own_values(dp, tmp_path):
    recipe = tmp_path / "own.yaml"
    recipe.write_text(
        "name: own\nsteps:\n"
        "  - id: b\n    command: sh -c \"echo {{x}}\"\n"
        "  - id: t\n    task: 'a \"b'\n"
        "  - id: r\n    recipe: ../elsewhere\n"
        "  - id: a\n    prompt: hi\n    auto_stage: maybe\n"
    )
    proc = dp("recipe", "validate", recipe)
    assert proc.returncode == 2
    assert all(line.startswith("dp: error: invalid recipe ") for line in proc.stderr.splitlines())
    message = proc.stderr
    assert "step 'b': 'command': line 1: {{x}} would run as code in sh -c" in message
    assert "step 't': 'task' cannot be split into words" in message
    assert "step 'r': 'recipe' must be a recipe name" in message
    assert "step 'a': 'auto_stage' must be true or false" in message


def test_a_failing_step_of_any_type_stops_the_recipe(dp, project, tmp_path):
    (project / "fails.yaml").write_text(
        "name: fails\nsteps:\n"
        "  - id: t\n    task: missing-target\n"
        "  - id: after\n    command: echo never\n"
    )
    proc = dp("recipe", "run", "fails.yaml", "--json", cwd=project)
    assert proc.returncode != 0
    steps = {step["id"]: step for step in json.loads(proc.stdout)["steps"]}
    assert steps["t"]["status"] == "failed"
    assert steps["after"]["status"] == "pending"
    assert steps["after"]["reason"] == "not run: the recipe stopped after 't' failed"


def test_the_audit_log_has_one_line_per_step_of_every_depth(dp, project, tmp_path):
    audit = tmp_path / "audit"
    proc = dp("recipe", "run", "main.yaml", "--audit-dir", audit, "--agent-binary", tmp_path / "fake-agent",
              "--quiet", cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    [log] = list(Path(audit).iterdir())
    assert oct(log.stat().st_mode & 0o777) == "0o600"
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["recipe"], e["depth"], e["step_id"], e["type"]) for e in entries] == [
        ("main", 0, "b", "bash"), ("main", 0, "a", "agent"), ("main", 0, "t", "task"),
        ("child", 1, "inner", "bash"), ("main", 0, "r", "recipe"),
    ]
    assert all(e["status"] == "completed" and "output" not in e for e in entries)
