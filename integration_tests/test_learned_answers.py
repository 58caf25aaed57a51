"""The answer at the moment of failure (issue 39): dp-capture, fed a session's failures and fixes as
the real hook JSON, learns (through dp suggest / dp ingest, never in the hook) what the agents ran next
and tells the agent the corrected call right after the same failure recurs, once per session."""

from __future__ import annotations

import itertools
import json
import sqlite3
from pathlib import Path

import pytest
from capture_support import failure, run_capture, stored, success, transcript_lines

NOT_FOUND = "Exit code 127\n/bin/bash: line 1: {}: command not found"
_CALLS = itertools.count()


@pytest.fixture
def programs(env, tmp_path):
    """The hook's PATH: stub programs only (python3, uv, …), so `python` is missing as on the agents' machines;
    python2 among them, so that what dp knows cannot tell which Python `python` meant (it says nothing then,
    test_known_answers.py): these tests are about what history knows."""
    directory = tmp_path / "bin"
    directory.mkdir()

    def put(*names):
        for name in (*names, "python2"):
            stub = directory / name
            stub.write_text("#!/bin/sh\nexit 0\n")
            stub.chmod(0o755)
        env["PATH"] = str(directory)

    return put


def _session(env, name, *events):
    for event in events:
        call = f"toolu_{next(_CALLS)}"
        assert run_capture({**event, "session_id": name, "tool_use_id": call}, env=env).returncode == 0


