"""Running recipes: outputs, parallel groups, timeouts, failures, sub-recipes, hooks, audit."""

import json
import stat
import subprocess
import time
from pathlib import Path

import pytest
from process_support import gone

from dp.recipes import model
from dp.recipes.parser import load_recipe, parse_recipe_text
from dp.recipes.runner import Listener, RunOptions, run_recipe


def run_text(text: str, project: Path, overrides=None, **options):
    recipe = parse_recipe_text(text)
    return run_recipe(recipe, RunOptions(project, **options), overrides)


def statuses(result):
    return {step.step_id: step.status for step in result.steps}


def step(result, step_id):
    return next(s for s in result.steps if s.step_id == step_id)


def test_outputs_are_trimmed_stored_and_parsed_as_json(tmp_path):
    result = run_text(
        """
name: flow
context: {who: world}
steps:
  - id: greet
    command: echo '  hello' {{who}} '  '
  - id: data
    command: |
      echo '{"count": 2, "names": ["a", "b"]}'
    output: info
  - id: use
    condition: info.count == 2 and 'b' in info.names and greet == 'hello world'
    command: echo {{info.names[1]}} from {{greet}}
""",
        tmp_path,
    )
    assert result.success
    assert statuses(result) == {"greet": "completed", "data": "completed", "use": "completed"}
    assert step(result, "greet").output == "hello world"
    assert result.context["info"] == {"count": 2, "names": ["a", "b"]}
    assert step(result, "use").output == "b from hello world"
    assert "data" not in result.context


def test_overrides_win_over_recipe_context(tmp_path):
    result = run_text("name: x\ncontext: {v: 1}\nsteps: [{id: a, command: 'echo {{v}}'}]",
                      tmp_path, overrides={"v": "set"})
    assert step(result, "a").output == "set"


def test_steps_run_in_the_project_directory_with_step_variables(tmp_path):
    result = run_text("name: where\nsteps: [{id: a, command: 'pwd; echo $DP_STEP_ID $DP_RECIPE'}]",
                      tmp_path)
    assert step(result, "a").output.splitlines() == [str(tmp_path.resolve()), "a where"]


def meet(me: str, others: list[str], where: Path) -> str:
    """A command that succeeds only while OTHERS run at the same time (a rendezvous, not a clock).

    It marks its own arrival, then waits for every other party's mark: run one after another,
    the first party waits out its bound and fails, however fast or loaded the machine is.
    """
    waits = " && ".join(f"[ -e {where}/{other} ]" for other in others)
    return (f"touch {where}/{me}; i=0; until {waits}; do i=$((i+1)); [ $i -gt 1200 ] && exit 7; sleep 0.05; done;"
            f" echo {me}")


def test_parallel_group_runs_concurrently(tmp_path):
    result = run_text(
        f"""
name: par
steps:
  - {{id: one, command: "{meet('one', ['two'], tmp_path)}", parallel_group: g}}
  - {{id: two, command: "{meet('two', ['one'], tmp_path)}", parallel_group: g}}
  - {{id: after, command: "echo {{{{one}}}} {{{{two}}}}"}}
""",
        tmp_path,
    )
    assert result.success, [s.error for s in result.steps]
    assert [s.step_id for s in result.steps] == ["one", "two", "after"]
    assert step(result, "after").output == "one two"


def test_every_step_type_can_join_a_parallel_group(tmp_path):
    recipes = tmp_path / "recipes"
    recipes.mkdir()
    (recipes / "nap.yaml").write_text(f"name: nap\nsteps: [{{id: z, command: \"{meet('b', ['a', 'c'], tmp_path)}\"}}]")
    (tmp_path / "Makefile").write_text(f"nap:\n\t@{meet('c', ['a', 'b'], tmp_path).replace('$', '$$')}\n")
    result = run_text(
        f"""
name: mixed
steps:
  - {{id: a, command: "{meet('a', ['b', 'c'], tmp_path)}", parallel_group: g}}
  - {{id: b, recipe: nap, parallel_group: g}}
  - {{id: c, task: nap, parallel_group: g}}
""",
        tmp_path,
    )
    assert result.success, [s.error for s in result.steps]
    assert step(result, "a").output == "a"
    assert step(result, "c").output == "c"
    assert result.context["z"] == "b"


