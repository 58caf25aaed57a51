"""Project paving through the real pave-check: real JSON in, real fixture projects.

The semantic proof with the real package managers is in
test_paving_managers.py; here every translation, every refusal and the
contract around them (bash -n, the rest byte for byte, user rules first,
told once per session, the switch) are checked fast, with no manager run:
the user's managers are stand-ins in a directory of their own on PATH
(paving swaps only to a manager PATH finds). Rewrites that run the
repository's own programs (its environment, another runner's task) need
``dp trust`` first; integration_tests/security/ shows them refused without it.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from hook_support import programs_dir
from paving_projects import git_init, make_js_project, make_python_project, user_tools

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


@pytest.fixture(scope="session")
def tools(tmp_path_factory):
    """The user's own pnpm, yarn and bun (stand-ins: paving only checks that PATH finds them)."""
    return user_tools(tmp_path_factory.mktemp("user-tools"))


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory):
    """One bashlex-table / translation-table cache for every call (dp rebuilds it otherwise)."""
    return str(tmp_path_factory.mktemp("xdg-cache"))


@pytest.fixture
def pave_check(pave_check, shared_cache, tools):
    def run(payload, *args, extra_env=None):
        return pave_check(payload, *args, extra_env={"XDG_CACHE_HOME": shared_cache,
                                                     "PATH": f"{tools}:{SYSTEM_PATH}", **(extra_env or {})})

    return run


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    git_init(root)
    return root


