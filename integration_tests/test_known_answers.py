"""The answer at the first failure (issue 50): what dp knows about this machine and this project answers a
failed call with no history in the store. Each kind through the real dp-capture, with each agent's hook
JSON for a call that really failed on a real PATH in a real project (known_machine.py): the answer names
the corrected call, which then runs; a doubtful case answers nothing."""

from __future__ import annotations

import json
import sqlite3

import pytest
from known_machine import AGENTS, Machine

from dp.learn.answer import told_call


@pytest.fixture
def machine(tmp_path, env):
    return Machine(tmp_path / "machine", env)


def _answered(machine: Machine, agent: str, command: str, opening: str, corrected: str) -> None:
    """``command`` fails on ``machine`` and ``agent`` is told ``corrected``, which runs, with a text that opens
    with ``opening`` (where the knowledge came from)."""
    text = machine.fail(agent, command)
    assert text.startswith(opening), text
    assert _works(machine, text) == corrected


def _works(machine: Machine, text: str, cwd=None) -> str:
    """The corrected call the answer names, after checking it runs on this machine."""
    called = told_call(text)
    assert called, text
    code, output = machine.run(called, cwd)
    assert code == 0, output
    return called


@pytest.mark.parametrize("agent", AGENTS)
def test_rg_missing_is_answered_with_the_grep_translation_once_per_session(machine, agent, db_path):
    text = machine.fail(agent, "rg -n 'class Cart' src")
    assert text.startswith("dp: rg is not installed here; the same search with grep, every flag translated")
    assert _works(machine, text) == "grep -n -r 'class Cart' src"
    assert machine.fail(agent, "rg -n 'class Cart' src") == ""  # once per session
    assert machine.fail(agent, "rg -l TODO src", session="s2").endswith("grep -l -r -I TODO src")
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT session_id, kind, command, from_text, to_text FROM told").fetchall() == [
        ("s1", "command", "rg", "rg", "grep"), ("s2", "command", "rg", "rg", "grep")]
    # each answer is dp's action, which dp stats judges by the agent's next call
    assert conn.execute("SELECT session_id, kind, rule, rule_source, from_command, to_command FROM actions").fetchall() == [
        ("s1", "answer", "known (table): rg → grep", "known", "rg", "grep"),
        ("s2", "answer", "known (table): rg → grep", "known", "rg", "grep")]
    assert conn.execute("SELECT count(*) FROM learned").fetchone() == (0,)  # no history: nothing was learned


@pytest.mark.parametrize("agent", AGENTS)
def test_an_rg_flag_grep_has_no_exact_word_for_answers_nothing(machine, agent):
    assert machine.fail(agent, "rg -t js Cart") == ""
    assert machine.fail(agent, "rg --files -g '*.md'", session="s2") == ""


@pytest.mark.parametrize("agent", AGENTS)
def test_fd_missing_is_answered_with_find(machine, agent):
    _answered(machine, agent, "fd -e js cart src", "dp: fd is not installed here; the same search with find",
              "find src -mindepth 1 -iname '*cart*' -iname '*.js'")
    assert machine.fail(agent, "fd -x wc -l", session="s2") == ""  # fd's --exec has no one-for-one find word


@pytest.mark.parametrize("agent", AGENTS)
def test_python_missing_is_answered_with_python3_and_two_pythons_with_nothing(machine, agent, db_path):
    machine.script(machine.bin / "python3.99")  # another python3 beside it: python3 is still the name
    text = machine.fail(agent, "python -c 'print(6 * 7)' 2>&1 && echo done")
    # the failure is python's, not the 1 of 2>&1 (bash's message says "line 1: python: …")
    assert sqlite3.connect(db_path).execute("SELECT command FROM desires").fetchall() == [("python",)]
    assert text.startswith("dp: python is not installed here; python3 is, another name of the same program")
    assert _works(machine, text) == "python3 -c 'print(6 * 7)' 2>&1 && echo done"
    machine.script(machine.bin / "python2")  # which of the two was meant, dp cannot know
    assert machine.fail(agent, "python -V", session="s2") == ""


@pytest.mark.parametrize("agent", AGENTS)
def test_a_missing_interpreter_is_the_failure_whatever_follows_it(machine, agent, db_path):
    """Real agents' calls, as the replayed sessions hold them: ``python3 -m py_compile x && echo "✓ …"``, whose
    shape is ``python -m …`` (the failure is the interpreter's, not the echo's: it was stored as ``echo``'s,
    and nothing answered), and a script fed to it as a heredoc (its lines are no commands: the failure was
    stored as ``class``'s; a call of many lines is never repeated to the agent, so it is answered nothing)."""
    text = machine.fail(agent, "python -m json.tool package.json > /dev/null && echo '✓ valid'")
    assert _works(machine, text) == "python3 -m json.tool package.json > /dev/null && echo '✓ valid'"
    script = "python - <<'PY'\nimport json\nclass Cart:\n    total = 0\nprint(json.dumps({'total': Cart.total}))\nPY"
    assert machine.fail(agent, script, session="s2") == ""
    assert sqlite3.connect(db_path).execute("SELECT command FROM desires").fetchall() == [
        ("python -m json.tool",), ("python",)]