def test_parallel_group_is_bounded(tmp_path):
    started = time.monotonic()
    result = run_text(
        """
name: bounded
steps:
  - {id: a, command: sleep 0.6, parallel_group: g}
  - {id: b, command: sleep 0.6, parallel_group: g}
""",
        tmp_path, max_parallel=1,
    )
    assert result.success
    assert time.monotonic() - started >= 1.2


def test_timeout_kills_the_whole_process_group(tmp_path):
    started = time.monotonic()
    result = run_text(
        """
name: slow
steps:
  - id: hang
    timeout: 1
    command: |
      sleep 60 &
      echo $! > child.pid
      echo started
      wait
""",
        tmp_path,
    )
    assert time.monotonic() - started < 10
    hang = step(result, "hang")
    assert hang.status == "failed"
    assert "timed out after 1s" in hang.error
    assert hang.output == "started"
    child = int((tmp_path / "child.pid").read_text())
    assert gone(child)


def test_fail_fast_stops_the_recipe(tmp_path):
    result = run_text(
        """
name: ff
steps:
  - {id: ok, command: echo fine}
  - {id: boom, command: echo broken >&2; exit 3}
  - {id: never, command: touch never-ran}
""",
        tmp_path,
    )
    assert not result.success
    assert statuses(result) == {"ok": "completed", "boom": "failed", "never": "pending"}
    assert step(result, "boom").error == "exit code 3: broken"
    assert "stopped after 'boom' failed" in step(result, "never").reason
    assert not (tmp_path / "never-ran").exists()
    assert result.context["boom"] == "broken"


def test_continue_on_error_keeps_going(tmp_path):
    result = run_text(
        """
name: coe
steps:
  - {id: flaky, command: exit 1, continue_on_error: true}
  - {id: next, command: echo still here}
""",
        tmp_path,
    )
    assert result.success
    assert statuses(result) == {"flaky": "failed", "next": "completed"}


def test_failure_in_a_parallel_group_lets_the_group_finish_then_stops(tmp_path):
    result = run_text(
        """
name: pg
steps:
  - {id: bad, command: exit 1, parallel_group: g}
  - {id: slow, command: sleep 0.3 && echo done, parallel_group: g}
  - {id: after, command: echo no}
""",
        tmp_path,
    )
    assert statuses(result)["bad"] == "failed"
    assert statuses(result)["after"] == "pending"
    assert not result.success


def test_condition_error_fails_the_step_closed(tmp_path):
    result = run_text(
        "name: c\nsteps: [{id: a, condition: \"int('x') == 1\", command: touch ran}]", tmp_path
    )
    assert step(result, "a").status == "failed"
    assert "condition error: int() cannot convert" in step(result, "a").error
    assert not (tmp_path / "ran").exists()


def test_false_condition_skips(tmp_path):
    result = run_text("name: c\nsteps: [{id: a, condition: missing, command: touch ran}]", tmp_path)
    assert step(result, "a").status == "skipped"
    assert step(result, "a").reason == "condition is false: missing"
    assert step(result, "a").error is None
    assert result.success and not (tmp_path / "ran").exists()


def test_tags(tmp_path):
    text = """
name: tags
steps:
  - {id: always, command: echo}
  - {id: deploy, command: echo, when_tags: [release]}
  - {id: docs, command: echo, when_tags: [docs, release]}
"""
    assert statuses(run_text(text, tmp_path)) == {
        "always": "completed", "deploy": "skipped", "docs": "skipped"}
    assert statuses(run_text(text, tmp_path, include_tags=["release"])) == {
        "always": "completed", "deploy": "completed", "docs": "completed"}
    assert statuses(run_text(text, tmp_path, include_tags=["release"], exclude_tags=["docs"])) == {
        "always": "completed", "deploy": "completed", "docs": "skipped"}


def test_parse_json_extracts_from_noisy_bash_output(tmp_path):
    result = run_text(
        """
name: pj
steps:
  - id: noisy
    parse_json: true
    command: |
      echo 'Here you go:'
      echo '```json'
      echo '{"ok": true}'
      echo '```'
  - id: plain
    parse_json: true
    command: echo no json here
  - id: strict
    parse_json_required: true
    command: echo still none
    continue_on_error: true
""",
        tmp_path,
    )
    assert result.context["noisy"] == {"ok": True}
    assert step(result, "plain").status == "degraded"
    assert result.context["plain"] == "no json here"
    assert step(result, "strict").status == "failed"
    assert "parse_json_required" in step(result, "strict").error
    assert result.success


