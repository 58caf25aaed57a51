"""``dp mcp``'s project_actions (seed 003) and recipe (seed 001) tools, through the SDK client.

Real make, real git, real recipes in temporary projects.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from mcp_support import call, refusal, structured, with_session


def git(root, *args):
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def repo(tmp_path, env):
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    git(root, "config", "user.email", "dev@example.com")
    git(root, "config", "user.name", "Dev")
    (root / "Makefile").write_text(
        ".PHONY: test lint\n"
        "test: ## Run the tests\n\t@echo tests ran in $$(basename $$PWD)\n"
        "lint:\n\t@echo lint failed; exit 4\n"
        "build.txt:\n\t@echo built > build.txt\n"
    )
    (root / "app.py").write_text("print('hi')\n")
    return root


# --- project_actions ----------------------------------------------------------------------


def test_list_and_run_phony_targets(repo, env):
    async def body(client):
        return [await client.call_tool("project_actions", arguments) for arguments in (
            {"action": "list"},
            {"action": "run", "target": "test"},
            {"action": "run", "target": "lint"},
            {"action": "run", "target": "test", "dry_run": True},
        )]

    listed, ran, failed, dry = with_session(repo, env, body)
    assert structured(listed) == {
        "working_directory": str(repo),
        "targets": [{"name": "lint", "description": None}, {"name": "test", "description": "Run the tests"}],
    }
    ran = structured(ran)
    assert ran["command"] == "make test" and ran["exit_code"] == 0 and ran["working_directory"] == str(repo)
    assert ran["output"] == "tests ran in repo\n" and ran["timed_out"] is False and "duration_ms" in ran
    assert structured(failed)["exit_code"] == 2 and "lint failed" in structured(failed)["output"]
    assert structured(dry) == {"working_directory": str(repo), "command": "make test", "dry_run": True,
                               "would_run": "make test"}


@pytest.mark.parametrize(
    "target, fragment",
    [
        ("build.txt", "invalid make target"),  # not a .PHONY name, and not even a safe one
        ("test;rm -rf ~", "invalid make target"),
        ("-j", "invalid make target"),
        ("deploy", '"deploy" is not a .PHONY target of the Makefile'),
        ("", "run needs target"),
    ],
)
def test_run_refuses_anything_but_a_phony_target(repo, env, target, fragment):
    assert fragment in refusal(call(repo, env, "project_actions", {"action": "run", "target": target}))
    assert not (repo / "build.txt").exists()


def test_add_and_commit_confined_to_the_working_directory(repo, env, tmp_path):
    (tmp_path / "outside.txt").write_text("secret\n")
    (repo / "leak").symlink_to(tmp_path / "outside.txt")

    async def body(client):
        return [await client.call_tool("project_actions", arguments) for arguments in (
            {"action": "add", "paths": ["../outside.txt"]},
            {"action": "add", "paths": ["leak"]},
            {"action": "add", "paths": ["app.py", "Makefile"], "dry_run": True},
            {"action": "add", "paths": ["app.py", "Makefile"]},
            {"action": "commit", "message": "Add the app\n\nWith a body; $(touch pwned) stays text.", "dry_run": True},
            {"action": "commit", "message": "Add the app\n\nWith a body; $(touch pwned) stays text."},
        )]

    outside, leak, dry_add, added, dry_commit, committed = with_session(repo, env, body)
    assert "is outside the working directory" in refusal(outside)
    assert "through a symlink" in refusal(leak)
    assert structured(dry_add)["would_run"] == "git --literal-pathspecs add -- app.py Makefile"
    assert structured(added)["exit_code"] == 0
    assert "git commit --file=- <<'DP_STDIN'" in structured(dry_commit)["would_run"]
    assert structured(committed)["exit_code"] == 0
    assert git(repo, "log", "-1", "--format=%B") == "Add the app\n\nWith a body; $(touch pwned) stays text.\n\n"
    assert git(repo, "show", "--name-only", "--format=").split() == ["Makefile", "app.py"]
    assert not (repo / "pwned").exists()


def test_commit_size_limit_and_git_failure_hint(repo, env, tmp_path):
    over = refusal(call(repo, {**env, "DP_MAX_COMMIT_SIZE": "10"}, "project_actions",
                        {"action": "commit", "message": "x" * 11}))
    assert "11 bytes, over the 10-byte limit" in over
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "notes.txt").write_text("n\n")
    result = structured(call(plain, env, "project_actions", {"action": "add", "paths": ["notes.txt"]}))
    assert result["exit_code"] == 128 and "not a git repository" in result["output"]
    assert result["hint"] == (f"hint: {plain} is not inside a git repository; run `git init` there, "
                              "or pass working_directory with the repository you meant")


def test_generate_a_makefile(tmp_path, env, repo):
    fresh = tmp_path / "fresh"
    fresh.mkdir()

    async def body(client):
        return [await client.call_tool("project_actions", arguments) for arguments in (
            {"action": "generate"},
            {"action": "generate", "language": "cobol"},
            {"action": "generate", "language": "rust", "dry_run": True},
            {"action": "generate", "language": "rust"},
            {"action": "list"},
            {"action": "generate", "language": "go", "working_directory": str(fresh)},
        )]

    missing, wrong, dry, generated, listed, existing = with_session(fresh, env, body)
    for result in (missing, wrong):
        assert "generate needs language, exactly one of python, rust, go, nodejs" in refusal(result)
    assert "\tcargo build\n" in structured(dry)["content"] and structured(dry)["dry_run"] is True
    assert structured(generated)["targets"] == ["default", "build", "fix", "format", "lint", "test"]
    assert (fresh / "Makefile").read_text() == structured(dry)["content"]
    assert [target["name"] for target in structured(listed)["targets"]] == [
        "build", "default", "fix", "format", "lint", "test"]
    assert "already exists" in refusal(existing)


def test_working_directory_checks(tmp_path, env, repo):
    """Inside the project, the directory must still be one dp may act in; outside it, nothing is."""
    locked = repo / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    (repo / "etc-link").symlink_to("/etc")
    try:
        cases = {
            "/": f"working_directory / leads outside the project root {repo}",
            "/etc": f"working_directory /etc leads outside the project root {repo}",
            "etc-link": f"working_directory etc-link leads outside the project root {repo}",
            str(tmp_path): f"working_directory {tmp_path} leads outside the project root {repo}",
            "locked": "it is not writable by its owner",
            "missing": "working_directory missing: no such directory in the project",
        }
        if os.geteuid() == 0:
            (repo / "foreign").mkdir()
            os.chown(repo / "foreign", 65534, 65534)
            cases["foreign"] = "it is owned by uid 65534, not you"

        async def body(client):
            return {where: await client.call_tool("project_actions", {"action": "list", "working_directory": where})
                    for where in cases}

        for where, result in with_session(repo, env, body).items():
            assert cases[where] in refusal(result), where
    finally:
        locked.chmod(0o755)


# --- recipe (seed 001) --------------------------------------------------------------------------

RECIPE = """\
name: greet
context:
  who: world
