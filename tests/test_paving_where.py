"""Where paving reads a command as running (dp.paving.where), on the real parse and a real tree.

Each spelling is parsed by dp.shell.segment as the hook parses it, and the last ``npm`` is placed:
in the hook's cwd, in the directory a plain ``cd`` leads to, or nowhere (None) when anything before
it could move the shell in a way dp does not follow. The security suite runs the same through the
real hook, bash and make (integration_tests/security/test_paving_follows_only_directory_changes_it_can_read.py).
"""

from __future__ import annotations

import os

import pytest

from dp.paving.where import directory
from dp.shell.segment import simple_commands


@pytest.fixture
def tree(tmp_path):
    """``repo`` with ``sub/``, a symlink ``link`` into ``other/deep`` (so ``link/..`` differs between
    bash's logical reading and the physical one), and ``other`` beside it."""
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    (tmp_path / "other" / "deep").mkdir(parents=True)
    (repo / "link").symlink_to(tmp_path / "other" / "deep")
    return repo


def where(text: str, cwd) -> str | None:
    commands = simple_commands(text)
    assert commands, text
    npm = [command for command in commands if command.name == "npm"][-1]
    found = directory(text, commands, npm, str(cwd))
    return None if found is None else os.path.relpath(found, cwd)


@pytest.mark.parametrize("text", [
    "npm test", "npm ci && npm test", "exec 3>&1; npm test", "export NODE_ENV=test; npm test",
    "printf 'x\\n'; npm test", "set -euo pipefail; npm test", "# the tests\nnpm test",
    "if [ -f package.json ]; then npm test; fi", "echo $(date) && npm test", "command -v pnpm && npm test",
    "npm run build 2>&1 | tail -5 && npm test", "npm test # done",
    "cat > t.js <<'EOF'\ncd elsewhere\nEOF\nnpm test", "git commit -F - <<EOF && npm test\nfix: it\nEOF",
])
def test_nothing_before_the_command_moves_the_shell(tree, text):
    assert where(text, tree) == "."


@pytest.mark.parametrize("text", [
    "cd sub && npm test", "cd sub; npm test", "cd ./sub && npm test", "cd sub/../sub && npm test",
    "cd sub\nnpm test", "set -e; cd sub; npm ci && npm test", "# go in\ncd sub && npm test",
    "cd sub # go in\nnpm test", "cat > t.js <<EOF\nx\nEOF\ncd sub && npm test",
])
def test_a_plain_cd_is_followed(tree, text):
    assert where(text, tree) == "sub"


def test_an_absolute_cd_and_home_are_followed(tree, monkeypatch):
    assert where(f"cd {tree}/sub && npm test", tree) == "sub"
    monkeypatch.setenv("HOME", str(tree))
    assert where("cd ~/sub && npm test", tree) == "sub"


@pytest.mark.parametrize("text", [
    # directory builtins dp does not follow, and cd in forms it cannot read
    "builtin cd sub && npm test", "command cd sub && npm test", "time cd sub; npm test", "pushd sub && npm test",
    "popd; npm test", "cd $DIR && npm test", "cd 'sub' && npm test", "cd -P sub && npm test", "cd - && npm test",
    "cd && npm test", "cd nowhere; npm test", "X=1 cd sub && npm test", "cd s* && npm test", "cd su? && npm test",
    "2>/dev/null cd sub && npm test", "cd ~nobody-here/x && npm test",
    # text run in this shell
    "eval cd sub && npm test", 'eval "cd sub"; npm test', "source /dev/stdin <<< 'cd sub'; npm test",
    "source /dev/stdin <<EOF\ncd sub\nEOF\nnpm test",
    ". ./env.sh; npm test", "trap 'cd sub' DEBUG; npm test", "mapfile -C 'cd sub #' -c 1 x <<< y; npm test",
    # what a later word means, or a variable a later cd or lookup reads
    "shopt -s cdable_vars; npm test", "alias make='cd sub; make'\nnpm test", "enable -n cd; npm test",
    "hash -p /tmp/make make; npm test", "export PATH=/tmp:$PATH; npm test", "export CDPATH=/tmp; cd sub; npm test",
    "declare -x HOME=/tmp; npm test", "read CDPATH <<< /tmp; npm test", "printf -v CDPATH /tmp; npm test",
    "export X=$(pwd); npm test",
    # a command word that is not a literal, or one the parse leaves out
    "$c sub; npm test", "c? sub; npm test", "{c,}d sub; npm test", "\\cd sub; npm test", "PATH=/tmp; npm test",
    "f() { cd sub; }; f; npm test", "f() { :; }; npm test", "for d in sub; do cd $d; done; npm test",
    "for d in sub sub; do npm test; cd $d; done", "while true; do npm test; cd sub; done",
    # a cd dp does not follow through a subshell, a pipeline, a condition
    "cd sub || true; npm test", "cd sub | npm test", "(cd sub) && npm test", "echo $(cd sub); npm test",
    "{ cd sub; }; npm test", "if true; then cd sub; fi; npm test",
    # bash's logical reading (the link's parent: repo) and the physical one (other) differ
    "cd link/.. && npm test",
    # the command's own wrapper runs it elsewhere
    "env -C sub npm test", "sudo --chdir=sub npm test", "sudo -D sub npm test",
])
def test_anything_else_that_could_move_the_shell_makes_the_directory_unknown(tree, text):
    assert where(text, tree) is None


def test_cdpath_makes_a_name_it_could_find_unknown(tree, monkeypatch):
    monkeypatch.setenv("CDPATH", str(tree.parent))
    assert where("cd sub && npm test", tree) is None
    assert where("cd ./sub && npm test", tree) == "sub"
    assert where(f"cd {tree}/sub && npm test", tree) == "sub"
