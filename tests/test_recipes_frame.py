"""The execution frame and the step-type registry, at the edges test_recipes_runner.py leaves open.

What a run does when it is cancelled, how a parallel group's outputs merge
(in step order, whatever thread finished first), what a dry run says about
conditions, how a failed command is summed up in one line, where the
registry says an untyped step belongs, and the audit log's file.
"""

from __future__ import annotations

import json
import stat
import threading
from pathlib import Path

import pytest

from dp.errors import DpError
from dp.recipes import model, steps
from dp.recipes.audit import AuditLog
from dp.recipes.parser import parse_recipe_text
from dp.recipes.runner import Listener, RunOptions, run_recipe


def run_text(text: str, project: Path, overrides=None, **options):
    return run_recipe(parse_recipe_text(text), RunOptions(project, **options), overrides)


def by_id(result) -> dict:
    return {step.step_id: step for step in result.steps}


# -- the registry ----------------------------------------------------------------


@pytest.mark.parametrize("keys, implied", [
    ({"command": "x"}, "bash"),
    ({}, "bash"),
    ({"prompt": "p"}, "agent"),
    ({"agent": "reviewer"}, "agent"),
    ({"task": "test"}, "task"),
    ({"recipe": "child"}, "recipe"),
    # Keys of several types: the lowest precedence wins (recipe, then agent, then task).
    ({"recipe": "child", "prompt": "p", "task": "t"}, "recipe"),
    ({"prompt": "p", "task": "t", "command": "c"}, "task"),  # prompt with command: not agent (the runner's rule)
    ({"agent": "a", "task": "t", "command": "c"}, "agent"),
    ({"task": "t", "command": "c"}, "task"),
])
def test_an_untyped_step_takes_the_type_its_keys_imply(keys, implied):
    assert steps.implied_type(keys) == implied


def test_every_type_key_has_an_owner_and_each_type_its_required_key():
    owners = steps.own_keys()
    for name, step_type in steps.REGISTRY.items():
        assert step_type.name == name
        assert name in owners[step_type.required]
        assert all(key in step_type.keys for key in step_type.implied_by)
    assert steps.DEFAULT == "bash"
    assert owners["command"] == ("bash",) and owners["prompt"] == ("agent",)


# -- one step's outcome ----------------------------------------------------------------


def test_a_failed_command_is_summed_up_by_its_last_non_blank_line_cut_at_200(tmp_path):
    long_line = "E" * 300
    result = run_text(
        f"""
name: fail
steps:
  - id: a
    command: "echo first; echo {long_line}; echo; echo '   '; exit 5"
    continue_on_error: true
  - {{id: b, command: "echo got {{{{a}}}}"}}
""", tmp_path)
    step = by_id(result)["a"]
    assert step.status == "failed" and step.error == f"exit code 5: {'E' * 200}"
    # The failed step's output is still the step's variable: the next step sees it.
    assert by_id(result)["b"].output.startswith("got first")


def test_a_silent_failure_is_just_its_exit_code(tmp_path):
    result = run_text("name: f\nsteps: [{id: a, command: exit 9}]", tmp_path)
    assert by_id(result)["a"].error == "exit code 9"


def test_stderr_is_part_of_a_step_s_output(tmp_path):
    result = run_text("name: f\nsteps: [{id: a, command: 'echo out; echo err >&2'}]", tmp_path)
    assert sorted(by_id(result)["a"].output.splitlines()) == ["err", "out"]


def test_text_that_is_not_json_degrades_or_fails_as_asked(tmp_path):
    result = run_text(
        """
name: j
steps:
  - {id: loose, command: echo plain words, parse_json: true}
  - {id: strict, command: echo plain words, parse_json_required: true, continue_on_error: true}
  - {id: after, command: "echo {{loose}}"}
""", tmp_path)
    steps_ = by_id(result)
    assert steps_["loose"].status == "degraded"
    assert steps_["loose"].reason == "output is not JSON; stored as text"
    assert steps_["strict"].status == "failed"
    assert steps_["strict"].error == "output is not JSON (parse_json_required)"
    assert steps_["after"].output == "plain words"
    assert result.success  # degraded is not failed, and the failure is tolerated


