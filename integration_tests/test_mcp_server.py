"""``dp mcp`` through the SDK's client over real stdio: the tool list, project_recipe (seed 000),
run_script (seed 002), tasks, and what every long run shares: timeouts that kill the process
tree, cancellation, bounded output and progress notifications."""

from __future__ import annotations

import json
import subprocess

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from mcp_support import (
    DP_BIN,
    INVALID_PARAMS,
    assert_dead_soon,
    call,
    kill_leftovers,
    refusal,
    structured,
    text,
    tree_script,
    wait_for_file,
    with_session,
    write_package,
)
from task_projects import make_repo

TOOLS = ["project_recipe", "run_script", "project_actions", "recipe", "tasks"]


@pytest.fixture
def env(env):
    return {**env, "npm_config_update_notifier": "false"}  # no "new npm available" notice in outputs


@pytest.fixture
def npm_project(tmp_path):
    root = make_repo(tmp_path / "app")
    return write_package(root, {
        "test": "node -e \"console.log('3 passed'); console.error('warned on stderr')\"",
        "build": "node -e \"console.log('built')\"",
        "fail": "node -e \"console.log('boom'); process.exit(3)\"",
    })


# --- the tool list -------------------------------------------------------------------


def test_lists_the_five_tools_within_the_token_budget(tmp_path, env):
    listing = with_session(tmp_path, env, lambda client: client.list_tools())
    assert [tool.name for tool in listing.tools] == TOOLS
    # What rides along in every model request: names, descriptions, schemas (and annotations).
    wire = [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in listing.tools]
    size = len(json.dumps(wire, separators=(",", ":")))
    assert size <= 8000, f"the tool list is {size} characters (≈{size // 4} tokens); the budget is 8,000"
    for tool in listing.tools:
        assert tool.description and tool.input_schema["type"] == "object"
    actions = next(tool for tool in listing.tools if tool.name == "project_actions")
    assert actions.annotations.destructive_hint is True
    recipe_tool = next(tool for tool in listing.tools if tool.name == "project_recipe")
    assert "refused, never guessed" in recipe_tool.description


# --- project_recipe (seed 000) ----------------------------------------------------------


def test_project_recipe_runs_the_task_with_the_projects_runner(npm_project, env):
    result = structured(call(npm_project, env, "project_recipe", {"op": "test"}))
    assert result["runner"] == "npm"
    assert result["command"] == "npm run test"
    assert "3 passed" in result["stdout"] and "warned on stderr" in result["stdout"]  # merged, as a PTY does
    assert result["stderr"] == ""
    assert result["exit_code"] == 0 and result["timed_out"] is False
    assert result["available_tasks"] == {"npm": ["build", "fail", "test"]}


def test_project_recipe_reports_a_failing_task_and_runs_in_cwd(npm_project, env):
    (npm_project / "Makefile").write_text("check:\n\t@echo checked in $$(basename $$PWD)\n")
    write_package(npm_project / "packages" / "web", {"lint": "node -e \"console.log('lint ok')\""})

    async def body(client):
        failed = await client.call_tool("project_recipe", {"op": "fail"})
        sub = await client.call_tool("project_recipe", {"op": "lint", "cwd": "packages/web"})
        make = await client.call_tool("project_recipe", {"op": "check"})
        return failed, sub, make

    failed, sub, make = with_session(npm_project, env, body)
    assert structured(failed)["exit_code"] == 3 and "boom" in structured(failed)["stdout"]
    assert structured(sub)["command"] == "npm run lint" and "lint ok" in structured(sub)["stdout"]
    assert structured(make)["runner"] == "make" and "checked in app" in structured(make)["stdout"]


