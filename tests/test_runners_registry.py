"""Finding the project, confining --cwd, resolving an op to one task, the Markdown."""

from __future__ import annotations

import json
import os

import pytest

from dp.errors import DpError
from dp.runners import confine, detect, resolve, tasks_markdown
from dp.runners.registry import NoProjectFound
from dp.runners.resolution import resolve_script


def repo(path):
    path.mkdir(parents=True, exist_ok=True)
    (path / ".git").mkdir()
    return path


def package(directory, scripts, lockfile=None):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "package.json").write_text(json.dumps({"scripts": scripts}))
    if lockfile:
        (directory / lockfile).write_text("")


def makefile(directory, text):
    (directory / "Makefile").write_text(text)


# -- detection ---------------------------------------------------------------


def test_detection_walks_up_to_the_nearest_project_directory(tmp_path):
    root = repo(tmp_path / "repo")
    package(root, {"test": "vitest"})
    deep = root / "src" / "components"
    deep.mkdir(parents=True)
    project = detect(deep)
    assert project.root == root.resolve() and project.directory == root.resolve()
    assert [runner.name for runner in project.runners] == ["npm"]


def test_a_sub_project_is_used_from_inside_it(tmp_path):
    root = repo(tmp_path / "repo")
    makefile(root, "all:\n\t@true\n")
    web = root / "packages" / "web"
    package(web, {"dev": "vite"}, "pnpm-lock.yaml")
    project = detect(web)
    assert project.root == root.resolve() and project.directory == web.resolve()
    assert project.available_tasks() == {"pnpm": ["dev"]}