def test_a_working_dir_that_is_a_file_fails_the_step_before_it_runs(tmp_path):
    (tmp_path / "notes.txt").write_text("")
    result = run_text(
        "name: w\nsteps: [{id: a, working_dir: notes.txt, command: touch ran}]", tmp_path)
    assert by_id(result)["a"].error == "working_dir 'notes.txt' is not a directory"
    assert not (tmp_path / "ran").exists()


# -- order, groups and stopping ---------------------------------------------------------


def test_parallel_steps_see_the_context_from_before_the_group_and_merge_in_step_order(tmp_path):
    result = run_text(
        """
name: merge
context: {shared: before}
steps:
  - {id: slow, command: "sleep 0.3; echo slow saw {{shared}}", output: shared, parallel_group: g}
  - {id: fast, command: "echo fast saw {{shared}}", output: shared, parallel_group: g}
  - {id: after, command: "echo {{shared}}"}
""", tmp_path)
    steps_ = by_id(result)
    assert steps_["slow"].output == "slow saw before"
    assert steps_["fast"].output == "fast saw before"  # not its sibling's output
    # fast finished first, but the later step of the group wins, as if they ran in order.
    assert steps_["after"].output == "fast saw before"
    assert result.context["shared"] == "fast saw before"


def test_a_cancelled_run_runs_nothing_more(tmp_path):
    cancel = threading.Event()

    class CancelAfterFirst(Listener):
        def step_finished(self, result, depth):
            if result.step_id == "first":
                cancel.set()

    result = run_text(
        """
name: cancel
steps:
  - {id: first, command: echo one}
  - {id: second, command: touch second}
  - {id: g1, command: touch g1, parallel_group: g}
  - {id: g2, command: touch g2, parallel_group: g}
""", tmp_path, cancel=cancel, listener=CancelAfterFirst())
    steps_ = by_id(result)
    assert steps_["first"].status == "completed"
    for name in ("second", "g1", "g2"):
        assert steps_[name].status == "pending"
        assert steps_[name].reason == "not run: the run was interrupted"
        assert not (tmp_path / name).exists()


def test_a_dry_run_says_a_false_condition_may_be_due_to_unknown_outputs(tmp_path):
    result = run_text(
        """
name: dry
steps:
  - {id: probe, command: echo yes}
  - {id: gated, condition: "probe == 'yes'", command: echo go}
""", tmp_path, dry_run=True)
    gated = by_id(result)["gated"]
    assert gated.status == "skipped"
    assert gated.reason == "condition is false: probe == 'yes' (dry run: earlier steps' outputs are unknown)"
    assert by_id(result)["probe"].rendered == "echo yes"


def test_a_dry_run_goes_on_past_a_step_it_cannot_plan(tmp_path):
    result = run_text(
        """
name: dry
steps:
  - {id: lost, recipe: no-such-recipe}
  - {id: next, command: echo planned}
""", tmp_path, dry_run=True)
    steps_ = by_id(result)
    assert steps_["lost"].status == "failed" and "sub-recipe 'no-such-recipe' not found" in steps_["lost"].error
    assert steps_["next"].status == "pending" and steps_["next"].rendered == "echo planned"


def test_tags_excluded_name_only_the_excluded_ones(tmp_path):
    result = run_text(
        "name: t\nsteps: [{id: a, command: echo, when_tags: [slow, net, docs]}]", tmp_path,
        include_tags=["slow"], exclude_tags=["net", "docs"])
    assert by_id(result)["a"].reason == "tag docs, net excluded"