steps:
  - id: hello
    command: echo Hello {{who}}
  - id: count
    command: printf '%s' {{hello}} | wc -w | tr -d ' '
"""

AGENT_RECIPE = """\
name: ask
steps:
  - id: question
    prompt: Say hi
"""


@pytest.fixture
def recipes_project(tmp_path):
    root = tmp_path / "proj"
    (root / "recipes").mkdir(parents=True)
    (root / "recipes" / "greet.yaml").write_text(RECIPE)
    (root / "recipes" / "ask.yaml").write_text(AGENT_RECIPE)
    (root / "recipes" / "broken.yaml").write_text("name: broken\nsteps:\n  - id: b\n    comand: echo\n")
    return root


def test_recipe_list_validate_and_run(recipes_project, env, tmp_path):
    (tmp_path / "elsewhere.yaml").write_text(RECIPE)

    async def body(client):
        return [await client.call_tool("recipe", arguments) for arguments in (
            {"action": "list"},
            {"action": "validate", "recipe": "greet"},
            {"action": "validate", "recipe": "broken"},
            {"action": "run", "recipe": "greet", "set": {"who": "$(touch pwned) Ada"}},
            {"action": "run", "recipe": "greet", "dry_run": True},
            {"action": "run", "recipe": str(tmp_path / "elsewhere.yaml")},
            {"action": "run"},
        )]

    listed, valid, broken, ran, dry, outside, nameless = with_session(recipes_project, env, body)
    assert [row["name"] for row in structured(listed)["recipes"]] == ["ask", "broken", "greet"]
    assert structured(valid)["valid"] is True and structured(valid)["steps"] == 2
    assert "step 'b': unknown key 'comand' (did you mean 'command'?)" in refusal(broken)
    result = structured(ran)
    assert result["recipe"] == "greet" and result["success"] is True
    assert [(step["id"], step["status"], step["output"]) for step in result["steps"]] == [
        ("hello", "completed", "Hello $(touch pwned) Ada"), ("count", "completed", "4")]
    assert not (recipes_project / "pwned").exists()
    assert structured(dry)["dry_run"] is True and structured(dry)["steps"][0]["status"] == "pending"
    assert "is outside the project" in refusal(outside)
    assert "run needs recipe" in refusal(nameless)


def test_agent_steps_only_with_allow_agent_steps(recipes_project, env, tmp_path):
    fake = tmp_path / "fake-claude"
    fake.write_text(f"#!{sys.executable}\nimport sys\nprint('hi from the agent')\n")
    fake.chmod(0o755)
    env = {**env, "DP_AGENT_BINARY": str(fake)}
    off = structured(call(recipes_project, env, "recipe", {"action": "run", "recipe": "ask"}))
    assert off["success"] is False
    assert "agent steps are off in this MCP server" in off["steps"][0]["error"]
    on = structured(call(recipes_project, env, "recipe", {"action": "run", "recipe": "ask"}, "--allow-agent-steps"))
    assert on["success"] is True and on["steps"][0]["output"] == "hi from the agent"