def test_large_values_reach_bash_intact(tmp_path):
    big = "x" * 200_000 + "\n$(touch pwned)\n"
    result = run_text("name: big\nsteps: [{id: a, command: 'printf %s {{v}} | wc -c'}]",
                      tmp_path, overrides={"v": big})
    assert step(result, "a").output == str(len(big))
    assert not (tmp_path / "pwned").exists()


def test_working_dir_is_rendered_and_confined(tmp_path):
    (tmp_path / "sub").mkdir()
    result = run_text(
        """
name: wd
context: {dir: sub}
steps:
  - {id: inside, working_dir: "{{dir}}", command: pwd}
  - {id: outside, working_dir: "..", command: pwd, continue_on_error: true}
  - {id: absent, working_dir: nope, command: pwd, continue_on_error: true}
""",
        tmp_path,
    )
    assert step(result, "inside").output == str((tmp_path / "sub").resolve())
    assert "outside the project directory" in step(result, "outside").error
    assert "not a directory" in step(result, "absent").error


def test_task_step_runs_the_project_task(tmp_path):
    (tmp_path / "Makefile").write_text("test:\n\t@echo make-tests $(ARGS)\n")
    result = run_text("name: t\nsteps: [{id: t, task: test}]", tmp_path)
    assert step(result, "t").status == "completed"
    assert step(result, "t").output == "make-tests"


def test_task_step_through_npm(tmp_path):
    (tmp_path / "package.json").write_text(json.dumps(
        {"name": "p", "version": "1.0.0", "scripts": {"check": "echo js-check"}}))
    result = run_text("name: t\nsteps: [{id: t, task: 'check {{flag}}'}]", tmp_path,
                      overrides={"flag": "--fast"})
    assert step(result, "t").status == "completed", step(result, "t").error
    assert "js-check --fast" in step(result, "t").output


def test_unknown_task_fails_the_step(tmp_path):
    (tmp_path / "Makefile").write_text("build:\n\t@echo b\n")
    result = run_text("name: t\nsteps: [{id: t, task: deploy}]", tmp_path)
    assert step(result, "t").status == "failed"
    assert "deploy" in step(result, "t").error


# --- sub-recipes ----------------------------------------------------------------

def _recipes(tmp_path: Path, **files: str) -> Path:
    directory = tmp_path / "recipes"
    directory.mkdir(exist_ok=True)
    for name, text in files.items():
        (directory / f"{name}.yaml").write_text(text)
    return directory


def test_sub_recipe_context_flows_both_ways(tmp_path):
    _recipes(tmp_path, child="""
name: child
context: {suffix: default}
steps:
  - {id: made, command: 'echo {{base}}-{{suffix}}'}
  - id: extra
    command: |
      echo '{"n": 5}'
""")
    result = run_text(
        """
name: parent
context: {base: p}
steps:
  - {id: call, recipe: child, context: {suffix: "{{base}}x"}}
  - {id: after, command: 'echo {{made}} {{extra.n}} {{call.n}}'}
""",
        tmp_path,
    )
    assert result.success
    assert step(result, "after").output == "p-px 5 5"
    call = step(result, "call")
    assert [c.step_id for c in call.children] == ["made", "extra"]


def test_sub_recipe_context_overrides_keep_types_and_render_nested_strings(tmp_path):
    _recipes(tmp_path, child="""
name: child
steps:
  - {id: seen, command: 'echo {{files[1]}} {{cfg.label}} {{cfg.items[0]}} {{count}}'}
""")
    result = run_text(
        """
name: parent
context: {changed: [a.py, b.py], name: p}
steps:
  - id: call
    recipe: child
    context: {files: "{{changed}}", count: " {{ missing | default('') }} ", cfg: {label: "{{name}}-x", items: ["{{name}}"]}}
""",
        tmp_path,
    )
    assert result.success, step(result, "call").error
    assert step(result, "call").children[0].output == "b.py p-x p"
    assert result.context["files"] == ["a.py", "b.py"]
    assert result.context["count"] == "  "


def test_sub_recipe_failure_fails_the_step(tmp_path):
    _recipes(tmp_path, broken="name: broken\nsteps: [{id: inner, command: exit 4}]")
    result = run_text("name: p\nsteps: [{id: call, recipe: broken}]", tmp_path)
    assert step(result, "call").status == "failed"
    assert "sub-recipe 'broken' failed at step 'inner': exit code 4" in step(result, "call").error


