"""``dp recipe`` end to end: the shipped examples, exit codes, output formats."""

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_assertions import assert_one_line_error

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "recipes"


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "project"
    path.mkdir()
    return path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_hello_example(dp, project):
    proc = dp("recipe", "run", EXAMPLES / "hello.yaml", "--quiet", cwd=project)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("Recipe 'hello': SUCCESS (") and lines[0].endswith("s)")
    assert [line.split()[:2] for line in lines[1:]] == [
        ["completed", "greet"], ["skipped", "shout"], ["completed", "words"], ["completed", "report"]]


def test_set_values_are_typed_and_inert(dp, project):
    proc = dp("recipe", "run", "hello", "-R", EXAMPLES, "--set", "who=$(touch pwned) `id`",
              "--set", "loud=true", "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    steps = {s["id"]: s for s in result["steps"]}
    assert steps["greet"]["output"] == "Hello, $(touch pwned) `id`!"
    assert steps["shout"]["status"] == "completed"
    assert steps["shout"]["output"] == "HELLO, $(TOUCH PWNED) `ID`!"
    assert steps["report"]["status"] == "skipped"
    assert result["context"]["loud"] is True
    assert list(project.iterdir()) == []


def test_ci_example_runs_its_parallel_group_and_summary(dp, project):
    """The example's results; that a group really runs at once is shown by a rendezvous in test_recipes_runner."""
    proc = dp("recipe", "run", EXAMPLES / "ci.yaml", "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["success"] is True
    assert [(s["id"], s["status"]) for s in result["steps"]] == [
        ("lint", "completed"), ("test", "completed"), ("build", "completed"),
        ("summary", "completed"), ("release-notes", "skipped")]
    assert result["steps"][3]["output"] == "12 tests passed; built debug"
    assert "[hook] starting lint" in proc.stderr


def test_include_tags(dp, project):
    proc = dp("recipe", "run", EXAMPLES / "ci.yaml", "--include-tags", "release,other",
              "--json", cwd=project)
    steps = {s["id"]: s["status"] for s in json.loads(proc.stdout)["steps"]}
    assert steps["release-notes"] == "completed"
    proc = dp("recipe", "run", EXAMPLES / "ci.yaml", "--include-tags", "release",
              "--exclude-tags", "release", "--json", cwd=project)
    assert {s["id"]: s["status"] for s in json.loads(proc.stdout)["steps"]}["release-notes"] == "skipped"


def test_release_example_extends_runs_task_and_sub_recipe(dp, project):
    write(project / "Makefile", "test:\n\t@echo project tests pass\n")
    proc = dp("recipe", "run", EXAMPLES / "release.yaml", "-C", project, "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    steps = {s["id"]: s for s in result["steps"]}
    assert list(steps)[:5] == ["lint", "test", "build", "summary", "release-notes"]
    assert steps["build"]["output"] == "built release"
    assert steps["project-tests"]["output"] == "project tests pass"
    assert steps["notes"]["steps"][0]["output"] == "## release-1 (release)"
    assert result["context"]["changelog_line"] == "## release-1 (release)"


def test_failure_exit_code_and_text(dp, project):
    recipe = write(project / "fail.yaml",
                   "name: fail\nsteps:\n  - {id: ok, command: echo}\n"
                   "  - {id: bad, command: 'seq -f \"line %g\" 12; exit 9'}\n"
                   "  - {id: later, command: touch later}\n")
    proc = dp("recipe", "run", recipe, "-q", cwd=project)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("Recipe 'fail': FAILED (")
    assert "failed" in lines[2] and "bad" in lines[2] and "exit code 9: line 12" in lines[2]
    assert lines[3:5] == ["      | … last 10 of 12 lines", "      | line 3"]
    assert lines[13] == "      | line 12"
    assert lines[14].split()[:2] == ["pending", "later"]
    assert not (project / "later").exists()


def test_invalid_recipe_exits_2_with_one_line_per_problem(dp, project):
    recipe = write(project / "bad.yaml", "name: bad\nsteps:\n  - {id: a}\n  - {id: a, command: x}\n")
    for command in ("run", "validate", "explain"):
        proc = dp("recipe", command, recipe, cwd=project)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert proc.stderr.splitlines() == [
            f"dp: error: invalid recipe {recipe}: step 'a': a bash step needs 'command'",
            f"dp: error: invalid recipe {recipe}: step 'a': duplicate step id (ids must be unique)",
        ]


def test_quoted_template_in_a_condition_fails_validation_with_the_fix(dp, project):
    recipe = write(project / "quoted.yaml",
                   "name: q\nsteps:\n  - id: a\n    command: echo\n    condition: \"'{{result}}' == 'ok'\"\n")
    proc = dp("recipe", "validate", recipe, cwd=project)
    assert proc.returncode == 2
    assert_one_line_error(proc, "conditions use variables directly, write result, not '{{result}}'")


def test_not_found_exits_3(dp, project):
    proc = dp("recipe", "run", "nosuch", cwd=project)
    assert proc.returncode == 3
    assert_one_line_error(proc, "recipe 'nosuch' not found")


@pytest.mark.parametrize("args,fragment", [
    (["--set", "novalue"], "expected KEY=VALUE"),
    (["--output-format", "yaml"], "--output-format must be text or json"),
    (["-C", "/definitely/missing"], "not a directory"),
])
def test_bad_options_exit_2(dp, project, args, fragment):
    proc = dp("recipe", "run", EXAMPLES / "hello.yaml", *args, cwd=project)
    assert proc.returncode == 2
    assert_one_line_error(proc, fragment)


def test_huge_and_bomb_files_are_refused(dp, project):
    big = write(project / "big.yaml", "name: big\nsteps: [{id: a, command: x}]\n#" + "x" * 1_100_000)
    assert_one_line_error(dp("recipe", "validate", big, cwd=project), "larger than 1 MB")
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    bomb = write(project / "bomb.yaml", "name: b\n" + "\n".join(levels) + "\nsteps: [{id: a, command: x}]\n")
    proc = dp("recipe", "run", bomb, cwd=project)
    assert proc.returncode == 2
    assert_one_line_error(proc, "alias bomb")


@pytest.mark.parametrize("where", ["context", "set-list", "step"])
def test_aliases_of_one_long_string_are_refused_before_they_render(dp, project, where):
    """20,000 aliases of a 900 KB string: 1 MB on disk, 18 GB once rendered (it took 14 GB of RAM)."""
    refs = ", ".join(["*big"] * 20_000)
    body = {
        "context": f"context:\n  big: &big \"{'x' * 900_000}\"\n  many: [{refs}]\nsteps:\n  - id: a\n    command: echo {{{{many}}}}\n",
        "set-list": f"x-big: &big \"{'x' * 900_000}\"\ncontext: {{many: [{refs}]}}\nsteps: [{{id: a, command: echo}}]\n",
        "step": f"steps:\n  - id: a\n    command: &big \"echo {'x' * 900_000}\"\n  - {{id: b, context: {{v: [{refs}]}}, command: echo}}\n",
    }[where]
    recipe = write(project / "wide.yaml", "name: wide\n" + body)
    for command in ("validate", "run"):
        proc = dp("recipe", command, recipe, cwd=project, timeout=30)
        assert proc.returncode == 2
        assert_one_line_error(proc, "MB of text")


def test_validate_reports_every_misspelt_key_at_once(dp, project):
    """Three misspelt keys: three lines, each with its "did you mean", exit 2 (one pass to fix them)."""
    recipe = write(project / "typo.yaml", "name: typo\ndescrption: x\nsteps:\n  - id: a\n"
                                          "    comand: echo hi\n    tmeout: 5\n")
    problems = [
        f"invalid recipe {recipe}: unknown key 'descrption' (did you mean 'description'?)",
        f"invalid recipe {recipe}: step 'a': unknown key 'comand' (did you mean 'command'?)",
        f"invalid recipe {recipe}: step 'a': unknown key 'tmeout' (did you mean 'timeout'?)",
    ]
    for args in (("validate", recipe), ("run", recipe)):
        proc = dp("recipe", *args, cwd=project)
        assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
        assert proc.stderr.splitlines() == [f"dp: error: {problem}" for problem in problems]
    # Under --json the same three, as JSON on stdout (where a program reading dp's output looks).
    proc = dp("recipe", "run", recipe, "--validate-only", "--json", cwd=project)
    assert proc.returncode == 2 and proc.stderr == ""
    assert json.loads(proc.stdout) == {"ok": False, "error": problems, "exit_code": 2}


def test_validate_prints_warnings_for_keys_like_no_known_one(dp, project):
    recipe = write(project / "odd.yaml",
                   "name: odd\nsteps:\n  - id: a\n    command: echo\n    x_newer_runner_field: true\n")
    proc = dp("recipe", "validate", recipe, cwd=project)
    assert proc.returncode == 0
    assert proc.stdout == "Recipe 'odd' is valid (1 step, 1 warning(s))\n"
    assert "unknown key 'x_newer_runner_field'" in proc.stderr
    proc = dp("recipe", "run", recipe, "--validate-only", "--json", cwd=project)
    data = json.loads(proc.stdout)
    assert data["valid"] is True and data["steps"] == 1 and len(data["warnings"]) == 1


def test_explain_prints_the_plan_without_running(dp, project):
    recipe = write(project / "plan.yaml", """
name: plan
version: 2
description: A plan.
steps:
  - {id: first, command: touch first-ran}
  - {id: second, condition: "x > 1", command: touch second-ran, parallel_group: g, timeout: 5}
  - {id: third, prompt: "Summarise {{first}}", agent: writer, parse_json: true}
""")
    for args in (["explain", recipe], ["run", recipe, "--explain"]):
        proc = dp("recipe", *args, cwd=project)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines()[0] == f"Recipe 'plan' v2: 3 steps ({recipe})"
        assert "  1. first [bash]" in proc.stdout
        assert "  2. second [bash]  (parallel group 'g'; timeout 5s)" in proc.stdout
        assert "       if: x > 1" in proc.stdout
        assert "       prompt: Summarise {{first}}" in proc.stdout
    data = json.loads(dp("recipe", "explain", recipe, "--json", cwd=project).stdout)
    assert [s["id"] for s in data["steps"]] == ["first", "second", "third"]
    assert data["steps"][2]["type"] == "agent"
    assert sorted(p.name for p in project.iterdir()) == ["plan.yaml"]


def test_dry_run_shows_and_leaves_no_trace(dp, project):
    recipe = write(project / "dry.yaml", """
name: dry
context: {name: "x; touch pwned"}
hooks: {pre_step: touch hook-ran}
steps:
  - {id: make, command: "touch {{name}}"}
""")
    proc = dp("recipe", "run", recipe, "--dry-run", "--audit-dir", project / "audit", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        proc.stdout.splitlines()[0],
        "  would run  make",
        "      | DP_VAR_name='x; touch pwned'",
        '      | touch "${DP_VAR_name}"',
    ]
    assert proc.stdout.startswith("Recipe 'dry': DRY RUN (")
    assert sorted(p.name for p in project.iterdir()) == ["dry.yaml"]


def test_audit_dir(dp, project):
    audit = project / "audit"
    proc = dp("recipe", "run", EXAMPLES / "hello.yaml", "--audit-dir", audit, cwd=project)
    assert proc.returncode == 0
    (log,) = audit.iterdir()
    assert f"audit log: {log}" in proc.stderr
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["step_id"] for e in entries] == ["greet", "shout", "words", "report"]
    assert entries[0]["output_len"] == len("Hello, world!")


def test_progress_on_stderr(dp, project):
    proc = dp("recipe", "run", EXAMPLES / "hello.yaml", "--progress", cwd=project)
    assert proc.returncode == 0
    assert "> greet [bash] running" in proc.stderr
    assert "  greet: completed" in proc.stderr
    assert "  shout: skipped" in proc.stderr
    assert proc.stdout.startswith("Recipe 'hello': SUCCESS")


def test_list(dp, project):
    write(project / "recipes" / "local.yaml", "name: local\nversion: 3\ndescription: Mine.\n"
          "steps: [{id: a, command: x}]")
    write(project / ".dp" / "recipes" / "hidden.yml", "name: hidden\nsteps: [{id: a, command: x}]")
    write(project / "recipes" / "broken.yaml", "name: broken\n")
    proc = dp("recipe", "list", "-R", EXAMPLES, cwd=project)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["NAME", "VERSION", "DESCRIPTION", "PATH"]
    names = [line.split()[0] for line in lines[1:]]
    assert names == ["broken", "changelog", "ci", "hello", "hidden", "local", "release", "review"]
    assert any(line.startswith("local") and " 3 " in line and "Mine." in line for line in lines)
    rows = json.loads(dp("recipe", "list", "--json", cwd=project).stdout)
    assert [(r["name"], r["valid"]) for r in rows] == [("broken", False), ("hidden", True),
                                                       ("local", True)]
    assert "'steps' is required" in rows[0]["error"] and rows[2]["error"] is None
    assert any(line.startswith("broken") and "INVALID: " in line for line in lines)


def test_sub_recipes_found_by_name_from_a_run_by_name(dp, project):
    write(project / "recipes" / "outer.yaml", "name: outer\nsteps: [{id: call, recipe: inner}]")
    write(project / ".dp" / "recipes" / "inner.yaml", "name: inner\nsteps: [{id: deep, command: echo deep}]")
    proc = dp("recipe", "run", "outer", "-q", cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [line.split()[:2] for line in proc.stdout.splitlines()[1:]] == [
        ["completed", "call"], ["completed", "deep"]]


def test_command_line_paths_are_read_from_the_cwd_directory(dp, project, tmp_path):
    """-C DIR is git's: dp runs as if started in DIR, so -R and --audit-dir name directories there."""
    write(project / "mine" / "where.yaml", "name: where\nsteps: [{id: a, command: pwd}]")
    proc = dp("recipe", "run", "where", "-R", "mine", "-C", "project", "--audit-dir", "logs",
              "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["steps"][0]["output"] == str(project.resolve())
    assert len(list((project / "logs").iterdir())) == 1 and not (tmp_path / "logs").exists()


FAKE_CLAUDE = """#!{python}
import json, os, sys
log = os.environ["FAKE_LOG"]
with open(log, "a") as handle:
    handle.write(json.dumps({{"argv": sys.argv[1:], "claudecode": os.environ.get("CLAUDECODE")}}) + "\\n")
calls = sum(1 for _ in open(log))
print("I think it is fine." if calls == 1 else '```json\\n{{"verdict": "ok", "issues": []}}\\n```')
"""


@pytest.mark.parametrize("via", ["option", "environment"])
def test_review_example_with_fake_agent(dp, project, tmp_path, via):
    fake = tmp_path / "fake-claude"
    fake.write_text(FAKE_CLAUDE.format(python=sys.executable))
    fake.chmod(0o755)
    agents = tmp_path / "agents"
    write(agents / "reviewer.md", "---\nname: reviewer\n---\nYou are a strict reviewer.\n")
    log = tmp_path / "calls.jsonl"
    args = ["--agent-binary", os.path.relpath(fake, project)] if via == "option" else []
    extra = {"FAKE_LOG": str(log), "CLAUDECODE": "1"}
    if via == "environment":
        extra["DP_AGENT_BINARY"] = str(fake)
    proc = dp("recipe", "run", EXAMPLES / "review.yaml", "-A", agents, "--set", "focus=security",
              *args, "--json", cwd=project, extra_env=extra)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = json.loads(proc.stdout)
    steps = {s["id"]: s for s in result["steps"]}
    assert steps["findings"]["status"] == "completed"
    assert result["context"]["findings"] == {"verdict": "ok", "issues": []}
    assert steps["verdict"]["status"] == "skipped"
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(calls) == 2
    assert "with a focus on security" in calls[0]["argv"][1]
    assert "You are a strict reviewer." in calls[0]["argv"]
    assert all(call["claudecode"] is None for call in calls)
    assert "asking the agent again" in proc.stderr


def test_help_has_examples(dp):
    for command in ([], ["run"], ["list"], ["validate"], ["explain"]):
        proc = dp("recipe", *command, "--help")
        assert proc.returncode == 0
        assert "Examples:" in proc.stdout and "dp recipe" in proc.stdout


def test_text_report_of_deeply_nested_sub_recipes(dp, project):
    """Short step ids nested deeper than their column is wide still print (no crash)."""
    write(project / "recipes" / "a.yaml", "name: a\nsteps: [{id: s, recipe: a}]")
    proc = dp("recipe", "run", "a", "-q", cwd=project)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("Recipe 'a': FAILED")
    assert len(lines) == 1 + 7
    assert lines[-1].split()[:2] == ["failed", "s"]
    assert "sub-recipe depth limit 6 reached" in lines[-1]


def test_ctrl_c_ends_the_steps_of_a_running_parallel_group(env, project):
    """SIGINT reaches only dp; the group's steps (own sessions) must be ended, not awaited."""
    write(project / "par.yaml", """
name: par
steps:
  - {id: a, command: 'echo $$ > a.pid; sleep 60', parallel_group: g}
  - {id: b, command: 'echo $$ > b.pid; sleep 60', parallel_group: g}
  - {id: after, command: 'touch after-ran'}
""")
    proc = subprocess.Popen([sys.executable, "-m", "dp.cli.main", "recipe", "run", "par.yaml"],
                            cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True,  # SIGINT as a terminal delivers it, even when pytest
                            # was started with it ignored (`pytest … &` in a shell without job control)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 20
        while not all((project / f"{n}.pid").is_file() and (project / f"{n}.pid").read_text()
                      for n in "ab"):
            assert time.monotonic() < deadline, "the parallel steps never started"
            time.sleep(0.05)
        pids = [int((project / f"{n}.pid").read_text()) for n in "ab"]
        os.kill(proc.pid, signal.SIGINT)
        proc.communicate(timeout=15)  # far less than the steps' 60 s
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode != 0
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert not (project / "after-ran").exists()


def test_text_mode_streams_each_step_with_progress_for_long_silent_steps(dp, tmp_path):
    recipe = tmp_path / "stream.yaml"
    recipe.write_text(
        "name: stream\nsteps:\n"
        "  - id: first\n    command: echo one; echo two\n"
        "  - id: slow\n    command: sleep 2.5; echo done\n"
        "  - id: p1\n    parallel_group: g\n    command: echo from-p1\n"
        "  - id: p2\n    parallel_group: g\n    command: echo from-p2\n"
    )
    proc = dp("recipe", "run", recipe, extra_env={"DP_PROGRESS_SECONDS": "1"})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:4] == ["==> first [bash]", "  | one", "  | two", lines[3]]
    assert lines[3].startswith("<== first: completed (")
    assert any(line.startswith("  … slow still running (") and "s elapsed)" in line for line in lines)
    assert "  | done" in lines and "  p1 | from-p1" in lines and "  p2 | from-p2" in lines
    summary = lines.index("Recipe 'stream': SUCCESS" + lines[-5][len("Recipe 'stream': SUCCESS"):])
    assert [line.split()[:2] for line in lines[summary + 1:]] == [
        ["completed", "first"], ["completed", "slow"], ["completed", "p1"], ["completed", "p2"]]
    quiet = dp("recipe", "run", recipe, "--quiet")
    assert quiet.stdout.startswith("Recipe 'stream': SUCCESS")


@pytest.mark.parametrize("command", [["recipe", "list"], ["recipe", "run", "hello"], ["recipe", "explain", "hello"]])
def test_a_recipe_dir_that_is_not_a_directory_is_one_error(dp, project, command):
    not_a_folder = write(project / "hello.yaml", "name: hello\nsteps:\n  - id: a\n    command: echo hi\n")
    for given in (not_a_folder, project / "missing"):
        proc = dp(*command, "-R", given, cwd=project)
        assert_one_line_error(proc, f"dp: error: -R {given}: not a directory")
        assert proc.returncode == 2