def _learn(dp) -> list[dict]:
    proc = dp("suggest", "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _told(env, event, session="later") -> str:
    proc = run_capture({**event, "session_id": session}, env=env)
    assert proc.returncode == 0 and proc.stderr == b""
    if not proc.stdout:
        return ""
    output = json.loads(proc.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "PostToolUseFailure"
    return output["additionalContext"]


def _two_sessions_fixing(env, failed, error, fixed, cwd="/work/app"):
    for name in ("first", "second"):
        _session(env, name, failure(failed, error, cwd=cwd), success("ls", cwd=cwd), success(fixed, cwd=cwd))


def test_a_recurring_failure_is_answered_with_the_corrected_call_once_per_session(dp, env, programs, db_path):
    programs("python3")
    _two_sessions_fixing(env, "python manage.py test", NOT_FOUND.format("python"), "python3 manage.py test")
    [rule] = _learn(dp)
    assert rule["alias"] == ["--cmd", "python", "--replace", "python3"] and rule["sessions"] == 2
    assert rule["evidence"][0]["then"] == "python3 manage.py test"

    text = _told(env, failure("cd api && python -m pytest -q tests", NOT_FOUND.format("python"), tool_use_id="x1"))
    assert text.endswith("Run this instead:\ncd api && python3 -m pytest -q tests")
    assert "2 earlier sessions" in text
    # once per session and answer; another session hears it again
    assert _told(env, failure("python x.py", NOT_FOUND.format("python"), tool_use_id="x2")) == ""
    assert _told(env, failure("python x.py", NOT_FOUND.format("python"), tool_use_id="x3"), "other").endswith(
        "python3 x.py")
    # the failure is stored all the same
    assert len(stored(db_path, "session_id = 'later' AND outcome = 'failure'")) == 2


def test_no_answer_for_another_kind_of_failure_or_a_missing_replacement(dp, env, programs, tmp_path):
    programs("python3")
    _two_sessions_fixing(env, "python manage.py test", NOT_FOUND.format("python"), "python3 manage.py test")
    _learn(dp)
    # python ran and its tests failed: not what the answer mends
    assert _told(env, failure("python manage.py test", "Exit code 1\nFAILED tests/test_x.py", tool_use_id="y1")) == ""
    # a success says nothing
    proc = run_capture({**success("python3 x.py"), "session_id": "later"}, env=env)
    assert (proc.returncode, proc.stdout) == (0, b"")
    env["PATH"] = str(tmp_path / "no-programs")  # python3 gone too: an answer never leads to a missing program
    assert _told(env, failure("python y.py", NOT_FOUND.format("python"), tool_use_id="y2"), "third") == ""


def test_one_session_is_evidence_not_an_answer(dp, env, programs):
    programs("python3")
    _session(env, "only", failure("python a.py", NOT_FOUND.format("python")), success("python3 a.py"),
             failure("python b.py", NOT_FOUND.format("python")), success("python3 b.py"))
    assert _learn(dp) == []
    assert _told(env, failure("python c.py", NOT_FOUND.format("python"), tool_use_id="z")) == ""


def test_a_retry_or_an_unrelated_success_is_no_fix(dp, env, programs):
    programs("python3", "make")
    for name in ("a", "b"):
        _session(env, name, failure("python a.py", NOT_FOUND.format("python")), success("make build"),
                 success("python a.py"))
    assert _learn(dp) == []


def test_literal_recipe_and_repository_path_answers(dp, env, programs, tmp_path):
    programs("find", "uv")
    repo = tmp_path / "svc"
    repo.mkdir()
    (repo / "mvnw").write_text("#!/bin/sh\n")
    (repo / "mvnw").chmod(0o755)
    _two_sessions_fixing(env, "find. -name '*.py'", NOT_FOUND.format("find."), "find . -name '*.py'")
    _two_sessions_fixing(env, "pip install requests", "Exit code 127\nbash: pip: command not found",
                         "uv pip install requests")
    _two_sessions_fixing(env, "mvn -q test", NOT_FOUND.format("mvn"), "./mvnw -q test", cwd=str(repo))
    kinds = {tuple(item["alias"][:2]): item for item in _learn(dp)}
    assert ("--recipe", "find.") in kinds and ("--recipe", "pip") in kinds and ("--recipe", "mvn") in kinds
    assert "a program of the repository" in kinds[("--recipe", "mvn")]["reason"]
    assert _told(env, failure("find. -type f", NOT_FOUND.format("find."), tool_use_id="l")).endswith("find . -type f")
    assert _told(env, failure("pip install -e .", "bash: pip: command not found", tool_use_id="r")).endswith(
        "uv pip install -e .")
    assert _told(env, failure("mvn verify", NOT_FOUND.format("mvn"), cwd=str(repo), tool_use_id="p")).endswith(
        "./mvnw verify")
    # elsewhere there is no ./mvnw: no answer
    assert _told(env, failure("mvn verify", NOT_FOUND.format("mvn"), cwd=str(tmp_path), tool_use_id="q"),
                 "elsewhere") == ""


def test_a_recipe_is_no_rule_where_its_program_is_on_path_but_stays_an_answer(dp, env, programs):
    """pip was missing in the sessions learned from; on a machine that has pip, `pip install` works as typed."""
    programs("uv", "pip")
    _two_sessions_fixing(env, "pip install requests", "Exit code 127\nbash: pip: command not found",
                         "uv pip install requests")
    assert _learn(dp) == []
    programs("uv")
    (Path(env["PATH"]) / "pip").unlink()
    assert [item["alias"] for item in _learn(dp)] == [["--recipe", "pip", "uv pip {{ args }}"]]


def test_a_program_seen_working_as_typed_gets_no_rule_but_keeps_its_answer(dp, env, programs):
    """python was missing in two sessions, and ran as typed in a third (an activated virtualenv, another
    machine): a rule would rewrite such calls too, so only the answer after a failure is learned."""
    programs("python3")
    _two_sessions_fixing(env, "python manage.py test", NOT_FOUND.format("python"), "python3 manage.py test")
    _session(env, "venv", success("source .venv/bin/activate && python manage.py migrate"))
    assert _learn(dp) == []
    text = _told(env, failure("python x.py", NOT_FOUND.format("python"), tool_use_id="v1"))
    assert text.endswith("Run this instead:\npython3 x.py")
    # asking whether python is there is not running it
    dp("desires", "--purge", "--yes")
    _two_sessions_fixing(env, "python manage.py test", NOT_FOUND.format("python"), "python3 manage.py test")
    _session(env, "probe", success("command -v python || python3 --version"))
    assert [item["alias"] for item in _learn(dp)] == [["--cmd", "python", "--replace", "python3"]]


def test_answers_learned_from_ingested_transcripts(dp, env, programs, tmp_path):
    programs("python3")
    root = tmp_path / "projects"
    for n, session in enumerate(("t1", "t2")):
        directory = root / f"-work-app{n}"
        directory.mkdir(parents=True)
        calls = [("Bash", {"command": "python setup.py --version"}, "bash: python: command not found", True),
                 ("Bash", {"command": "python3 setup.py --version"}, "1.0", False)]
        (directory / f"{session}.jsonl").write_text(transcript_lines(session, calls))
    report = json.loads(dp("ingest", "--json", "--claude-transcripts", str(root)).stdout)
    assert report["learned_answers"] == 1
    assert _told(env, failure("python -V", NOT_FOUND.format("python"), tool_use_id="i")).endswith("python3 -V")


def test_gemini_after_tool_carries_the_answer(dp, env, programs):
    programs("python3")
    _two_sessions_fixing(env, "python x.py", NOT_FOUND.format("python"), "python3 x.py")
    _learn(dp)
    payload = {"session_id": "g1", "transcript_path": "", "cwd": "/work/app", "hook_event_name": "AfterTool",
               "timestamp": "2026-11-26T10:00:01.000Z", "tool_name": "run_shell_command",
               "tool_input": {"command": "python y.py"},
               "tool_response": {"llmContent": "bash: line 1: python: command not found\nExit Code: 127",
                                 "returnDisplay": "", "error": None}}
    proc = run_capture(payload, "--agent", "gemini", env=env)
    output = json.loads(proc.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "AfterTool" and output["additionalContext"].endswith("python3 y.py")


def test_opencodes_plugin_gets_the_answer_as_a_note_once_per_session(dp, env, programs):
    """OpenCode has no hook output: dp's plugin adds dp-capture's ``note`` to the failed command's result."""
    programs("python3")
    _two_sessions_fixing(env, "python x.py", NOT_FOUND.format("python"), "python3 x.py")
    _learn(dp)

    def after(call, session="ses_1"):
        payload = {"hook_event_name": "tool.execute.after", "tool": "bash", "args": {"command": "python y.py"},
                   "session_id": session, "call_id": call, "cwd": "/work/app",
                   "output": "/bin/bash: line 1: python: command not found\n", "exit": 127}
        proc = run_capture(payload, "--agent", "opencode", env=env)
        assert proc.returncode == 0 and proc.stderr == b""
        return json.loads(proc.stdout) if proc.stdout else {}

    assert after("call_1")["note"].endswith("Run this instead:\npython3 y.py")
    assert after("call_2") == {}
    assert after("call_3", "ses_2")["note"].endswith("python3 y.py")


def test_a_store_from_before_learning_fails_open(env, db_path):
    """A store at migration 0006 (no learned table): the failure is stored, nothing is printed."""
    assert run_capture(failure("python x.py", NOT_FOUND.format("python")), env=env).returncode == 0
    conn = sqlite3.connect(db_path)
    conn.execute("DROP TABLE learned")
    conn.commit()
    conn.close()
    proc = run_capture(failure("python y.py", NOT_FOUND.format("python"), tool_use_id="b"), env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    assert len(stored(db_path, "outcome = 'failure'")) == 2


def test_a_repository_program_is_proposed_for_the_project_and_written_there(dp, env, programs, tmp_path):
    """gradle missing, the agents ran the repository's ./gradlew: one reviewable change to .dp/rules.toml."""
    programs()
    repo = tmp_path / "svc"
    (repo / ".git").mkdir(parents=True)
    (repo / "gradlew").write_text("#!/bin/sh\n")
    (repo / "gradlew").chmod(0o755)
    _two_sessions_fixing(env, "gradle build", NOT_FOUND.format("gradle"), "./gradlew build", cwd=str(repo))
    [item] = _learn(dp)
    assert item["alias"] == ["--recipe", "gradle", "./gradlew {{ args }}"]
    assert item["evidence"][0]["then"] == "./gradlew build" and "apply it with --project" in item["reason"]
    proc = dp("suggest", "--apply", item["id"], "--project", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    written = (repo / ".dp" / "rules.toml").read_text()
    assert 'from = "gradle"' in written and 'to = "./gradlew {{ args }}"' in written


def _pave(env, command: str, cwd: str) -> str:
    """What the real pave-check makes of ``command`` (the command itself when it changes nothing)."""
    import subprocess

    from hook_support import BIN

    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": cwd, "session_id": "later",
               "tool_input": {"command": command}}
    proc = subprocess.run([str(BIN / "pave-check")], input=json.dumps(payload), capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    output = json.loads(proc.stdout)["hookSpecificOutput"] if proc.stdout else {}
    return (output.get("updatedInput") or {}).get("command", command)


def test_rg_missing_is_learned_as_the_grep_table_read_backwards(dp, env, programs, tmp_path):
    """`rg -n foo src` (rg: command not found) → `grep -rn foo src`, in two sessions with different searches:
    one rule rg → grep, whose rewrites and answers translate every flag through the table, or nothing."""
    programs("grep", "ls")
    missing = "Exit code 127\n/bin/bash: line 1: rg: command not found"
    _session(env, "first", failure("cd /work/app && rg -n 'def main' src", missing),
             success("cd /work/app && grep -rn 'def main' src"))
    _session(env, "second", failure("rg -l TODO", missing), success("ls"), success("grep -R -l -I TODO ."))
    # another machine had ripgrep: no obstacle, the hook leaves rg as typed wherever it is there (below)
    _session(env, "with-rg", success("rg -n TODO src"))
    [rule] = _learn(dp)
    assert rule["alias"] == ["--cmd", "rg", "--replace", "grep"] and rule["sessions"] == 2
    # the answer at the moment of failure is the translation, flags and all
    text = _told(env, failure("rg -i -g '*.py' Cart .", missing, tool_use_id="g1"))
    assert text.endswith(":\ngrep -i --include='*.py' -r Cart .")  # what dp knows says it first: the same call
    # an rg flag with no exact grep meaning: no answer rather than a wrong one
    assert _told(env, failure("rg -t py Cart", missing, tool_use_id="g2"), "other") == ""
    assert _told(env, failure("rg --files -g '*.md'", missing, tool_use_id="g3"), "third") == ""
    # the rule, applied: pave-check translates the same way, and leaves rg -c alone
    assert dp("suggest", "--apply", rule["id"], "--act").returncode == 0
    assert _pave(env, "rg -n 'def main' src", str(tmp_path)) == "grep -n -r 'def main' src"
    assert _pave(env, "rg -c foo src", str(tmp_path)) == "rg -c foo src"
    programs("grep", "rg")  # where ripgrep is installed, rg runs as typed
    assert _pave(env, "rg -n 'def main' src", str(tmp_path)) == "rg -n 'def main' src"


def test_a_fix_that_is_not_the_translation_stays_evidence(dp, env, programs):
    """rg → `grep -c` (a count where rg listed lines), rg → `git grep`: agents' other fixes are not the table's."""
    programs("grep", "git", "sed")
    missing = "Exit code 127\n/bin/bash: line 1: rg: command not found"
    for name in ("a", "b", "c"):
        _session(env, name, failure("rg -n foo src", missing), success("grep -rc foo src"))
        _session(env, name + "-git", failure("rg foo", missing), success("git grep foo"))
        # the `cd` both begin with makes no fix of the next call (a pair once learned as rg → sed)
        _session(env, name + "-cd", failure("cd /w && rg function src/app.ts", missing),
                 success("cd /w && sed -n '160,320p' src/app.ts"))
    assert _learn(dp) == []
    # what dp knows answers with the exact translation, never with one of the agents' other searches
    assert _told(env, failure("rg -n foo src", missing, tool_use_id="n1")).endswith(":\ngrep -n -r foo src")


def test_a_store_learned_in_before_answers_had_a_scope_upgrades_losslessly(dp, env, programs, db_path):
    """A store at migration 0007 holding a rename and a recipe as dp learned them then (no repositories):
    dp-capture on it tells nothing and fails open; the first dp command brings it to the latest keeping every row
    (0008 adds where answers act, 0012 keys what a session was told by the change: the session told the rename
    before is not told it again); the rename is told again everywhere, the recipe nowhere until a learning pass
    finds where it was learned."""
    from dp.store import SCHEMA_VERSION
    from dp.store.migrations import load_migrations, migrate

    programs("python3", "uv")
    conn = sqlite3.connect(db_path)
    migrate(conn, load_migrations()[:7])
    evidence = json.dumps({"error_classes": ["command not found"], "repositories": ["/work/app"], "examples": []})
    for row in (("python", "command", "python", "python3"), ("pip", "recipe", "pip", "uv pip")):
        conn.execute("INSERT INTO learned (tool_name, command, kind, from_text, to_text, pairs, sessions, evidence, "
                     "learned_at) VALUES ('Bash', ?, ?, ?, ?, 2, 2, ?, '2026-11-20T10:00:00Z')", (*row, evidence))
    conn.execute("INSERT INTO learned_told (session_id, learned_id) VALUES ('told-before', 1)")
    conn.commit()
    conn.close()
    assert _told(env, failure("python x.py", NOT_FOUND.format("python"), tool_use_id="o1"), "old") == ""

    assert dp("aliases").returncode == 0
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("SELECT id, command, to_text, scope FROM learned ORDER BY id").fetchall() == [
        (1, "python", "python3", None), (2, "pip", "uv pip", None)]
    assert conn.execute("SELECT session_id, kind, command, from_text, to_text FROM told").fetchall() == [
        ("told-before", "command", "python", "python", "python3")]
    conn.close()
    assert _told(env, failure("python z.py", NOT_FOUND.format("python"), tool_use_id="o4"), "told-before") == ""
    assert _told(env, failure("python y.py", NOT_FOUND.format("python"), tool_use_id="o2"), "new").endswith(
        "Run this instead:\npython3 y.py")
    assert _told(env, failure("pip install -e .", NOT_FOUND.format("pip"), tool_use_id="o3"), "new") == ""


def _repository(tmp_path, name: str, *programs: str) -> Path:
    """A repository (``.git``, a pom) with executable scripts of its own at ``programs`` (paths inside it)."""
    repo = tmp_path / name
    (repo / ".git").mkdir(parents=True)
    (repo / "pom.xml").write_text("<project><modelVersion>4.0.0</modelVersion></project>\n")
    for program in programs:
        (repo / program).parent.mkdir(parents=True, exist_ok=True)
        (repo / program).write_text("#!/bin/sh\necho BUILD SUCCESS\n")
        (repo / program).chmod(0o755)
    return repo


def test_a_fix_with_its_options_in_another_order_or_a_path_spelled_otherwise_is_the_same_fix(dp, env, programs,
                                                                                               tmp_path):
    """Two sessions fixed `mvn` with the repository's ./mvnw, one of them also writing the options in another
    order and ./src/ for src: the same change, learned from both (before, the second was no pair of it)."""
    programs()
    repo = _repository(tmp_path, "svc", "mvnw")
    _session(env, "one", failure("mvn -q -B verify", NOT_FOUND.format("mvn"), cwd=str(repo)),
             success("./mvnw -q -B verify", cwd=str(repo)))
    _session(env, "two", failure("mvn -q -B -f src/pom.xml package", NOT_FOUND.format("mvn"), cwd=str(repo)),
             success("./mvnw -B -q -f ./src/pom.xml package", cwd=str(repo)))
    [item] = _learn(dp)
    assert item["alias"] == ["--recipe", "mvn", "./mvnw {{ args }}"] and item["sessions"] == 2
    text = _told(env, failure("mvn clean", NOT_FOUND.format("mvn"), cwd=str(repo), tool_use_id="m1"))
    assert text.startswith("dp: in 2 earlier sessions in this repository") and text.endswith("\n./mvnw clean")


def test_two_sessions_in_one_repository_suffice_where_another_repository_fixes_it_otherwise(dp, env, programs,
                                                                                            tmp_path):
    """`mvn` missing: the agents ran ./mvnw in two sessions of one repository and ./build/mvn in three of
    another. No fix leads across both, yet each repository's own leads there: each is told its own, and a
    third repository neither."""
    programs()
    wrapped, vendored = _repository(tmp_path, "wrapped", "mvnw"), _repository(tmp_path, "vendored", "build/mvn")
    for n, (repo, fixed) in enumerate([(wrapped, "./mvnw"), (wrapped, "./mvnw"), (vendored, "./build/mvn"),
                                       (vendored, "./build/mvn"), (vendored, "./build/mvn")]):
        _session(env, f"s{n}", failure("mvn -q test", NOT_FOUND.format("mvn"), cwd=str(repo)),
                 success(f"{fixed} -q test", cwd=str(repo)))
    _learn(dp)
    conn = sqlite3.connect(env["DP_DB"])
    assert sorted(conn.execute("SELECT to_text, scope FROM learned").fetchall()) == [
        ("./build/mvn", json.dumps({str(vendored): 3})), ("./mvnw", json.dumps({str(wrapped): 2}))]
    conn.close()
    assert _told(env, failure("mvn verify", NOT_FOUND.format("mvn"), cwd=str(wrapped), tool_use_id="w")) == (
        "dp: in 2 earlier sessions in this repository, after this same failure of `mvn`, the agent then ran `./mvnw` "
        "in its place. That is the agent's own earlier call, quoted as recorded; dp has not checked it. "
        "The same change to this call:\n./mvnw verify")
    assert _told(env, failure("mvn verify", NOT_FOUND.format("mvn"), cwd=str(vendored), tool_use_id="v")).endswith(
        "\n./build/mvn verify")
    elsewhere = _repository(tmp_path, "elsewhere", "mvnw", "build/mvn")
    assert _told(env, failure("mvn verify", NOT_FOUND.format("mvn"), cwd=str(elsewhere), tool_use_id="e")) == ""


def test_a_suggestion_says_how_often_its_answer_was_told_and_then_run(dp, env, programs):
    """The person deciding on a rule sees how the answer fared: told after the failure in two later sessions,
    run by the agent in one of them (the other went on with something else)."""
    programs("python3", "node")
    _two_sessions_fixing(env, "python manage.py test", NOT_FOUND.format("python"), "python3 manage.py test")
    [item] = _learn(dp)
    assert item["answered"] == {"told": 0, "followed": 0}
    _session(env, "later-1", failure("python x.py", NOT_FOUND.format("python")), success("python3 x.py"))
    _session(env, "later-2", failure("python y.py", NOT_FOUND.format("python")), success("ls"),
             success("node y.js"))
    [item] = _learn(dp)
    assert item["answered"] == {"told": 2, "followed": 1}
    assert "    answered after the failure 2 times; the agent then ran the answer 1 time\n" in dp("suggest").stdout