@pytest.mark.parametrize(
    "arguments, fragment",
    [
        ({"op": ""}, "op must be a non-empty string"),
        ({"op": "   "}, "op must be a non-empty string"),
        ({}, "op must be a non-empty string"),
        ({"op": 7}, "op must be a non-empty string"),
        ({"op": "test", "cwd": ".."}, "cwd .. leads outside the project root"),
        ({"op": "test", "cwd": "/etc"}, "cwd /etc leads outside the project root"),
        # dp's decision over the seed's fallback: an unknown op is refused, not run by the first runner.
        ({"op": "tset"}, 'no task "tset" in this project; did you mean "test"?'),
        ({"op": "rm -rf ."}, 'no task "rm"'),
    ],
)
def test_project_recipe_invalid_params(npm_project, env, arguments, fragment):
    error = call(npm_project, env, "project_recipe", arguments)
    assert isinstance(error, MCPError) and error.code == INVALID_PARAMS
    assert fragment in error.message


def test_project_recipe_without_runners_is_invalid_params(tmp_path, env):
    empty = make_repo(tmp_path / "empty")
    error = call(empty, env, "project_recipe", {"op": "test"})
    assert isinstance(error, MCPError) and error.code == INVALID_PARAMS
    assert error.message.startswith("No project runners detected in this directory.")