def call(pave_check, cwd, command, *args, session="s1", extra_env=None):
    payload = {"session_id": session, "cwd": str(cwd), "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": command, "description": "run it"}}
    proc = pave_check(payload, *args, extra_env=extra_env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["hookSpecificOutput"] if proc.stdout else None


def paved(pave_check, cwd, command, *args):
    output = call(pave_check, cwd, command, *args)
    if output is None or "updatedInput" not in output:
        return None
    new = output["updatedInput"]["command"]
    assert output["updatedInput"]["description"] == "run it"
    assert subprocess.run(["bash", "-n", "-c", new]).returncode == 0, new
    return new


PNPM = [
    ("npm install", "pnpm install"),
    ("npm i", "pnpm install"),
    ("npm ci", "pnpm install --frozen-lockfile"),
    ("yarn", "pnpm install"),
    ("yarn install --frozen-lockfile", "pnpm install --frozen-lockfile"),
    ("bun install --frozen-lockfile", "pnpm install --frozen-lockfile"),
    ("npm i -D vitest", "pnpm add -D vitest"),
    ("npm install --save-dev vitest@1.6.0", "pnpm add -D vitest@1.6.0"),
    ("npm install -E left-pad@1.3.0", "pnpm add -E left-pad@1.3.0"),
    ("npm i -O fsevents", "pnpm add -O fsevents"),
    ("yarn add --dev --exact typescript", "pnpm add -D -E typescript"),
    ("bun add -d vitest", "pnpm add -D vitest"),
    ("npm uninstall left-pad", "pnpm remove left-pad"),
    ("yarn remove left-pad", "pnpm remove left-pad"),
    ("npm update", "pnpm update"),
    ("npm update left-pad", "pnpm update left-pad"),
    ("yarn upgrade left-pad", "pnpm update left-pad"),
    ("npm run build", "pnpm run build"),
    ("npm run build -- --watch", "pnpm run build --watch"),
    ("npm run show a b -- --c 'd e'", "pnpm run show a b --c 'd e'"),
    ("npm test", "pnpm run test"),
    ("npm t -- --grep x", "pnpm run test --grep x"),
    ("npm start", "pnpm run start"),
    ("yarn build", "pnpm run build"),
    ("yarn run show x", "pnpm run show x"),
    ("bun run show -- --x", "pnpm run show --x"),
    ("npx vitest run", "pnpm exec vitest run"),
    ("npx -y cowsay hi", "pnpm dlx cowsay hi"),
    ("npx vitest@1.6.0 run", "pnpm dlx vitest@1.6.0 run"),
    ("npm exec -- vitest", "pnpm exec vitest"),
    ("bunx vitest", "pnpm exec vitest"),
    ("yarn dlx cowsay", "pnpm dlx cowsay"),
]


@pytest.mark.parametrize("command, expected", PNPM)
def test_pnpm_project(pave_check, repo, command, expected):
    make_js_project(repo, "pnpm", dependencies={"vitest": "^1.6.0"})
    assert paved(pave_check, repo, command) == expected


FLAVOURS = {
    "yarn": [
        ("npm ci", "yarn install --frozen-lockfile"),
        ("npm i -D vitest", "yarn add -D vitest"),
        ("npm run show -- --x y", "yarn run show -- --x y"),
        ("pnpm update", "yarn upgrade"),
        ("npx vitest", "yarn run vitest"),
    ],
    "yarn-berry": [
        ("npm ci", "yarn install --immutable"),
        ("npm install", "yarn install"),
        ("npm run show -- --x y", "yarn run show --x y"),
        ("npm update left-pad", "yarn up left-pad"),
        ("npx cowsay", "yarn dlx cowsay"),
        ("npx vitest run", "yarn exec vitest run"),
    ],
    "bun": [
        ("npm test", "bun run test"),
        ("npm test -- --x", "bun run test --x"),
        ("npm run show -- -- x", "bun run show -- -- x"),
        ("npm ci", "bun install --frozen-lockfile"),
        ("npm i -D vitest", "bun add -d vitest"),
        ("npm i -E left-pad", "bun add --exact left-pad"),
        ("npx vitest", "bun x vitest"),
    ],
    "pnpm-6": [
        ("npm run show -- --x", "pnpm run show -- --x"),
        ("npm test", "pnpm run test"),
    ],
    "npm": [
        ("pnpm install", "npm install"),
        ("pnpm install --frozen-lockfile", "npm ci"),
        ("yarn add -D vitest", "npm install -D vitest"),
        ("pnpm run show --x", "npm run show -- --x"),
        ("yarn test", "npm run test"),
        ("bun run show -- a", "npm run show -- a"),
        ("pnpm exec vitest", "npx vitest"),
    ],
}


@pytest.mark.parametrize("kind, command, expected", [(k, c, e) for k, cases in FLAVOURS.items() for c, e in cases])
def test_other_managers(pave_check, repo, kind, command, expected):
    make_js_project(repo, kind, dependencies={"vitest": "^1.6.0"})
    assert paved(pave_check, repo, command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "npm install -g typescript", "npm i --global typescript", "npm --prefix other install",
        "npm install --prefix other", "pnpm -C other install", "pnpm --dir other install",
        "yarn --cwd other install", "cd nowhere && npm install", "(cd sub && npm install)",
        "cd $DIR && npm install", "env -C sub npm install", "npm install --legacy-peer-deps",
        "npm run build --watch", "npm run nosuchscript", "bun test", "bun test --watch", "pnpm install",
        "npm ci --ignore-scripts", "npx --package=x y", "npm -w pkg test", "yarn run show -- x",
        "echo 'npm install'", "xargs npm install < list",
    ],
)
def test_left_alone(pave_check, repo, command):
    make_js_project(repo, "pnpm")
    (repo / "sub").mkdir()
    assert paved(pave_check, repo, command) is None


def test_rest_of_the_command_is_byte_for_byte(pave_check, repo):
    make_js_project(repo, "pnpm")
    command = "FOO='a  b' npm  ci   >  log.txt 2>&1 && { npm  run  build -- --x ; } | tee  out # npm test\n"
    assert paved(pave_check, repo, command) == (
        "FOO='a  b' pnpm install --frozen-lockfile   >  log.txt 2>&1 && { pnpm run build --x ; } | tee  out # npm test\n"
    )


def test_cd_into_a_sub_project_is_followed(pave_check, repo):
    make_js_project(repo, "npm")
    make_js_project(repo / "web", "pnpm")
    assert paved(pave_check, repo, "cd web && npm install && cd .. && npm install") == (
        "cd web && pnpm install && cd .. && npm install"
    )
    assert paved(pave_check, repo / "web", "npm ci; cd ..; yarn add x") == (
        "pnpm install --frozen-lockfile; cd ..; npm install x"
    )