def test_the_step_limit_counts_steps_that_run_not_steps_skipped(tmp_path):
    result = run_text(
        """
name: limit
recursion: {max_total_steps: 2}
steps:
  - {id: a, command: 'true'}
  - {id: skipped, condition: 'false', command: 'true'}
  - {id: b, command: 'true'}
  - {id: c, command: touch c}
""", tmp_path)
    steps_ = by_id(result)
    assert [steps_[n].status for n in ("a", "skipped", "b", "c")] == ["completed", "skipped", "completed", "failed"]
    assert steps_["c"].error == ("total step limit reached: recipe runs may execute at most 2 steps "
                                 "(recursion.max_total_steps)")
    assert not (tmp_path / "c").exists()


def test_nested_sub_recipe_failures_name_the_path_and_the_child_s_last_output(tmp_path):
    recipes = tmp_path / "recipes"
    recipes.mkdir()
    (recipes / "outer.yaml").write_text(
        "name: outer\nsteps: [{id: say, command: echo outer says}, {id: deeper, recipe: inner}]")
    (recipes / "inner.yaml").write_text(
        "name: inner\nsteps: [{id: ok, command: echo fine}, {id: boom, command: 'echo bad >&2; exit 2'}]")
    result = run_text("name: top\nsteps: [{id: call, recipe: outer}]", tmp_path)
    call = by_id(result)["call"]
    assert call.error == "sub-recipe 'outer' failed at step 'deeper > boom': exit code 2: bad"
    assert [child.step_id for child in call.children] == ["say", "deeper"]
    assert [child.step_id for child in call.children[1].children] == ["ok", "boom"]
    assert result.context["say"] == "outer says"


# -- the audit log ------------------------------------------------------------------


def test_the_audit_log_is_private_and_named_safely(tmp_path):
    log = AuditLog(tmp_path / "audit", "../../etc/pass wd")
    log.close()
    assert log.path.parent == tmp_path / "audit"
    assert log.path.name.startswith("______etc_pass_wd_") and log.path.suffix == ".jsonl"
    assert stat.S_IMODE((tmp_path / "audit").stat().st_mode) == 0o700
    assert stat.S_IMODE(log.path.stat().st_mode) == 0o600


def test_two_runs_of_one_recipe_get_two_logs(tmp_path):
    first, second = AuditLog(tmp_path, "r"), AuditLog(tmp_path, "r")
    first.close()
    second.close()
    assert first.path != second.path


@pytest.mark.parametrize("make, message", [
    (lambda root: (root / "audit").write_text("a file"), "audit log directory {dir} is not a directory"),
    (lambda root: (root / "file").write_text("a file"), "cannot create audit log directory {dir}: Not a directory"),
])
def test_an_audit_directory_that_cannot_be_made_is_a_dp_error(tmp_path, make, message):
    make(tmp_path)
    directory = tmp_path / "audit" if (tmp_path / "audit").exists() else tmp_path / "file" / "audit"
    with pytest.raises(DpError) as caught:
        AuditLog(directory, "r")
    assert caught.value.message.startswith(message.format(dir=directory))


def test_an_audit_log_that_cannot_be_created_is_a_dp_error():
    with pytest.raises(DpError, match=r"^cannot create audit log /proc/self/r_.*\.jsonl: "):
        AuditLog(Path("/proc/self"), "r")


def test_audit_lines_stay_whole_when_parallel_steps_finish_together(tmp_path):
    log = AuditLog(tmp_path, "par")
    results = []
    for n in range(200):
        result = model.StepResult(f"step-{n}", "bash", model.COMPLETED)
        result.output = "x" * n
        results.append(result)
    threads = [threading.Thread(target=log.write, args=("par", 0, result)) for result in results]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    log.close()
    entries = [json.loads(line) for line in log.path.read_text().splitlines()]
    assert sorted(e["output_len"] for e in entries) == list(range(200))
    assert all("output" not in entry for entry in entries)  # only its length: outputs may hold secrets