def test_sub_recipe_depth_limit(tmp_path):
    _recipes(tmp_path, loop="name: loop\nsteps: [{id: again, recipe: loop}]")
    recipe = load_recipe(tmp_path / "recipes" / "loop.yaml")
    result = run_recipe(recipe, RunOptions(tmp_path))
    assert not result.success
    depth, node = 0, result.steps[0]
    while node.children:
        node, depth = node.children[0], depth + 1
    assert depth == 6
    assert "sub-recipe depth limit 6 reached: loop -> loop" in node.error
    assert "(recursion.max_depth)" in node.error
    # The top step names the path to the root cause once, not one wrapper per level.
    top = result.steps[0].error
    assert top.startswith("sub-recipe 'loop' failed at step 'again > again > again > again > "
                          "again > again': sub-recipe depth limit 6 reached")
    assert top.count("failed at step") == 1


def test_recipe_can_lower_its_depth_limit(tmp_path):
    _recipes(tmp_path, loop="name: loop\nrecursion: {max_depth: 2}\nsteps: [{id: again, recipe: loop}]")
    result = run_recipe(load_recipe(tmp_path / "recipes" / "loop.yaml"), RunOptions(tmp_path))
    assert "depth limit 2 reached" in json.dumps(result.to_dict())


def test_total_step_limit(tmp_path):
    _recipes(tmp_path, three="name: three\nsteps: [{id: a, command: 'true'}, {id: b, command: 'true'}, {id: c, command: 'true'}]")
    result = run_text(
        """
name: many
recursion: {max_total_steps: 5}
steps:
  - {id: one, recipe: three}
  - {id: two, recipe: three}
""",
        tmp_path,
    )
    assert not result.success
    assert "total step limit reached" in json.dumps(result.to_dict())


def test_sub_recipe_names_cannot_escape_the_search_roots(tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("name: o\nsteps: [{id: a, command: touch escaped}]")
    directory = _recipes(tmp_path)
    (directory / "link.yaml").symlink_to(outside)
    result = run_text("name: p\nsteps: [{id: s, recipe: link}]", tmp_path)
    assert step(result, "s").status == "failed"
    assert "sub-recipe 'link' not found" in step(result, "s").error
    assert not (tmp_path / "escaped").exists()


def test_recipe_dirs_come_first(tmp_path):
    _recipes(tmp_path, pick="name: default\nsteps: [{id: a, command: echo default}]")
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "pick.yml").write_text("name: extra\nsteps: [{id: a, command: echo extra}]")
    result = run_text("name: p\nsteps: [{id: s, recipe: pick}]", tmp_path, recipe_dirs=[extra])
    assert result.context["a"] == "extra"


# --- hooks and audit --------------------------------------------------------------

class Recorder(Listener):
    def __init__(self):
        self.events = []

    def step_started(self, step, depth):
        self.events.append(("start", step.id))

    def step_finished(self, result, depth):
        self.events.append(("end", result.step_id, result.status))

    def warning(self, message):
        self.events.append(("warning", message))

    def hook_output(self, hook, step_id, output):
        self.events.append(("hook", hook, step_id, output.strip()))


def test_hooks_are_rendered_and_their_failures_only_warn(tmp_path):
    recorder = Recorder()
    result = run_text(
        """
name: hooks
context: {tag: "$(touch pwned)"}
hooks:
  pre_step: echo pre {{step_id}} {{tag}}
  post_step: echo post {{step_id}}; exit 7
  on_error: echo error {{step_id}}":" {{step_error}}
steps:
  - {id: good, command: echo ok}
  - {id: bad, command: exit 2}
""",
        tmp_path, listener=recorder,
    )
    hooks = [event[1:] for event in recorder.events if event[0] == "hook"]
    assert hooks == [
        ("pre_step", "good", "pre good $(touch pwned)"),
        ("post_step", "good", "post good"),
        ("pre_step", "bad", "pre bad $(touch pwned)"),
        ("on_error", "bad", "error bad: exit code 2"),
    ]
    assert statuses(result) == {"good": "completed", "bad": "failed"}
    assert "hook post_step for step 'good' exited with 7" in step(result, "good").warnings
    assert ("warning", "hook post_step for step 'good' exited with 7") in recorder.events
    assert not (tmp_path / "pwned").exists()