@pytest.mark.parametrize(
    "setup",
    ["two lockfiles", "packageManager contradicts"],
)
def test_ambiguous_projects_are_never_paved(pave_check, dp, repo, setup):
    make_js_project(repo, "pnpm", package_manager="yarn@1.22.22" if setup != "two lockfiles" else "")
    if setup == "two lockfiles":
        (repo / "yarn.lock").write_text("# yarn lockfile v1\n")
    assert paved(pave_check, repo, "npm install") is None
    advice = call(pave_check, repo, "npm install", "--mode", "advise")
    assert "ambiguous" in advice["additionalContext"], advice
    tasks = dp("tasks", cwd=repo)
    assert ("set packageManager" in tasks.stdout) or ("delete pnpm-lock.yaml" in tasks.stdout), tasks.stdout


def test_told_once_per_session(pave_check, repo, db_path):
    db_path.parent.mkdir(exist_ok=True)  # dp's directory (dp init creates it): where the session log lives
    make_js_project(repo, "pnpm")
    first = call(pave_check, repo, "npm install")["additionalContext"]
    second = call(pave_check, repo, "npm test")["additionalContext"]
    other = call(pave_check, repo, "npm test", session="s2")["additionalContext"]
    assert first == "dp: this repository uses pnpm (pnpm-lock.yaml found: pnpm): ran `pnpm install` instead of `npm install`"
    assert second == "dp: ran `pnpm run test` instead of `npm test`"
    assert other.startswith("dp: this repository uses pnpm")


def test_user_rules_win(pave_check, dp, repo):
    make_js_project(repo, "pnpm")
    assert dp("alias", "--cmd", "npm", "--flag", "D", "save-dev").returncode == 0
    output = call(pave_check, repo, "npm i -D x && npx vitest")
    assert output["updatedInput"]["command"] == "npm i --save-dev x && pnpm dlx vitest"


def test_detection_follows_the_files(pave_check, repo):
    make_js_project(repo, "pnpm")
    assert paved(pave_check, repo, "npm install") == "pnpm install"
    (repo / "pnpm-lock.yaml").unlink()
    (repo / "bun.lock").write_text("{}\n")
    assert paved(pave_check, repo, "npm install") == "bun install"


def test_switch_off_globally_and_per_project(pave_check, dp, repo, tmp_path):
    make_js_project(repo, "pnpm")
    other = make_js_project(tmp_path / "other", "pnpm")
    git_init(other)
    off = dp("paving", "off", "--project", "--cwd", repo)
    assert off.returncode == 0, off.stderr
    assert paved(pave_check, repo, "npm install") is None
    assert paved(pave_check, other, "npm install") == "pnpm install"
    assert dp("paving", "off").returncode == 0
    assert paved(pave_check, other, "npm install") is None
    assert dp("paving", "on").returncode == 0
    assert paved(pave_check, other, "npm install") == "pnpm install"
    assert paved(pave_check, repo, "npm install") is None  # the project stays off until switched on
    assert dp("paving", "on", "--project", "--cwd", repo).returncode == 0
    assert paved(pave_check, repo, "npm install") == "pnpm install"


@pytest.mark.parametrize("kind", ["npm", "yarn"])
def test_a_download_only_exec_becomes_npx_only_in_a_trusted_repository(pave_check, dp, repo, kind):
    """npx runs node_modules/.bin/cowsay first, where pnpm dlx never does (dp.paving.reach)."""
    make_js_project(repo, kind)
    assert paved(pave_check, repo, "pnpm dlx cowsay") is None
    said = call(pave_check, repo, "pnpm dlx cowsay", "--verbose")["additionalContext"]
    assert "this repository is not trusted" in said and "node_modules/.bin/cowsay" in said, said
    trust(dp, repo)
    assert paved(pave_check, repo, "pnpm dlx cowsay") == "npx cowsay"


def test_yarn_1_never_runs_a_script_for_npx(pave_check, repo):
    make_js_project(repo, "yarn", dependencies={"show": "1.0.0"})
    said = call(pave_check, repo, "npx show", "--verbose")["additionalContext"]
    assert said == "dp: left `npx` as it is: `yarn run show` would run the package.json script 'show', not the program"


def test_a_manager_the_user_has_not_installed_is_not_paved_to(pave_check, repo):
    make_js_project(repo, "pnpm")
    output = call(pave_check, repo, "npm test", "--verbose", extra_env={"PATH": SYSTEM_PATH})
    assert output == {"hookEventName": "PreToolUse",
                      "additionalContext": "dp: left `npm` as it is: pnpm is not installed here (PATH has no pnpm)"}