@pytest.mark.parametrize("agent", AGENTS)
def test_pip_missing_is_answered_with_python3s_own_pip(machine, agent):
    _answered(machine, agent, "pip --version", "dp: pip is not installed here; python3 is, and its library has pip",
              "python3 -m pip --version")


@pytest.mark.parametrize("agent", AGENTS)
def test_a_dump_without_xxd_or_hexdump_is_answered_with_od_where_it_means_the_same(machine, agent):
    machine.add("od")
    text = machine.fail(agent, "xxd -l 16 assets/logo.png")
    assert "od is, and shows the same dump" in text
    assert _works(machine, text) == "od -A x -t x1z -v -N 16 assets/logo.png"
    assert machine.fail(agent, "hexdump -C -n 8 assets/logo.png > logo.hex", session="s2").endswith(
        "od -A x -t x1z -v -N 8 assets/logo.png > logo.hex")
    # xxd -r writes a file, hexdump without -C prints 16-bit words: no od call means the same
    assert machine.fail(agent, "xxd -r dump.hex logo.png", session="s3") == ""
    assert machine.fail(agent, "hexdump assets/logo.png", session="s4") == ""


@pytest.mark.parametrize("agent", AGENTS)
def test_a_wrapper_of_the_project_is_told_only_in_a_trusted_repository(machine, agent, dp):
    machine.script(machine.project / "mvnw", "#!/bin/sh\necho \"maven wrapper: $*\"\n")
    assert machine.fail(agent, "mvn -q test") == ""  # the repository's own program: not until dp trust
    assert dp("trust", cwd=machine.project).returncode == 0
    text = machine.fail(agent, "mvn -q test", session="s2")
    assert text.startswith("dp: mvn is not on PATH; this repository's own wrapper ./mvnw has it (you trust this")
    assert _works(machine, text) == "./mvnw -q test"


@pytest.mark.parametrize("agent", AGENTS)
def test_a_program_of_node_modules_or_the_virtualenv_is_told_in_a_trusted_repository(machine, agent, dp):
    machine.add("node", "npx")
    machine.script(machine.project / "node_modules" / ".bin" / "tsc", "#!/bin/sh\necho \"tsc $*\"\n")
    machine.script(machine.project / ".venv" / "bin" / "pytest", "#!/bin/sh\necho \"pytest $*\"\n")
    for both in (machine.project / "node_modules" / ".bin" / "eslint", machine.project / ".venv" / "bin" / "eslint"):
        machine.script(both)
    assert dp("trust", cwd=machine.project).returncode == 0
    assert _works(machine, machine.fail(agent, "tsc -p . --noEmit")) == "npx tsc -p . --noEmit"
    assert _works(machine, machine.fail(agent, "pytest -q tests")) == ".venv/bin/pytest -q tests"
    assert machine.fail(agent, "eslint src", session="s2") == ""  # two of them: which one, dp cannot know


@pytest.mark.parametrize("agent", AGENTS)
def test_a_missing_npm_script_is_answered_with_the_scripts_the_project_has(machine, agent):
    machine.add("node", "npm")
    text = machine.fail(agent, "npm run tset -- --watch")
    assert text.startswith("dp: package.json has no script `tset`; it has `test`:")
    assert told_call(text) == "npm run test -- --watch"
    text = machine.fail(agent, "npm run check", session="s2")  # nothing a slip away: the scripts, closest first
    assert text == "dp: package.json has no script `check`. Its scripts, closest first: `test`, `build`, `lint`, `test:unit`."
    assert told_call(text) is None


@pytest.mark.parametrize("agent", AGENTS)
def test_yarns_missing_script_is_answered_from_the_same_package_json(machine, agent):
    """Yarn 1 (``error Command "tset" not found.``) and Yarn 2+ (``Couldn't find a script named``), as they print
    it: the same scripts, named by Yarn's own call. Yarn is not on this machine, so its output is given."""
    yarn1 = 'yarn run v1.22.22\nerror Command "tset" not found.\ninfo Visit https://yarnpkg.com/en/docs/cli/run ' \
            'for documentation about this command.\n'
    assert told_call(machine.told(agent, "yarn tset --watch", 1, yarn1)) == "yarn test --watch"
    berry = 'Usage Error: Couldn\'t find a script named "tset".\n\n$ yarn run [--inspect] <scriptName> ...\n'
    assert told_call(machine.told(agent, "yarn run tset", 1, berry, session="s2")) == "yarn run test"
    assert machine.told(agent, "yarn run test", 1, "FAIL test/cart.test.js\n", session="s3") == ""  # it exists