def test_audit_log_has_one_private_line_per_step(tmp_path):
    audit = tmp_path / "audit"
    result = run_text(
        """
name: audited
steps:
  - {id: a, command: echo hello}
  - {id: b, condition: 'false', command: echo}
  - {id: c, command: exit 1}
  - {id: d, command: echo never}
""",
        tmp_path, audit_dir=audit,
    )
    files = list(audit.iterdir())
    assert len(files) == 1 and files[0] == result.audit_path
    assert files[0].name.startswith("audited_") and files[0].suffix == ".jsonl"
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    entries = [json.loads(line) for line in files[0].read_text().splitlines()]
    assert [(e["step_id"], e["status"], e["output_len"]) for e in entries] == [
        ("a", "completed", 5), ("b", "skipped", 0), ("c", "failed", 0), ("d", "pending", 0)]
    assert entries[2]["error"] == "exit code 1"
    assert all(isinstance(e["duration_ms"], int) and e["recipe"] == "audited" for e in entries)


# --- dry run ------------------------------------------------------------------------

def test_dry_run_renders_and_leaves_no_trace(tmp_path, monkeypatch):
    agent_log = tmp_path / "agent-called"
    fake = tmp_path / "fake-agent"
    fake.write_text(f"#!/bin/sh\ntouch {agent_log}\n")
    fake.chmod(0o755)
    _recipes(tmp_path, child="name: child\nsteps: [{id: inner, command: touch child-ran}]")
    (tmp_path / "Makefile").write_text("test:\n\ttouch task-ran\n")
    audit = tmp_path / "audit"
    from dp.recipes.agents import PromptCliAdapter

    result = run_text(
        """
name: dry
context: {file: made}
hooks: {pre_step: touch hook-ran}
steps:
  - {id: make, command: 'touch {{file}}'}
  - {id: ask, prompt: 'write {{file}}', working_dir: .}
  - {id: sub, recipe: child}
  - {id: t, task: test}
  - {id: never, condition: 'file == "other"', command: touch skipped-ran}
""",
        tmp_path, dry_run=True, audit_dir=audit, adapter=PromptCliAdapter(str(fake)),
    )
    before = sorted(p.name for p in tmp_path.iterdir())
    assert before == ["Makefile", "fake-agent", "recipes"]
    assert result.dry_run and result.success, [(s.step_id, s.error) for s in result.steps]
    assert statuses(result) == {"make": "pending", "ask": "pending", "sub": "pending",
                                "t": "pending", "never": "skipped"}
    assert step(result, "make").rendered == 'DP_VAR_file=made\ntouch "${DP_VAR_file}"'
    assert step(result, "ask").rendered == "agent (no agent definition): write made"
    assert step(result, "sub").children[0].rendered == "touch child-ran"
    assert step(result, "t").rendered.startswith("task make test")


# --- agent steps ----------------------------------------------------------------------

FAKE_AGENT = """#!{python}
import json, os, sys, pathlib
state = pathlib.Path({state!r})
number = len(list(state.glob("call-*.json"))) + 1
(state / f"call-{{number}}.json").write_text(json.dumps({{
    "argv": sys.argv[1:], "cwd": os.getcwd(),
    "claudecode": os.environ.get("CLAUDECODE"),
    "depth": os.environ.get("DP_RECIPE_SESSION_DEPTH"),
    "stdin": sys.stdin.read(),
}}))
reply = state / f"reply-{{number}}.txt"
reply = reply if reply.exists() else state / "reply.txt"
sys.stdout.write(reply.read_text())
if (state / "fail").exists():
    sys.exit(5)
"""


@pytest.fixture
def agent(tmp_path, monkeypatch):
    """A fake `claude` that records each call and answers from reply files."""
    import sys

    state = tmp_path / "agent-state"
    state.mkdir()
    (state / "reply.txt").write_text("default reply")
    binary = tmp_path / "bin" / "fake-claude"
    binary.parent.mkdir()
    binary.write_text(FAKE_AGENT.format(python=sys.executable, state=str(state)))
    binary.chmod(0o755)
    monkeypatch.setenv("CLAUDECODE", "1")
    monkeypatch.delenv("DP_RECIPE_SESSION_DEPTH", raising=False)

    class Agent:
        path = binary

        def reply(self, number, text):
            (state / f"reply-{number}.txt").write_text(text)

        def calls(self):
            return [json.loads((state / f"call-{n}.json").read_text())
                    for n in range(1, len(list(state.glob("call-*.json"))) + 1)]

        def fail(self):
            (state / "fail").write_text("")

    return Agent()


