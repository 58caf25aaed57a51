"""pyproject.toml detection: pdm, poetry, uv and poe tasks, each through its manager."""

from __future__ import annotations

import textwrap

import pytest

from dp.errors import DpError
from dp.runners import python


def project(directory, text, *files):
    (directory / "pyproject.toml").write_text(textwrap.dedent(text))
    for name in files:
        (directory / name).write_text("")
    return {runner.name: runner for runner in python.detect(directory, directory)}


def test_pdm_scripts_run_through_pdm(tmp_path):
    runners = project(
        tmp_path,
        """
        [tool.pdm.scripts]
        _.env_file = ".env"
        test = "pytest -q"
        lint = {cmd = "ruff check .", help = "Lint the code"}
        all = {composite = ["lint", "test"]}
        """,
    )
    pdm = runners["pdm"]
    assert [task.name for task in pdm.tasks] == ["all", "lint", "test"]
    assert pdm.task("test").argv == ("pdm", "run", "test")
    assert pdm.task("test").description == "pytest -q"
    assert pdm.task("lint").description == "Lint the code"
    assert pdm.task("all").description == "lint && test"
    assert "[tool.pdm.scripts]" in pdm.reason
    assert pdm.task("test").command(["-k", "x"]) == ["pdm", "run", "test", "-k", "x"]


def test_poetry_scripts_run_through_poetry(tmp_path):
    runners = project(
        tmp_path,
        """
        [tool.poetry]
        name = "demo"
        [tool.poetry.scripts]
        serve = "demo.cli:main"
        """,
    )
    assert list(runners) == ["poetry"]
    serve = runners["poetry"].task("serve")
    assert serve.argv == ("poetry", "run", "serve") and serve.description == "demo.cli:main"


@pytest.mark.parametrize("tool_uv, files", [("[tool.uv]\ndev-dependencies = []\n", ()), ("", ("uv.lock",))])
def test_project_scripts_run_through_uv_with_tool_uv_or_uv_lock(tmp_path, tool_uv, files):
    build = '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n'
    runners = project(tmp_path, f'[project]\nname = "demo"\n[project.scripts]\ndemo = "demo:main"\n{tool_uv}{build}',
                      "demo.py", *files)
    uv = runners["uv"]
    assert uv.task("demo").argv == ("uv", "run", "demo")
    assert uv.task("demo").kind == "entry point"
    assert ("uv.lock" if files else "[tool.uv]") in uv.reason


def test_project_scripts_without_a_manager_are_not_runnable(tmp_path):
    assert project(tmp_path, '[project]\nname = "demo"\n[project.scripts]\ndemo = "demo:main"\n') == {}


@pytest.mark.parametrize(
    "extra, files, prefix",
    [
        ("", ("uv.lock",), ["uv", "run", "poe"]),
        ("[tool.pdm]\n", (), ["pdm", "run", "poe"]),
        ("", ("poetry.lock",), ["poetry", "run", "poe"]),
        ("", (), ["poe"]),
    ],
)
def test_poe_tasks_run_through_the_projects_manager(tmp_path, extra, files, prefix):
    text = (
        '[tool.poe.tasks]\ntest = "pytest"\n'
        'docs = {cmd = "mkdocs build", help = "Build the docs"}\n'
        "check = [\"lint\", \"test\"]\n" + extra
    )
    poe = project(tmp_path, text, *files)["poe"]
    assert poe.task("test").argv == (*prefix, "test")
    assert poe.task("docs").description == "Build the docs"
    assert poe.task("check").description == "lint && test"
    assert ("plain poe" if prefix == ["poe"] else f"run through {prefix[0]}") in poe.reason


def test_manager_tables_alone_give_a_runner_without_tasks(tmp_path):
    runners = project(tmp_path, "[tool.pdm]\ndistribution = false\n")
    assert runners["pdm"].tasks == []


def test_malformed_pyproject_is_a_clear_error(tmp_path):
    with pytest.raises(DpError, match="parsing pyproject.toml"):
        project(tmp_path, "[tool.pdm.scripts\n")


@pytest.mark.parametrize("lockfile, manager", [("uv.lock", "uv"), ("pdm.lock", "pdm"), ("poetry.lock", "poetry")])
def test_workspace_member_uses_the_lockfile_at_the_workspace_root(tmp_path, lockfile, manager):
    # A uv/PDM/Poetry workspace member has no lockfile of its own.
    (tmp_path / lockfile).write_text("")
    member = tmp_path / "packages" / "cli"
    member.mkdir(parents=True)
    (member / "pyproject.toml").write_text('[project]\nname = "cli"\n[project.scripts]\ncli = "cli:main"\n'
                                           '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n')
    (member / "cli.py").write_text("def main():\n    pass\n")
    runners = {runner.name: runner for runner in python.detect(member, tmp_path)}
    assert list(runners) == [manager]
    assert runners[manager].task("cli").argv == (manager, "run", "cli")
    assert f"../../{lockfile}" in runners[manager].reason


@pytest.mark.parametrize("text, files, listed", [
    ('[project]\nname = "d"\n[project.scripts]\nd = "d:main"\n[tool.uv]\n', ("d.py",), False),  # uv builds nothing
    ('[project]\nname = "d"\n[project.scripts]\nd = "d:main"\n[tool.uv]\npackage = true\n', ("d.py",), True),
    ('[project]\nname = "d"\n[project.scripts]\nd = "gone.cli:main"\n[tool.uv]\npackage = true\n', ("d.py",), False),
    ('[project]\nname = "d"\n[project.scripts]\nd = "ext:main"\n[tool.uv]\npackage = true\n[tool.maturin]\n', (), True),
    ('[project]\nname = "d"\n[project.scripts]\nd = "d:main"\n[tool.pdm]\ndistribution = false\n', ("d.py",), False),
    ('[project]\nname = "d"\n[project.scripts]\nd = "d:main"\n[tool.poetry]\npackage-mode = false\n', ("d.py",), False),
    ('[project]\nname = "d"\n[project.scripts]\nd = "d:main"\n[tool.poetry]\n', ("d.py",), True),
])
def test_an_entry_point_is_a_task_only_where_the_manager_builds_it_from_a_module_here(tmp_path, text, files, listed):
    runners = project(tmp_path, text, *files)
    (runner,) = runners.values()
    assert (runner.task("d") is not None) == listed


def test_lockfile_above_the_project_root_is_not_consulted(tmp_path):
    (tmp_path / "uv.lock").write_text("")
    member = tmp_path / "project"
    member.mkdir()
    assert project(member, '[project]\nname = "demo"\n[project.scripts]\ndemo = "demo:main"\n') == {}
