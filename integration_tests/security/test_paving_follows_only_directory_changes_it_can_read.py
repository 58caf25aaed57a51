"""Finding 3 (issue 46): trusted paving followed the agent into an untrusted tree.

Paving read ``cd DIR &&`` only for ``cd``/``pushd``/``popd``. With the hook's cwd in a trusted
repository (a Makefile, no package.json), ``builtin cd ../evil && npm test``, ``eval cd ../evil &&
npm test``, ``eval "cd ../evil"; npm test``, ``exec 3>&1; builtin cd ../evil; npm test`` and
``source /dev/stdin <<< 'cd ../evil'; npm test`` were read as running in the trusted repository and
became ``… make test``, which ran the untrusted ``../evil/Makefile`` (``npm test`` alone runs
nothing there: no package.json). The other way round, a ``cd`` dp followed where bash does not go
(``echo $(cd ../good)``, ``cd link/..`` through a committed symlink, ``cd tools`` with CDPATH set)
carried the trusted repository's decision into the hostile one the command runs in.

Now the directory is known only through the forms dp follows exactly (dp/paving/where.py), and an
unknown directory gets no paving. Each test builds the trees as an attacker would, asks the real
``pave-check`` with Claude Code's JSON, runs whatever it lets through with the real bash and the
real make in the agent's directory, and checks the hostile Makefile's markers are absent. The
positive tests show paving still follows a plain ``cd``: ``cd sub && npm test`` in a trusted pnpm
project becomes ``cd sub && pnpm run test`` and runs the script with the real pnpm.
"""

from __future__ import annotations

import json
import shutil

import pytest
from real_managers import install_manager, manager_environment

from security.agent import Agent, as_let_through
from security.repository import cloned_repository, hostile_task_files

TRUSTED_MAKEFILE = ".PHONY: test build\ntest:\n\t@echo trusted tests ran in $$(basename $$PWD)\nbuild:\n\t@echo built\n"

# The finding's spellings, each with the hook's cwd in the trusted repository.
FINDING = [
    "builtin cd ../evil && npm test",
    "eval cd ../evil && npm test",
    'eval "cd ../evil"; npm test',
    "exec 3>&1; builtin cd ../evil; npm test",
    "source /dev/stdin <<< 'cd ../evil'; npm test",
]
# More ways to move the shell before the command, or after it in the text but before its next run.
MORE = [
    ". /dev/stdin <<< 'cd ../evil'; npm test",
    "\\cd ../evil; npm test",
    "c=cd; $c ../evil; npm test",
    "{c,}d ../evil; npm test",
    "trap 'cd ../evil' DEBUG; npm test",
    "mapfile -t -C 'cd ../evil #' -c 1 lines <<< x; npm test",
    "shopt -s expand_aliases\nalias make='cd ../evil && make'\nnpm test",
    "for d in ../evil ../evil; do npm test; cd $d; done",
    "printf '../evil\\n../evil\\n' | while read d; do npm test; cd $d; done",
]
# Spellings main already held, kept so that they stay held.
HELD = [
    "command cd ../evil && npm test",
    "pushd ../evil && npm test",
    "cd ../evil && npm test",  # followed: the untrusted repository's own trust decides
    "(cd ../evil; npm test)",
    "go() { cd ../evil; }; go; npm test",
]


@pytest.fixture
def trees(tmp_path, markers) -> dict:
    """``work/good``, trusted (a Makefile with ``test``, no package.json), and ``work/evil`` beside it,
    untrusted, whose Makefile, justfile and Taskfile mark when anything reads or runs them."""
    work = tmp_path / "work"
    good = cloned_repository(work / "good", {"Makefile": TRUSTED_MAKEFILE, "tools/Makefile": TRUSTED_MAKEFILE,
                                              "sub/README.md": "docs\n"}, markers)
    evil = cloned_repository(work / "evil", hostile_task_files(markers), markers)
    agent = Agent(tmp_path, [])
    said = agent.dp("trust", cwd=good)
    assert "Trusted" in said or "No project rules" in said, said
    return {"good": good, "evil": evil, "agent": agent}


def _left_as_typed_and_ran_nothing(trees, markers, command: str, cwd) -> None:
    agent = trees["agent"]
    ran, answer = as_let_through(agent, command, cwd)
    agent.run(ran, cwd)  # the real bash and make, where the agent's Bash tool runs it
    markers.assert_none(f"{command!r} let through as {ran!r}")
    assert ran == command, answer