def run_agent_recipe(text, project, agent, **options):
    from dp.recipes.agents import PromptCliAdapter

    return run_text(text, project, adapter=PromptCliAdapter(str(agent.path)), **options)


def test_agent_step_with_definition(tmp_path, agent):
    agents_dir = tmp_path / ".claude" / "agents"
    (agents_dir / "team").mkdir(parents=True)
    (agents_dir / "team" / "reviewer.md").write_text(
        "---\nname: reviewer\nmodel: opus\n---\nYou review code carefully.\n")
    result = run_agent_recipe(
        """
name: ag
context: {topic: "$(touch pwned)"}
steps:
  - {id: review, agent: "team:reviewer", prompt: "Review {{topic}}", mode: plan}
""",
        tmp_path, agent,
    )
    assert result.success, step(result, "review").error
    assert step(result, "review").output == "default reply"
    (call,) = agent.calls()
    argv = call["argv"]
    assert argv[0] == "-p"
    assert argv[1].startswith("Review $(touch pwned)\n")
    assert "do not ask questions" in argv[1]
    assert argv[argv.index("--append-system-prompt") + 1] == "You review code carefully."
    assert argv[argv.index("--model") + 1] == "opus"
    assert argv[argv.index("--permission-mode") + 1] == "plan"
    assert call["claudecode"] is None
    assert call["depth"] == "1"
    assert Path(call["cwd"]).resolve() != tmp_path.resolve()
    assert not Path(call["cwd"]).exists()  # the scratch directory is cleaned up
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("value", ["--permission-mode=bypassPermissions", "x" * 120_000])
def test_prompts_that_cannot_be_an_argument_go_through_stdin(tmp_path, agent, value):
    """A prompt starting with '-' would be parsed as an option; a huge one exceeds argv limits."""
    from dp.recipes.agents import PromptCliAdapter

    result = run_text("name: ag\nsteps: [{id: a, prompt: '{{v}}'}]", tmp_path, {"v": value},
                      adapter=PromptCliAdapter(str(agent.path)))
    assert result.success, step(result, "a").error
    (call,) = agent.calls()
    assert call["argv"] == ["-p"]
    assert call["stdin"].startswith(value + "\n")


def test_agent_step_without_definition_and_with_working_dir(tmp_path, agent):
    result = run_agent_recipe(
        "name: ag\nsteps: [{id: a, prompt: hi, working_dir: ., model: sonnet}]", tmp_path, agent)
    assert result.success
    (call,) = agent.calls()
    assert "--append-system-prompt" not in call["argv"]
    assert Path(call["cwd"]).resolve() == tmp_path.resolve()


def test_extra_agent_dirs(tmp_path, agent):
    extra = tmp_path / "my-agents"
    extra.mkdir()
    (extra / "writer.md").write_text("Write well.")
    result = run_agent_recipe("name: ag\nsteps: [{id: a, agent: writer, prompt: go}]",
                              tmp_path, agent, agent_dirs=[extra])
    assert result.success
    assert "Write well." in agent.calls()[0]["argv"]


@pytest.mark.parametrize("reference,fragment", [
    ("nobody", "agent 'nobody' not found"),
    ("../etc/passwd", "is not valid"),
    ("a/b", "is not valid"),
    ("ns:", "is not valid"),
])
def test_unknown_or_unsafe_agent_fails_clearly(tmp_path, agent, reference, fragment):
    result = run_agent_recipe(
        f"name: ag\nsteps: [{{id: a, agent: '{reference}', prompt: hi}}]", tmp_path, agent)
    assert step(result, "a").status == "failed"
    assert fragment in step(result, "a").error
    assert agent.calls() == []


def test_agent_definition_symlink_outside_is_refused(tmp_path, agent):
    (tmp_path / "secret.md").write_text("secret")
    agents_dir = tmp_path / ".claude" / "agents"
    agents_dir.mkdir(parents=True)
    (agents_dir / "leak.md").symlink_to(tmp_path / "secret.md")
    result = run_agent_recipe("name: ag\nsteps: [{id: a, agent: leak, prompt: hi}]", tmp_path, agent)
    assert "agent 'leak' not found" in step(result, "a").error


