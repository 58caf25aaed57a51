"""In a repository nobody trusted, the hook and the MCP server start no program.

Every paving word (``dp.paving.WORDS``) in several shapes goes through the real
``pave-check`` with Claude Code's JSON (also ``--verbose`` and SessionStart /
PostToolBatch events), failures go through the real ``dp-capture``, and every
MCP tool is called through the real ``dp mcp`` over stdio — listing,
validating, dry runs and refused names; a tool told to *run* a task runs that
task, which is what an agent asks an MCP tool for, behind the agent's own
permission prompt (docs/security.md). Meanwhile two records are kept
(``security.recording``): wrappers first on PATH for make, just, task, npm,
npx, pnpm, yarn, bun, uv, poetry, pdm, hatch, python, pip, node, git, cargo and
deno, followed on PATH by the repository's own programs (a committed
``.venv/bin``, ``node_modules/.bin``, a ``./gradlew``-like wrapper), which mark
when run; and an audit hook in every dp process that records each process it
starts, whatever the path. All three stay empty.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from capture_support import failure, run_capture
from mcp_support import call

from dp.mcp.tools import TOOL_NAMES
from dp.paving import WORDS
from security.recording import audit_log, audit_site, path_log, recording_bin
from security.repository import (
    bash_payload,
    cloned_repository,
    hook_env,
    hostile_script,
    hostile_task_files,
    pave_check,
)

TOOLS = ("make", "just", "task", "npm", "npx", "pnpm", "pnpx", "yarn", "bun", "bunx", "uv", "uvx", "poetry", "pdm",
         "hatch", "python", "python3", "pip", "pip3", "node", "git", "cargo", "deno")
SHAPES = ("{w}", "{w} --version", "{w} test", "{w} run build", "{w} -m pytest", "{w} install requests")
RECIPE = """\
name: deploy
description: Ship it
steps:
  - id: ship
    bash: "{command}"
"""
PACKAGE_JSON = json.dumps({"name": "widget", "version": "1.0.0",
                           "scripts": {"test": "node test.js", "build": "node build.js"}}, indent=2) + "\n"


def python_project(markers) -> dict:
    """A uv project whose committed environment holds pytest (a script of the attacker's)."""
    return {
        "pyproject.toml": '[project]\nname = "widget"\nversion = "1.0"\n\n[tool.uv]\ndev-dependencies = ["pytest"]\n',
        "uv.lock": "version = 1\nrequires-python = \">=3.10\"\n",
        ".venv/lib/python3.12/site-packages/pytest/__init__.py": f"open({str(markers.path / 'venv-pytest-module')!r}, 'w')\n",
    }


SHAPE_FILES = {
    "task-files-no-package-json": lambda markers: hostile_task_files(markers),
    "node-pnpm": lambda markers: {"package.json": PACKAGE_JSON, "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
                                  **hostile_task_files(markers)},
    "python-uv": lambda markers: {**python_project(markers), **hostile_task_files(markers)},
}


@pytest.fixture(params=sorted(SHAPE_FILES))
def setting(request, tmp_path, markers):
    """The repository, the recording PATH behind it and the environment of a user with dp's defaults."""
    files = SHAPE_FILES[request.param](markers)
    files["recipes/deploy.yaml"] = RECIPE.format(command=markers.touch("recipe-step"))
    repository = cloned_repository(tmp_path / "widget", files, markers)
    for name in ("make", "npm", "pnpm", "just", "task", "uv"):
        hostile_script(repository / "node_modules" / ".bin" / name, markers, f"node-modules-bin-{name}")
    search = os.pathsep.join([os.environ["PATH"], str(Path(sys.executable).parent),
                              str(Path(os.environ["DP_TESTS_CACHE"]) / "pytools" / "bin")])
    wrappers = recording_bin(tmp_path / "recorded-bin", TOOLS, search)
    path = os.pathsep.join([str(wrappers), str(repository / ".venv" / "bin"), str(repository / "node_modules" / ".bin"),
                            str(repository), os.environ["PATH"]])
    env = {**hook_env(tmp_path / "home", path), **audit_site(tmp_path / "audit")}
    return repository, wrappers, env, tmp_path / "audit"


def assert_nothing_started(markers, wrappers, audit, what: str) -> None:
    markers.assert_none(what)
    assert path_log(wrappers) == [], f"{what} started programs by name: {path_log(wrappers)}"
    assert audit_log(audit) == [], f"{what} started programs: {audit_log(audit)}"


def test_every_paving_word_starts_nothing(setting, markers):
    repository, wrappers, env, audit = setting
    words = sorted(WORDS)
    answered = 0
    for start in range(0, len(words), 3):
        chunk = words[start : start + 3]
        command = "; ".join(shape.format(w=word) for word in chunk for shape in SHAPES)
        command += "; " + "; ".join(f"cd src && {word} test" for word in chunk)
        proc = pave_check(bash_payload(command, repository), env, "--verbose", cwd=repository)
        answered += bool(proc.stdout)
        assert_nothing_started(markers, wrappers, audit, f"pave-check on `{command}`")
    assert answered  # paving looked at these commands (--verbose says what it left alone): not a vacuous pass


def test_session_events_and_capture_start_nothing(setting, markers):
    repository, wrappers, env, audit = setting
    for event in ({"hook_event_name": "SessionStart", "source": "startup"},
                  {"hook_event_name": "PostToolBatch"},
                  {"hook_event_name": "PreToolUse", "tool_name": "read_file", "tool_input": {"path": "x"}}):
        pave_check({"session_id": "s", "cwd": str(repository), **event}, env, cwd=repository)
    for command in ("make test", "npm test", "pytest"):
        payload = failure(command, "Exit code 127\nbash: line 1: x: command not found", cwd=str(repository))
        assert run_capture(payload, env=env).returncode == 0
    assert_nothing_started(markers, wrappers, audit, "session events and dp-capture")


MCP_CALLS = {
    "tasks": [{}, {"cwd": "src"}],
    "project_actions": [{"action": "list"}, {"action": "run", "target": "test", "dry_run": True},
                        {"action": "generate", "language": "python", "dry_run": True},
                        {"action": "add", "paths": ["README.md"], "dry_run": True}],
    "project_recipe": [{"op": "no-such-task"}, {"op": "-f"}],
    "run_script": [{"name": "no-such-script"}],
    "recipe": [{"action": "list"}, {"action": "validate", "recipe": "deploy"},
               {"action": "run", "recipe": "deploy", "dry_run": True}],
}


def test_every_mcp_tool_starts_nothing_to_learn_about_the_project(setting, markers):
    repository, wrappers, env, audit = setting
    assert set(MCP_CALLS) == set(TOOL_NAMES)  # a new tool must be added here
    for name, calls in MCP_CALLS.items():
        for arguments in calls:
            call(repository, env, name, arguments)
            assert_nothing_started(markers, wrappers, audit, f"the MCP tool {name} {arguments}")


def test_the_records_would_show_a_program_started(setting, markers):
    """The evidence works: `dp tasks` (a person asked) is recorded asking make, and running a repository's
    program marks."""
    repository, wrappers, env, audit = setting
    subprocess.run([str(Path(sys.executable).parent / "dp"), "tasks"], cwd=repository, env=env,
                   capture_output=True, timeout=120)
    assert any(line.startswith("make\t") for line in path_log(wrappers))
    assert any(entry["argv"][:1] == ["make"] for entry in audit_log(audit))
    subprocess.run(["gradlew"], cwd=repository, env=env, timeout=60)
    assert "gradlew" in markers.found()