def test_project_recipe_spawn_failure(tmp_path, env):
    root = make_repo(tmp_path / "pnpm-app")
    write_package(root, {"test": "true"}, lockfile=False)
    (root / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    result = call(root, {**env, "PATH": "/usr/bin:/bin"}, "project_recipe", {"op": "test"})
    assert refusal(result).startswith('shell_spawn_failed: "pnpm" not found on PATH; install pnpm')


# --- run_script (seed 002) --------------------------------------------------------------


def test_run_script_output_ends_with_the_exit_line(npm_project, env):
    async def body(client):
        return (await client.call_tool("run_script", {"name": "build"}),
                await client.call_tool("run_script", {"name": "fail"}))

    ok, failed = with_session(npm_project, env, body)
    assert not ok.is_error and "built" in text(ok) and text(ok).endswith("\nexit: 0")
    assert ok.structured_content["command"] == "npm run build"
    assert not failed.is_error and "boom" in text(failed) and text(failed).endswith("\nexit: 3")


def test_run_script_errors_in_the_seeds_order(tmp_path, env):
    def first_error(root, arguments):
        return refusal(call(root, env, "run_script", arguments))

    empty = make_repo(tmp_path / "empty")
    assert first_error(empty, {"name": ""}) == "no supported project detected in workspace root"
    rust = make_repo(tmp_path / "rust")
    (rust / "Cargo.toml").write_text('[package]\nname = "r"\nversion = "0.1.0"\n')
    assert first_error(rust, {"name": ""}) == (
        "run_script: only Node projects support scripts today (detected: rust)"
    )
    broken = make_repo(tmp_path / "broken")
    (broken / "package.json").write_text("{not json")
    assert first_error(broken, {"name": ""}) == "run_script: name is required"  # name before parsing
    assert first_error(broken, {}) == "run_script: name is required"
    assert first_error(broken, {"name": "test"}).startswith("run_script: parsing package.json: ")
    lock_only = make_repo(tmp_path / "lock-only")
    (lock_only / "package-lock.json").write_text("{}")
    assert first_error(lock_only, {"name": "test"}) == "run_script: package.json not found in workspace root"
    scripts = write_package(make_repo(tmp_path / "scripts"), {"zeta": "true", "alpha": "true", "mid": "true"})
    assert first_error(scripts, {"name": "deploy"}) == (
        'run_script: no script named "deploy" in package.json; available: alpha, mid, zeta'
    )


def test_run_script_timeout_default_and_clamp(npm_project, env):
    async def body(client):
        return [(await client.call_tool("run_script", {"name": "build", "timeout": value})).structured_content["timeout"]
                for value in (None, 0, -5, 12, 99999)]

    assert with_session(npm_project, env, body) == [300, 300, 300, 12, 1800]


def test_run_script_timeout_kills_the_whole_process_tree(tmp_path, env):
    root = write_package(make_repo(tmp_path / "slow"), {"hang": tree_script(tmp_path)})
    try:
        result = call(root, env, "run_script", {"name": "hang", "timeout": 4})
        output = text(result)
        assert "started" in output and "timed out after 4 s" in output and output.endswith("\nexit: 124")
        assert result.structured_content["timed_out"] is True
        assert_dead_soon(int(wait_for_file(tmp_path / "child.pid")), int(wait_for_file(tmp_path / "grandchild.pid")))
    finally:
        kill_leftovers(tmp_path / "child.pid", tmp_path / "grandchild.pid")


# --- tasks ------------------------------------------------------------------------------


def test_tasks_is_what_dp_tasks_json_shows_read_from_the_files(npm_project, env):
    """The same project as `dp tasks --json`, except that the server never asks make: it reads the Makefile."""
    (npm_project / "Makefile").write_text(".PHONY: check\ncheck: ## Lint and test\n\t@true\n")
    result = structured(call(npm_project, env, "tasks", {}))
    cli = json.loads(
        subprocess.run([str(DP_BIN), "tasks", "--json"], cwd=npm_project, env=env, capture_output=True, text=True).stdout
    )
    assert cli["runners"][1]["reason"] == "Makefile found: targets from make's database (make -pRrq)"
    assert result["runners"][1]["reason"] == "Makefile found: targets read from the file (make not run)"
    cli["runners"][1]["reason"] = result["runners"][1]["reason"]
    assert result == cli
    assert result["available_tasks"] == {"npm": ["build", "fail", "test"], "make": ["check"]}
    assert "no project found" in refusal(call(make_repo(npm_project.parent / "none"), env, "tasks", {}))


# --- cancellation, bounded output, progress ----------------------------------------------------


def test_a_cancelled_call_kills_the_whole_process_tree(tmp_path, env):
    root = write_package(make_repo(tmp_path / "slow"), {"hang": tree_script(tmp_path)})

    async def body(client):
        with anyio.move_on_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(client.call_tool, "run_script", {"name": "hang"})
                await anyio.to_thread.run_sync(wait_for_file, tmp_path / "grandchild.pid")
                group.cancel_scope.cancel()  # the client sends notifications/cancelled
        pids = [int(wait_for_file(tmp_path / name)) for name in ("child.pid", "grandchild.pid")]
        await anyio.to_thread.run_sync(lambda: assert_dead_soon(*pids))
        # The server is still there and answers the next call.
        return await client.call_tool("tasks", {})

    try:
        after = with_session(root, env, body)
        assert structured(after)["available_tasks"] == {"npm": ["hang"]}
    finally:
        kill_leftovers(tmp_path / "child.pid", tmp_path / "grandchild.pid")


def test_output_beyond_the_bound_is_cut_with_a_note(tmp_path, env):
    root = write_package(make_repo(tmp_path / "loud"), {
        "loud": "node -e \"for (let i = 0; i < 5000; i++) console.log('line ' + i + ' ' + 'x'.repeat(40))\"",
    })
    result = structured(call(root, env, "project_recipe", {"op": "loud"}))
    stdout = result["stdout"]
    note, rest = stdout.split("\n", 1)
    assert note.startswith("[dp: output cut: the first ") and note.endswith("the last 40,000 follow]")
    assert len(rest.encode()) == 40_000
    assert rest.endswith("line 4999 " + "x" * 40 + "\n")
    cut = int(note.split("the first ")[1].split(" bytes")[0].replace(",", ""))
    assert cut + 40_000 > 5000 * 45


def test_long_runs_send_progress_notifications(tmp_path, env):
    root = write_package(make_repo(tmp_path / "steps"), {
        "slow": "node -e \"let i = 0; const t = setInterval(() => { console.log('step ' + (++i)); "
                "if (i === 6) clearInterval(t); }, 500)\"",
    })
    seen = []

    async def body(client):
        async def progress(value, total, message):
            seen.append((value, total, message))

        return await client.call_tool("run_script", {"name": "slow", "timeout": 60}, progress_callback=progress)

    result = with_session(root, env, body)
    assert text(result).endswith("exit: 0")
    assert len(seen) >= 3, seen
    values = [value for value, _, _ in seen]
    assert values == sorted(values) and len(set(values)) == len(values)  # strictly increasing
    assert all(total == 60 for _, total, _ in seen)
    assert any("last line: step" in message for _, _, message in seen), seen