def test_agent_json_retry_succeeds(tmp_path, agent):
    agent.reply(1, "Sure! I think it is fine.")
    agent.reply(2, 'Here:\n```json\n{"verdict": "ok"}\n```')
    result = run_agent_recipe(
        """
name: ag
steps:
  - {id: judge, prompt: judge it, parse_json: true}
  - {id: after, condition: "judge.verdict == 'ok'", command: echo accepted}
""",
        tmp_path, agent,
    )
    assert statuses(result) == {"judge": "completed", "after": "completed"}
    first, second = agent.calls()
    assert "JSON" not in first["argv"][1].split("---")[0]
    assert "could not be parsed as JSON" in second["argv"][1]
    assert result.context["judge"] == {"verdict": "ok"}


def test_agent_json_degraded_and_required(tmp_path, agent):
    agent.reply(1, "no json")
    agent.reply(2, "still no json")
    agent.reply(3, "nope")
    agent.reply(4, "nope again")
    result = run_agent_recipe(
        """
name: ag
steps:
  - {id: soft, prompt: a, parse_json: true}
  - {id: hard, prompt: b, parse_json_required: true}
""",
        tmp_path, agent,
    )
    assert statuses(result) == {"soft": "degraded", "hard": "failed"}
    assert result.context["soft"] == "still no json"
    assert len(agent.calls()) == 4
    assert not result.success


def test_agent_failure_fails_the_step(tmp_path, agent):
    agent.fail()
    result = run_agent_recipe("name: ag\nsteps: [{id: a, prompt: hi}]", tmp_path, agent)
    assert step(result, "a").status == "failed"
    assert step(result, "a").error == "exit code 5: default reply"


def test_session_depth_limit_stops_runaway_recursion(tmp_path, agent, monkeypatch):
    monkeypatch.setenv("DP_RECIPE_SESSION_DEPTH", "3")
    result = run_agent_recipe("name: ag\nsteps: [{id: a, prompt: hi}]", tmp_path, agent)
    assert "session depth limit reached" in step(result, "a").error
    assert agent.calls() == []


def test_missing_agent_binary_says_what_to_install(tmp_path):
    from dp.recipes.agents import PromptCliAdapter

    result = run_text("name: ag\nsteps: [{id: a, prompt: hi}]", tmp_path,
                      adapter=PromptCliAdapter("definitely-not-claude"))
    assert '"definitely-not-claude" not found on PATH' in step(result, "a").error


def _git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("auto_stage,expected", [(True, "A  made.txt"), (False, "?? made.txt")])
def test_auto_stage_after_agent_steps(tmp_path, agent, auto_stage, expected):
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q")
    agent.reply(1, "done")
    # The fake agent writes a file in its working directory, like a real one would.
    text = agent.path.read_text().replace("sys.stdout.write(", "pathlib.Path('made.txt').write_text('x'); sys.stdout.write(", 1)
    agent.path.write_text(text)
    result = run_agent_recipe("name: ag\nsteps: [{id: a, prompt: edit, working_dir: .}]",
                              project, agent, auto_stage=auto_stage)
    assert result.success
    assert _git(project, "status", "--porcelain").strip() == expected


def test_custom_adapter(tmp_path):
    from dp.process import ProcessResult
    from dp.recipes.agents import AgentAdapter

    class Echo(AgentAdapter):
        def __init__(self):
            self.requests = []

        def run(self, request):
            self.requests.append(request)
            return ProcessResult(0, f"[{request.prompt}]", False, False, 1)

    adapter = Echo()
    result = run_text("name: ag\ncontext: {x: 1}\nsteps: [{id: a, prompt: 'n={{x}}', timeout: 9}]",
                      tmp_path, adapter=adapter)
    assert step(result, "a").output == "[n=1]"
    assert adapter.requests[0].timeout == 9.0


def test_result_to_dict_is_json(tmp_path):
    result = run_text("name: j\nsteps: [{id: a, command: echo hi}]", tmp_path)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["recipe"] == "j" and data["success"] is True
    assert data["steps"][0]["id"] == "a" and data["steps"][0]["status"] == model.COMPLETED
    assert data["steps"][0]["output"] == "hi" and data["context"] == {"a": "hi"}