@pytest.mark.parametrize("command", FINDING + MORE + HELD)
def test_a_directory_change_dp_cannot_follow_leaves_the_command_as_typed(trees, markers, command):
    _left_as_typed_and_ran_nothing(trees, markers, command, trees["good"])


def test_the_command_says_why_it_was_left(trees):
    _, answer = as_let_through(trees["agent"], "builtin cd ../evil && npm test", trees["good"])
    assert answer["additionalContext"] == (
        "dp: left `npm` as it is: the command runs in a directory dp cannot tell from the command line")


@pytest.mark.parametrize("case", ["substitution", "symlink", "cdpath"])
def test_a_cd_bash_does_not_take_as_dp_would_read_it_carries_no_trust_into_the_hostile_repository(
        trees, markers, tmp_path, case):
    """The other way round: a ``cd`` points dp at the trusted repository while bash stays in (or goes
    to) a hostile one."""
    evil, good = trees["evil"], trees["good"]
    if case == "substitution":  # the cd runs in $( )'s subshell: npm test runs in evil
        _left_as_typed_and_ran_nothing(trees, markers, "echo $(cd ../good); npm test", evil)
    elif case == "symlink":  # committed by the attacker: link/.. is evil for bash, good after the link
        (evil / "link").symlink_to(good / "sub")
        _left_as_typed_and_ran_nothing(trees, markers, "cd link/.. && npm test", evil)
    else:  # bash's `cd tools` goes to the first CDPATH entry that has a tools, before ./tools
        cdpath = tmp_path / "cdpath"
        cloned_repository(cdpath / "tools", hostile_task_files(markers), markers)
        trees["agent"].env["CDPATH"] = str(cdpath)
        _left_as_typed_and_ran_nothing(trees, markers, "cd tools && npm test", good)


@pytest.mark.parametrize("command, paved", [
    ("npm test", "make test"),
    ("cd tools && npm test", "cd tools && make test"),
    ("set -e; cd tools; npm test", "set -e; cd tools; make test"),
    ("# run the tests\ncd ./tools && npm test", "# run the tests\ncd ./tools && make test"),
    ("exec 3>&1; npm test", "exec 3>&1; make test"),
    ("export NODE_ENV=test && cd sub/../tools && npm test", "export NODE_ENV=test && cd sub/../tools && make test"),
    ("npm run build 2>&1 | tail -5 && npm test", "make build 2>&1 | tail -5 && make test"),
])
def test_a_plain_cd_in_a_trusted_repository_still_paves(trees, markers, command, paved):
    """Safe and compatible: what dp follows exactly is paved as before, and runs the trusted Makefile."""
    agent = trees["agent"]
    ran, answer = as_let_through(agent, command, trees["good"])
    assert ran == paved, answer
    result = agent.run(ran, trees["good"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "trusted tests ran in " in result.stdout
    markers.assert_none(command)


@pytest.fixture(scope="module")
def pnpm_bin():
    return install_manager("pnpm")


def test_cd_sub_and_npm_test_in_a_trusted_pnpm_project_becomes_pnpm_run_test(tmp_path, markers, pnpm_bin):
    manifest = {"name": "widget", "version": "1.0.0", "private": True, "scripts": {"test": "echo widget"}}
    package = {"name": "widget-sub", "version": "1.0.0", "private": True,
               "scripts": {"test": "node -e \"console.log('sub tested')\""}}
    repo = cloned_repository(tmp_path / "widget", {"package.json": json.dumps(manifest),
                                                   "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
                                                   "sub/package.json": json.dumps(package)}, markers)
    shutil.rmtree(repo / "node_modules")  # a fresh clone has none
    agent = Agent(tmp_path, [pnpm_bin])
    agent.env.update(manager_environment() | {"PATH": agent.path, "HOME": str(agent.home)})
    agent.dp("trust", cwd=repo)
    ran, answer = as_let_through(agent, "cd sub && npm test", repo)
    assert ran == "cd sub && pnpm run test", answer
    result = agent.run(ran, repo)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "sub tested" in result.stdout
    markers.assert_none("cd sub && npm test")