@pytest.mark.parametrize("agent", AGENTS)
def test_make_just_and_task_name_the_target_or_recipe_the_project_has(machine, agent):
    machine.add("make", "just", "task", "echo")
    (machine.project / "Makefile").write_text(".PHONY: test build\ntest:\n\t@echo tests pass\nbuild:\n\t@echo built\n")
    (machine.project / "justfile").write_text("# run the tests\ntest:\n    echo tests pass\n\nlint:\n    echo ok\n")
    (machine.project / "Taskfile.yml").write_text("version: '3'\ntasks:\n  test:\n    cmds: [echo tests pass]\n")
    for session, command, fixed in (("m", "make tset", "make test"), ("j", "just tets", "just test"),
                                    ("t", "task tset", "task test")):
        text = machine.fail(agent, command, session)
        assert _works(machine, text) == fixed, text


@pytest.mark.parametrize("agent", AGENTS)
def test_make_381s_quotes_name_the_missing_target_too(machine, agent):
    """GNU make 3.81, the make macOS ships, quotes the target `so' (4.x: 'so'): the same failure, answered."""
    machine.add("make", "echo")
    (machine.project / "Makefile").write_text(".PHONY: test\ntest:\n\t@echo tests pass\n")
    text = machine.told(agent, "make tset", 2, "make: *** No rule to make target `tset'.  Stop.\n")
    assert _works(machine, text) == "make test"


@pytest.mark.parametrize("agent", AGENTS)
def test_a_task_in_a_subdirectory_is_read_where_the_call_ran(machine, agent):
    machine.add("make", "echo")
    (machine.project / "api").mkdir()
    (machine.project / "api" / "Makefile").write_text("migrate:\n\t@echo migrated\n")
    text = machine.fail(agent, "cd api && make migrat")
    assert _works(machine, text) == "cd api && make migrate"


@pytest.mark.parametrize("agent", AGENTS)
def test_literal_slips_are_answered_with_the_same_characters_spaced(machine, agent):
    _answered(machine, agent, "find. -name '*.js'", "dp: find. is no program; the same characters with a space run find",
              "find . -name '*.js'")
    assert _works(machine, machine.fail(agent, "ls-la src", session="s2")) == "ls -la src"
    assert _works(machine, machine.fail(agent, "cd.. && ls", session="s3"), machine.project / "src") == "cd .. && ls"
    # git-log is `git log`, not `git -log`; python3.99 is a program of its own: no answer
    assert machine.fail(agent, "git-log --oneline", session="s4") == ""
    assert machine.fail(agent, "python3.99 -V", session="s5") == ""


def test_the_agents_own_edit_tool_answers_a_shell_apply_patch(machine):
    command = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/cart.js\n@@\n-  total() { return 0 }\n" \
              "+  total() { return 1 }\n*** End Patch\nEOF"
    assert machine.fail("claude", command) == ("dp: apply_patch is no program on this machine: it is an agent's tool, "
                                               "not a shell command. In Claude Code call the Edit and Write tools "
                                               "instead.")
    assert machine.fail("gemini", command).endswith("In Gemini CLI call the replace and write_file tools instead.")
    assert machine.fail("codex", command) == ""  # Codex runs apply_patch itself: no other tool to name


@pytest.mark.parametrize("agent", AGENTS)
def test_a_failure_no_knowledge_mends_answers_nothing(machine, agent):
    machine.add("node", "npm")
    assert machine.fail(agent, "grep -rn 'class Order' src") == ""  # found nothing: a search, not a fault
    assert machine.fail(agent, "ls src/missing.js", session="s2") == ""
    assert machine.fail(agent, "cargo build", session="s3") == ""  # nothing on PATH stands in for cargo
    assert machine.fail(agent, "node -e 'process.exit(3)'", session="s4") == ""


def test_a_learned_answer_of_the_same_change_is_not_told_again(machine, dp):
    """rg → grep told from knowledge; the same change learned from history later stays told once."""
    assert machine.fail("claude", "rg -n Cart src").endswith("grep -n -r Cart src")
    assert machine.fail("claude", "rg -i cart src") == ""
    rows = json.loads(dp("desires", "--json").stdout)
    assert [row["tool_input"]["command"] for row in rows] == ["rg -i cart src", "rg -n Cart src"]