def trust(dp, repo):
    proc = dp("trust", cwd=repo)
    assert proc.returncode == 0, proc.stderr


def test_python_tool_in_the_environment_runs_through_the_manager(pave_check, dp, repo):
    make_python_project(repo, "uv", tools=("ruff",))
    trust(dp, repo)
    assert paved(pave_check, repo, "ruff check . && echo done") == "uv run --frozen ruff check . && echo done"
    assert paved(pave_check, repo, "mypy src") is None  # not in the environment
    advice = call(pave_check, repo, "pip install requests")
    assert "updatedInput" not in advice
    assert advice["additionalContext"].endswith("adds dependencies with `uv add requests`; pip would bypass its lockfile")


@pytest.mark.parametrize("manager, prefix", [("poetry", "poetry run"), ("pdm", "pdm run")])
def test_other_python_managers(pave_check, dp, repo, manager, prefix):
    make_python_project(repo, manager, tools=("ruff",))
    trust(dp, repo)
    assert paved(pave_check, repo, "ruff check") == f"{prefix} ruff check"


def test_python_project_without_environment_is_left_alone(pave_check, dp, repo):
    make_python_project(repo, "uv", environment=False)
    trust(dp, repo)
    assert paved(pave_check, repo, "ruff check") is None


def test_task_of_a_missing_runner(pave_check, dp, repo):
    make_js_project(repo, "pnpm")
    trust(dp, repo)
    assert paved(pave_check, repo, "make test") == "pnpm run test"
    assert paved(pave_check, repo, "make tset") is None
    assert paved(pave_check, repo, "just build") == "pnpm run build"


def test_npm_test_in_a_makefile_project(pave_check, dp, repo):
    (repo / "Makefile").write_text(".PHONY: test\ntest:\n\t@echo ok\n")
    trust(dp, repo)
    assert paved(pave_check, repo, "npm test") == "make test"
    assert paved(pave_check, repo, "npm run lint") is None


def test_no_project_no_parse(pave_check, tmp_path):
    assert call(pave_check, tmp_path, "npm install") is None


def test_npm_test_in_a_cargo_project(pave_check, dp, repo):
    (repo / "Cargo.toml").write_text('[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n')
    trust(dp, repo)
    output = call(pave_check, repo, "npm test")
    assert output["updatedInput"]["command"] == "cargo test"
    assert "this project has no package.json, and only cargo defines that task" in output["additionalContext"]
    assert paved(pave_check, repo, "npm test -- --nocapture") is None  # cargo takes arguments differently


def test_python_dash_m_only_when_the_interpreter_on_path_lacks_the_module(pave_check, dp, repo):
    make_python_project(repo, "uv", tools=())
    trust(dp, repo)
    (repo / ".venv" / "lib" / "python3.11" / "site-packages" / "fixturemod").mkdir(parents=True)
    (repo / ".venv" / "lib" / "python3.11" / "site-packages" / "json").mkdir()
    assert paved(pave_check, repo, "python3 -m fixturemod -v") == "uv run --frozen python3 -m fixturemod -v"
    assert paved(pave_check, repo, "python3 -m json.tool x.json") is None  # PATH's python3 has json
    assert paved(pave_check, repo, "python3 -c 'import fixturemod'") is None


def test_a_manager_without_a_table_is_left_alone_and_user_rules_still_apply(pave_check, dp, repo, tools, tmp_path):
    make_js_project(repo, "npm", package_manager="deno@2.1.0", lockfile=False)
    assert dp("alias", "--cmd", "oldtool", "--replace", "newtool").returncode == 0
    agent_bin = programs_dir(tmp_path / "agent-bin", newtool="true")  # the rule leads to a program the agent has
    output = call(pave_check, repo, "npm install && oldtool -n x f", extra_env={"PATH": f"{agent_bin}:{tools}:{SYSTEM_PATH}"})
    assert output["updatedInput"]["command"] == "npm install && newtool -n x f"


def test_paving_without_a_store_creates_nothing(pave_check, repo, tmp_path):
    make_js_project(repo, "pnpm")
    missing = tmp_path / "no-dp-dir" / "dp.db"
    assert paved(pave_check, repo, "npm install", "--db", str(missing)) == "pnpm install"
    assert not missing.parent.exists()