def test_runners_are_ordered_by_the_registry(tmp_path):
    root = repo(tmp_path / "repo")
    makefile(root, "lint:\n\t@true\n")
    (root / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\n')
    (root / "pyproject.toml").write_text("[tool.pdm.scripts]\nlint = 'ruff check'\n")
    package(root, {"lint": "eslint ."})
    assert [runner.name for runner in detect(root).runners] == ["npm", "cargo", "pdm", "make"]


def test_nothing_above_the_repository_root_is_used(tmp_path):
    package(tmp_path, {"test": "vitest"})  # outside the repository
    inner = repo(tmp_path / "repo")
    with pytest.raises(NoProjectFound, match="no project found .* up to .*repo"):
        detect(inner)


def test_no_project_is_a_clear_error(tmp_path):
    with pytest.raises(DpError, match="no project found.*package.json, Cargo.toml"):
        detect(repo(tmp_path / "empty"))


def test_pyproject_without_a_task_runner_is_explained(tmp_path):
    # "no pyproject.toml" would be false here: say what else it needs.
    root = repo(tmp_path / "lib")
    (root / "pyproject.toml").write_text('[project]\nname = "lib"\n')
    with pytest.raises(NoProjectFound, match="pyproject.toml using pdm, poetry, uv or poe"):
        detect(root)


@pytest.mark.parametrize(
    "inside", ["node_modules/left-pad", ".venv/lib/python3.11/site-packages/pkg", "build/pkg", "target/debug"]
)
def test_dependency_and_build_directories_are_never_read(tmp_path, inside):
    root = repo(tmp_path / "repo")
    makefile(root, "all:\n\t@true\n")
    nested = root / inside
    package(nested, {"evil": "rm -rf /"})
    project = detect(nested)
    assert project.directory == root.resolve()
    assert [runner.name for runner in project.runners] == ["make"]


def test_virtualenv_without_a_telltale_name_is_skipped(tmp_path):
    root = repo(tmp_path / "repo")
    makefile(root, "all:\n\t@true\n")
    env = root / "myenv"
    env.mkdir()
    (env / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (env / "pyproject.toml").write_text("[tool.pdm.scripts]\nx = 'y'\n")
    assert detect(env).directory == root.resolve()


# -- --cwd confinement -------------------------------------------------------


def test_cwd_inside_the_project_is_accepted(tmp_path):
    root = repo(tmp_path / "repo")
    (root / "sub").mkdir()
    assert confine(root, "sub") == (root / "sub").resolve()
    assert confine(root / "sub", "..") == root.resolve()
    assert confine(root, None) == root.resolve()


@pytest.mark.parametrize("requested", ["..", "../..", "sub/../../x", "/", "/tmp"])
def test_cwd_escaping_the_project_is_refused(tmp_path, requested):
    root = repo(tmp_path / "repo")
    (root / "sub").mkdir()
    with pytest.raises(DpError, match="leads outside the project root"):
        confine(root, requested)


def test_cwd_through_a_symlink_out_of_the_project_is_refused(tmp_path):
    root = repo(tmp_path / "repo")
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", root / "link")
    with pytest.raises(DpError, match="leads outside the project root"):
        confine(root, "link")


def test_cwd_must_be_an_existing_directory(tmp_path):
    root = repo(tmp_path / "repo")
    (root / "file").write_text("")
    for requested in ("missing", "file"):
        with pytest.raises(DpError, match="no such directory"):
            confine(root, requested)


def test_outside_a_repository_cwd_may_only_go_down(tmp_path):
    (tmp_path / "proj" / "sub").mkdir(parents=True)
    assert confine(tmp_path / "proj", "sub") == (tmp_path / "proj" / "sub").resolve()
    with pytest.raises(DpError, match="leads outside"):
        confine(tmp_path / "proj", "..")


# -- resolution --------------------------------------------------------------


@pytest.fixture
def mixed(tmp_path):
    """npm scripts, cargo (built-ins + alias) and a Makefile in one repository."""
    root = repo(tmp_path / "repo")
    package(root, {"test": "vitest", "lint": "eslint ."}, "pnpm-lock.yaml")
    (root / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\n')
    (root / ".cargo").mkdir()
    (root / ".cargo" / "config.toml").write_text('[alias]\nxtask = "run -p xtask --"\n')
    makefile(root, "lint:\n\t@true\nbuild:\n\t@true\n")
    return detect(root)


def test_exact_name_resolves_with_arguments(mixed):
    resolved = resolve(mixed, "test", ["--watch"])
    assert resolved.runner.name == "pnpm"
    assert resolved.argv == ["pnpm", "run", "test", "--watch"]
    assert resolved.cwd == mixed.directory


def test_first_word_of_op_is_the_task_and_the_rest_are_arguments(mixed):
    resolved = resolve(mixed, "xtask dist --release", ["--verbose"])
    assert resolved.argv == ["cargo", "xtask", "dist", "--release", "--verbose"]


def test_defined_tasks_beat_builtins_and_others_are_reported(mixed):
    build = resolve(mixed, "build", [])
    assert build.runner.name == "make" and build.alternatives == ["cargo"]
    lint = resolve(mixed, "lint", [])
    assert lint.runner.name == "pnpm" and lint.alternatives == ["make"]


def test_runner_option_restricts_the_choice(mixed):
    assert resolve(mixed, "lint", [], runner="make").argv == ["make", "lint"]
    assert resolve(mixed, "build", [], runner="cargo").argv == ["cargo", "build"]
    with pytest.raises(DpError, match='no runner "poetry" in this project; detected: pnpm, cargo, make'):
        resolve(mixed, "lint", [], runner="poetry")
    with pytest.raises(DpError, match='no task "test" for runner make'):
        resolve(mixed, "test", [], runner="make")


def test_unknown_op_is_refused_with_a_suggestion_and_the_tasks(mixed):
    with pytest.raises(DpError) as error:
        resolve(mixed, "tset", [])
    message = error.value.message
    assert message.startswith('no task "tset" in this project; did you mean "test"? available: pnpm: lint, test;')
    assert "make: build, lint" in message and "\n" not in message


def test_unknown_op_without_anything_close(mixed):
    with pytest.raises(DpError, match=r'^no task "zzz" in this project; available: pnpm: lint, test'):
        resolve(mixed, "zzz", [])


@pytest.mark.parametrize("op", ["", "   "])
def test_empty_op_is_refused(mixed, op):
    with pytest.raises(DpError, match="no task given"):
        resolve(mixed, op, [])


def test_unbalanced_quotes_in_op_are_refused(mixed):
    with pytest.raises(DpError, match="cannot read the task"):
        resolve(mixed, "test 'oops", [])


@pytest.mark.parametrize(
    "pyproject, files",
    [
        ('[project]\nname = "x"\n[project.scripts]\nserve = "x:main"\n', ["uv.lock"]),
        ('[tool.poetry]\nname = "x"\n', []),
        ("[tool.pdm.scripts]\ntest = 'pytest'\n", []),
    ],
)
def test_unknown_op_never_reaches_a_runner_that_runs_any_program(tmp_path, pyproject, files):
    root = repo(tmp_path / "repo")
    (root / "pyproject.toml").write_text(pyproject)
    for name in files:
        (root / name).write_text("")
    with pytest.raises(DpError, match='no task "rm" in this project'):
        resolve(detect(root), "rm", ["-rf", "/"])


def test_long_task_lists_are_bounded_in_the_error(tmp_path):
    root = repo(tmp_path / "repo")
    package(root, {f"script-{number:03}": "true" for number in range(200)})
    with pytest.raises(DpError) as error:
        resolve(detect(root), "nope", [])
    assert len(error.value.message) < 1500 and "dp tasks" in error.value.message


# -- package.json scripts ------------------------------------------------------


def test_script_resolves_through_the_package_manager(tmp_path):
    root = repo(tmp_path / "repo")
    package(root, {"build": "tsc", "test": "vitest"}, "yarn.lock")
    resolved = resolve_script(detect(root), "build", ["--watch"])
    assert resolved.argv == ["yarn", "run", "build", "--watch"]


def test_unknown_script_lists_the_available_ones_alphabetised(tmp_path):
    root = repo(tmp_path / "repo")
    package(root, {"zeta": "z", "alpha": "a", "mid": "m"})
    with pytest.raises(DpError, match=r'^no script named "x" in package.json; available: alpha, mid, zeta$'):
        resolve_script(detect(root), "x", [])


def test_scripts_need_a_node_project(tmp_path):
    root = repo(tmp_path / "repo")
    makefile(root, "all:\n\t@true\n")
    with pytest.raises(DpError, match=r"only Node projects support scripts \(detected: make\)"):
        resolve_script(detect(root), "build", [])


def test_script_name_is_required(tmp_path):
    root = repo(tmp_path / "repo")
    package(root, {"build": "tsc"})
    with pytest.raises(DpError, match="script name is required"):
        resolve_script(detect(root), " ", [])


# -- Markdown for AGENTS.md --------------------------------------------------


def test_tasks_markdown_lists_how_to_run_every_task(mixed):
    text = tasks_markdown(mixed.directory)
    assert text.startswith("# Project Tasks\n")
    assert "## pnpm" in text and "## cargo" in text and "## make" in text
    assert "- `test`: `pnpm run test` — vitest" in text
    assert "- `xtask`: `cargo xtask` — cargo run -p xtask --" in text
    assert "`build`" in text and "built-in:" in text
    assert "pnpm-lock.yaml" in text  # why the runner was chosen
    assert "dp run" in text


def test_tasks_markdown_names_a_sub_project(tmp_path):
    root = repo(tmp_path / "repo")
    package(root / "web", {"dev": "vite"})
    assert "Tasks of `web/`" in tasks_markdown(root / "web")


def test_tasks_markdown_without_a_project_raises(tmp_path):
    with pytest.raises(NoProjectFound):
        tasks_markdown(repo(tmp_path / "empty"))


# -- unreadable project files ---------------------------------------------------


def test_a_broken_project_file_does_not_hide_the_runners_that_work(tmp_path):
    root = repo(tmp_path / "repo")
    package(root, {"test": "vitest"})
    makefile(root, "all:\n    echo indented with spaces\n")  # make: missing separator
    project = detect(root)
    assert [runner.name for runner in project.runners] == ["npm"]
    assert "missing separator" in project.problems["make"]
    assert project.to_json()["problems"] == project.problems


def test_an_unknown_task_names_what_could_not_be_read(tmp_path):
    root = repo(tmp_path / "repo")
    package(root, {"test": "vitest"})
    makefile(root, "all:\n    echo indented with spaces\n")
    with pytest.raises(DpError, match=r'no task "all".*not read: cannot read .*Makefile: line 2 .*missing separator'):
        resolve(detect(root), "all")


def test_only_broken_files_is_their_error_not_a_parents_project(tmp_path):
    root = repo(tmp_path / "repo")
    package(root, {"test": "vitest"})
    sub = root / "sub"
    sub.mkdir()
    (sub / "package.json").write_text("{broken")
    with pytest.raises(DpError, match="parsing package.json"):
        detect(sub)


def test_script_on_a_malformed_package_json_reports_the_parse_error(tmp_path):
    root = repo(tmp_path / "repo")
    (root / "package.json").write_text('{"scripts": {')
    makefile(root, "all:\n\t@true\n")
    with pytest.raises(DpError, match="^parsing package.json: "):
        resolve_script(detect(root), "build")
