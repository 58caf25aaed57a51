"""Finding 9 (issue 46): ``project_actions`` worked outside the project.

Its ``working_directory`` took an absolute path, ``..``, ``~`` or a committed symlink as given, so
the agent's ``project_actions`` ran ``make TARGET`` from another directory's Makefile, and ``git
add`` / ``git commit`` in another repository, while docs/security.md says every path the agent
gives the MCP tools is held inside the project.

Each test starts the real ``dp mcp`` in a cloned project and talks to it with the official MCP SDK
client over stdio. Beside the project sit another repository whose Makefile marks when a target
runs and whose index and history the test reads afterwards, and a HOME with such a Makefile too.
The project commits a symlink to the other repository. Every spelling of "elsewhere" is refused
with one line, nothing marks, the other repository gains no staged file, no commit and no Makefile;
the same calls inside the project still work. The other tools' path parameters (``project_recipe``
and ``tasks``' ``cwd``, ``recipe``'s file) are held by the same check and tried the same way.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from mcp_support import refusal, structured, with_session

from security.repository import GIT_IDENTITY, cloned_repository


def _makefile(markers, owner: str) -> str:
    """A Makefile whose every target marks, so any ``make`` run in its directory shows."""
    return (".PHONY: test lint deploy\n"
            f"test:\n\t{markers.touch(owner + '-make-test')}\n"
            f"lint:\n\t{markers.touch(owner + '-make-lint')}\n"
            f"deploy:\n\t{markers.touch(owner + '-make-deploy')}\n")


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, env={**os.environ, **GIT_IDENTITY}, capture_output=True,
                          text=True, check=True, timeout=60).stdout


@pytest.fixture
def layout(tmp_path, markers, env):
    """The project the server starts in, another repository beside it, and a HOME with a Makefile."""
    other = cloned_repository(tmp_path / "other", {"Makefile": _makefile(markers, "other"),
                                                    "notes.txt": "the other repository's notes\n"}, markers)
    (other / "notes.txt").write_text("changed, never staged by the project's agent\n")
    (other / "untracked.txt").write_text("new\n")
    home = Path(env["HOME"])
    (home / "Makefile").write_text(_makefile(markers, "home"))
    project = tmp_path / "project"
    project.mkdir()
    (project / "vendor").symlink_to(other)  # committed: a symlink is a file git keeps
    cloned_repository(project, {"Makefile": ".PHONY: test\ntest:\n\t@echo project tests ran\n",
                                "app.py": "print('hi')\n", "sub/README.md": "a package\n",
                                "sub/Makefile": ".PHONY: docs\ndocs:\n\t@echo docs\n"}, markers)
    _git(project, "config", "user.email", "dev@example.com")
    _git(project, "config", "user.name", "Dev")
    return {"project": project, "other": other, "home": home}


# Every way to name a directory outside the project, by what the agent would write.
def _elsewhere(layout) -> dict:
    return {
        "absolute": str(layout["other"]),
        "dotdot": "../other",
        "dotdot-deep": "sub/../../other",
        "tilde": "~",
        "symlink": "vendor",
        "through-symlink": "vendor/.",
    }


def _actions(where: str) -> list:
    return [
        {"action": "run", "target": "test", "working_directory": where},
        {"action": "list", "working_directory": where},
        {"action": "add", "paths": ["notes.txt", "untracked.txt"], "working_directory": where},
        {"action": "commit", "message": "Planted by the agent", "working_directory": where},
        {"action": "generate", "language": "go", "working_directory": where},
    ]


def _state(repository: Path) -> tuple:
    """What a ``git add`` / ``git commit`` / generated Makefile there would change."""
    return (_git(repository, "rev-parse", "HEAD"), _git(repository, "diff", "--cached", "--name-only"),
            (repository / "Makefile").read_text())


def test_project_actions_runs_nothing_outside_the_project(layout, env, markers):
    other_before, home_makefile = _state(layout["other"]), (layout["home"] / "Makefile").read_text()
    spellings = _elsewhere(layout)

    async def body(client):
        return {(name, call["action"]): await client.call_tool("project_actions", call)
                for name, where in spellings.items() for call in _actions(where)}

    results = with_session(layout["project"], env, body)
    markers.assert_none("project_actions outside the project")
    assert _state(layout["other"]) == other_before
    assert (layout["home"] / "Makefile").read_text() == home_makefile
    assert not (layout["home"] / ".git").exists()
    for (name, action), result in results.items():
        said = refusal(result)
        assert "\n" not in said and "Traceback" not in said, (name, action, said)
        assert "working_directory" in said, (name, action, said)


def test_each_refusal_says_the_directory_is_outside_the_project(layout, env):
    async def body(client):
        return {name: await client.call_tool("project_actions", {"action": "run", "target": "test",
                                                                  "working_directory": where})
                for name, where in _elsewhere(layout).items()}

    root = layout["project"]
    said = {name: refusal(result) for name, result in with_session(root, env, body).items()}
    assert said["dotdot"] == (f"working_directory ../other leads outside the project root {root}; "
                              "give a directory inside the project")
    assert said["symlink"] == (f"working_directory vendor leads outside the project root {root}; "
                               "give a directory inside the project")
    assert said["absolute"].startswith(f"working_directory {layout['other']} leads outside the project root")
    assert said["tilde"] == "working_directory ~: no such directory in the project"  # never the person's HOME


def test_inside_the_project_the_actions_still_work(layout, env, markers):
    """Safe and compatible: a subdirectory, ``.``, an absolute path inside, and ``..`` that stays inside."""
    root = layout["project"]
    (root / "app.py").write_text("print('changed')\n")

    async def body(client):
        return [await client.call_tool("project_actions", call) for call in (
            {"action": "run", "target": "test"},
            {"action": "run", "target": "test", "working_directory": str(root)},
            {"action": "run", "target": "test", "working_directory": "sub/.."},
            {"action": "list", "working_directory": "sub"},
            {"action": "add", "paths": ["app.py"], "working_directory": "."},
            {"action": "commit", "message": "Touch the app"},
        )]

    ran, absolute, dotdot, listed, added, committed = with_session(root, env, body)
    for result in (ran, absolute, dotdot):
        assert structured(result)["exit_code"] == 0 and structured(result)["output"] == "project tests ran\n"
        assert structured(result)["working_directory"] == str(root)
    assert structured(listed) == {"working_directory": str(root / "sub"), "targets": [{"name": "docs", "description": None}]}
    assert structured(added)["exit_code"] == 0 and structured(committed)["exit_code"] == 0
    assert _git(root, "log", "-1", "--format=%s") == "Touch the app\n"
    assert _git(root, "show", "--name-only", "--format=").split() == ["app.py"]
    markers.assert_none("project_actions inside the project")


@pytest.mark.parametrize("tool", ["project_recipe", "tasks"])
def test_the_other_tools_cwd_is_held_by_the_same_check(layout, env, markers, tool):
    """``project_recipe`` and ``tasks`` take ``cwd``: the same spellings are refused, nothing runs."""
    spellings = _elsewhere(layout)

    async def body(client):
        results = {}
        for name, where in spellings.items():
            arguments = {"cwd": where, **({"op": "test"} if tool == "project_recipe" else {})}
            try:
                results[name] = str(await client.call_tool(tool, arguments))
            except Exception as exc:  # project_recipe answers a bad cwd as invalid params
                results[name] = str(exc)
        return results

    for name, said in with_session(layout["project"], env, body).items():
        assert "leads outside the project root" in said or "no such directory in the project" in said, (name, said)
    markers.assert_none(f"{tool} outside the project")


def test_recipe_files_outside_the_project_are_refused(layout, env, markers):
    """``recipe``'s file: an absolute path, ``..`` and a committed symlink to a recipe elsewhere."""
    other = layout["other"]
    (other / "recipes").mkdir()
    (other / "recipes" / "mark.yaml").write_text(
        f"name: mark\nsteps:\n  - id: m\n    command: {markers.touch('other-recipe')}\n")
    (layout["project"] / "recipes").mkdir()
    (layout["project"] / "recipes" / "linked.yaml").symlink_to(other / "recipes" / "mark.yaml")

    async def body(client):
        return [await client.call_tool("recipe", {"action": "run", "recipe": name}) for name in (
            str(other / "recipes" / "mark.yaml"), "../other/recipes/mark.yaml", "vendor/recipes/mark.yaml",
            "linked")]

    for result in with_session(layout["project"], env, body):
        said = refusal(result)
        assert "outside the project" in said or "not found" in said, said
    markers.assert_none("recipe outside the project")
