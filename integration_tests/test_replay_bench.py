"""bench/run_replay_bench.py on small slices: learning from the earlier sessions (real dp ingest, dp suggest),
the later ones replayed through the real pave-check and dp-capture, each outcome counted as the docs say."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from capture_support import transcript_lines

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench" / "run_replay_bench.py"
NOT_FOUND = "Exit code 127\n/bin/bash: line 1: python: command not found"


def _bench(sessions: Path, *args) -> tuple[int, dict]:
    proc = subprocess.run([sys.executable, str(BENCH), "--sessions", str(sessions), "--json", *args],
                          capture_output=True, text=True, timeout=900, cwd=ROOT / "bench")
    assert proc.stderr == "" or proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def _session(root: Path, name: str, start: int, calls) -> None:
    (root / f"{name}.jsonl").write_text(transcript_lines(name, calls, start_second=start))


def test_a_recurring_failure_is_prevented_or_answered_and_nothing_else_changes(tmp_path):
    _python_sessions(tmp_path)
    status, tally = _bench(tmp_path)
    assert status == 0
    assert (tally["sessions_learned"], tally["sessions_replayed"], tally["replayed"]) == (2, 2, 6)
    assert tally["rules_applied"] == ["--cmd python --replace python3"] and tally["learned_answers"] == 1
    assert (tally["failures"], tally["recurring_failures"], tally["with_fix"]) == (2, 2, 2)
    # the rule rewrites both later failures into the agent's own fix; nothing that succeeded is touched
    assert (tally["prevented"], tally["wrong"]) == (2, 0)


def _python_sessions(root: Path) -> None:
    fixed = [("Bash", {"command": "python manage.py check"}, NOT_FOUND, True),
             ("Bash", {"command": "python3 manage.py check"}, "System check identified no issues", False),
             ("Bash", {"command": "git status --short"}, " M app.py", False)]
    _session(root, "early-1", 0, fixed)
    _session(root, "early-2", 100, fixed)
    _session(root, "late-1", 200, [("Bash", {"command": "ls -la"}, "total 0", False),
                                   ("Bash", {"command": "python -m pytest -q"}, NOT_FOUND, True),
                                   ("Bash", {"command": "python3 -m pytest -q"}, "3 passed", False)])
    _session(root, "late-2", 300, [("Bash", {"command": "git status --short"}, "", False),
                                   ("Bash", {"command": "python setup.py --version"}, NOT_FOUND, True),
                                   ("Bash", {"command": "python3 setup.py --version"}, "1.0", False)])


def test_with_no_rule_applied_each_recurring_failure_is_answered_at_the_moment_of_failure(tmp_path):
    _python_sessions(tmp_path)
    status, tally = _bench(tmp_path, "--answers-only")
    assert (status, tally["rules_applied"], tally["learned_answers"]) == (0, [], 1)
    assert (tally["prevented"], tally["answered"], tally["wrong"]) == (0, 2, 0)


def test_an_answer_the_agent_did_not_take_counts_as_wrong(tmp_path):
    """Learned: python → python3. Later the agent fixed `python` with `uv run python`: the rewrite is not its fix."""
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    fixed = [("Bash", {"command": "python a.py"}, NOT_FOUND, True),
             ("Bash", {"command": "python3 a.py"}, "ok", False)]
    _session(sessions, "early-1", 0, fixed)
    _session(sessions, "early-2", 100, fixed)
    _session(sessions, "late-1", 200, [("Bash", {"command": "python b.py"}, NOT_FOUND, True),
                                       ("Bash", {"command": "uv run python b.py"}, "ok", False)])
    status, tally = _bench(sessions, "--learn-share", "0.7")  # the first two of three sessions
    assert (tally["prevented"], tally["answered"], tally["wrong"]) == (0, 0, 1)
    assert status == 1  # 1 of 2 replayed calls is far above 1 %
    assert tally["examples"][0] == {"outcome": "wrong", "how": "rewrite", "kind": "rule", "call": "python b.py",
                                    "dp": "python3 b.py", "agent_fix": "uv run python b.py"}


RG_MISSING = "Exit code 127\n/bin/bash: line 1: rg: command not found"


def _rg_sessions(root: Path) -> None:
    """rg missing on the agents' machines, fixed with the grep that means the same; one later machine has it."""
    _session(root, "early-1", 0, [("Bash", {"command": "rg -n 'def main' src"}, RG_MISSING, True),
                                  ("Bash", {"command": "grep -rn 'def main' src"}, "src/app.py:3:def main():", False)])
    _session(root, "early-2", 100, [("Bash", {"command": "cd api && rg -i token"}, RG_MISSING, True),
                                    ("Bash", {"command": "cd api && grep -R -i token ."}, "./auth.py:TOKEN", False)])
    _session(root, "late-1", 200, [("Bash", {"command": "rg -l TODO"}, RG_MISSING, True),
                                   ("Bash", {"command": "grep -rl TODO ."}, "./notes.md", False),
                                   # -t has no exact grep meaning: left alone, though the agent found a grep
                                   ("Bash", {"command": "rg -t py Cart"}, RG_MISSING, True),
                                   ("Bash", {"command": "grep -rn --include='*.py' Cart ."}, "./cart.py:1", False)])
    _session(root, "late-2", 300, [("Bash", {"command": "rg -n Cart src"}, "src/cart.py:1:class Cart:", False),
                                   ("Bash", {"command": "git status --short"}, "", False)])


def test_rg_missing_is_prevented_through_the_grep_table_read_backwards(tmp_path):
    """The learned rule rg → grep rewrites the later `rg -l TODO` into grep's same search (the agent's own fix
    in other words), leaves `rg -t py` alone, and never touches rg where the session's machine had it."""
    _rg_sessions(tmp_path)
    status, tally = _bench(tmp_path)
    assert status == 0
    assert tally["rules_applied"] == ["--cmd rg --replace grep"]
    # the grep after `rg -t py` is no fix dp can tell (its table has no -t): one failure with a fix
    assert (tally["failures"], tally["recurring_failures"], tally["with_fix"]) == (2, 2, 1)
    assert (tally["prevented"], tally["answered"], tally["wrong"]) == (1, 0, 0)
    assert tally["examples"] == [{"outcome": "prevented", "how": "rewrite", "kind": "rule", "call": "rg -l TODO",
                                  "dp": "grep -l -r -I TODO", "agent_fix": "grep -rl TODO ."}]
    status, tally = _bench(tmp_path, "--answers-only")
    assert (status, tally["prevented"], tally["answered"], tally["wrong"]) == (0, 0, 1, 0)


def _line(kind: str, session: str, when: str, content, **extra) -> str:
    return json.dumps({"type": kind, "sessionId": session, "timestamp": when, "cwd": "/work/app", "uuid": when,
                       "message": {"role": kind, "content": content}, **extra}) + "\n"


def _claude_session(directory: Path, session: str, day: int, calls, sidechain: bool = False) -> None:
    """A transcript as Claude Code writes it: client lines of its own, text blocks, non-Bash tools, results as
    lists of blocks, an interrupted call, a subagent's transcript beside it, a torn last line."""
    lines = [json.dumps({"type": "queue-operation", "operation": "enqueue", "sessionId": session}) + "\n",
             _line("user", session, f"2026-01-{day:02d}T09:00:00.000Z", "fix the search")]
    for n, (name, tool_input, result, failed) in enumerate(calls):
        when = f"2026-01-{day:02d}T09:{n + 1:02d}:00.000Z"
        call_id = f"toolu_{'agent_' if sidechain else ''}{session}_{n}"  # ids are unique across files, as Claude's are
        lines.append(_line("assistant", session, when, [{"type": "text", "text": "Looking."},
                                                        {"type": "tool_use", "id": call_id, "name": name,
                                                         "input": tool_input}], isSidechain=sidechain))
        lines.append(_line("user", session, when.replace(":00.000Z", ":30.000Z"),
                           [{"type": "tool_result", "tool_use_id": call_id, "is_error": failed,
                             "content": [{"type": "text", "text": result}]}], isSidechain=sidechain))
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / (f"agent-{session}.jsonl" if sidechain else f"{session}.jsonl")
    path.write_text("".join(lines) + '{"type": "assistant", "message": {"content": [{"type": "tool_u')


def test_real_claude_code_transcript_shapes_are_read_and_counted(tmp_path):
    """Subagent transcripts share their parent's session id and restart nothing: each file is counted on its own;
    non-Bash tools, an interrupted call, client lines and a torn last line neither crash nor count as calls."""
    interrupted = "[Request interrupted by user for tool use]"
    fixed = [("Read", {"file_path": "/work/app/a.py"}, "1\tprint()", False),
             ("Bash", {"command": "python manage.py check"}, NOT_FOUND, True),
             ("Bash", {"command": "python3 manage.py check"}, "System check identified no issues", False),
             ("Grep", {"pattern": "main"}, "a.py", False)]
    for n, name in enumerate(("s1", "s2")):
        _claude_session(tmp_path / "-work-app", name, 1 + n, fixed)
    later = [("Bash", {"command": "sleep 600"}, interrupted, True),
             ("Bash", {"command": "python -m pytest -q"}, NOT_FOUND, True),
             ("Bash", {"command": "python3 -m pytest -q"}, "3 passed", False),
             ("Task", {"description": "look around", "prompt": "find the tests"}, "done", False)]
    _claude_session(tmp_path / "-work-app", "s3", 5, later)
    # the subagent of s3: the same session id, its own file (read on its own: row ids restart there)
    _claude_session(tmp_path / "-work-app" / "s3" / "subagents", "s3", 6,
                    [("Bash", {"command": "ls tests"}, "test_a.py", False),
                     ("Bash", {"command": "python -c 'import a'"}, NOT_FOUND, True),
                     ("Bash", {"command": "python3 -c 'import a'"}, "", False)], sidechain=True)
    status, tally = _bench(tmp_path, "--learn-share", "0.5")
    assert status == 0
    assert (tally["sessions_learned"], tally["sessions_replayed"]) == (2, 1)  # s3 and its subagent: one session
    assert tally["replayed"] == 6  # Bash calls with a result only
    assert (tally["failures"], tally["recurring_failures"], tally["with_fix"]) == (3, 2, 2)
    assert (tally["prevented"], tally["answered"], tally["translated"], tally["wrong"]) == (2, 0, 0, 0)


def test_a_first_failure_is_answered_from_what_dp_knows_and_counted_by_kind(tmp_path):
    """Nothing to learn from the earlier sessions about rg: the later session's first `rg -n` is answered from
    the grep table read backwards with the agent's own fix, its second rg failure is left alone (told once per
    session), and an answer the agent did not take (it added -w) is counted apart, never as wrong."""
    git = [("Bash", {"command": "git status --short"}, "", False)]
    _session(tmp_path, "early-1", 0, git)
    _session(tmp_path, "early-2", 100, git)
    _session(tmp_path, "late-1", 200, [("Bash", {"command": "rg -n Cart src"}, RG_MISSING, True),
                                       ("Bash", {"command": "grep -rn Cart src"}, "src/cart.py:1:class Cart:", False),
                                       ("Bash", {"command": "rg -l TODO"}, RG_MISSING, True),
                                       ("Bash", {"command": "grep -rl TODO ."}, "./notes.md", False)])
    _session(tmp_path, "late-2", 300, [("Bash", {"command": "rg total src"}, RG_MISSING, True),
                                       ("Bash", {"command": "grep -rw total src"}, "src/cart.py:2", False)])
    status, tally = _bench(tmp_path)
    assert status == 0 and tally["rules_applied"] == [] and tally["learned_answers"] == 0
    assert (tally["failures"], tally["recurring_failures"], tally["with_fix"]) == (3, 0, 3)
    assert (tally["answered"], tally["otherwise"], tally["wrong"]) == (1, 1, 0)
    assert tally["kinds"]["table"] == {"fix": 1, "otherwise": 1, "recurring_fix": 0, "recurring_otherwise": 0}
    assert (tally["left_alone"], tally["told_earlier"]) == (1, 1)
    assert [(e["kind"], e["outcome"], e["dp"]) for e in tally["examples"]] == [
        ("table", "answered", "grep -n -r Cart src"), ("table", "otherwise", "grep -r total src")]


def test_an_answer_learned_in_one_repository_acts_in_its_later_sessions_only(tmp_path):
    """pip missing, fixed with uv pip in two sessions of one repository: a later session there is answered with
    the agent's own earlier call; the same failure in another repository's session is left alone."""
    pip_missing = "Exit code 127\n/bin/bash: line 1: pip: command not found"
    fixed = [("Bash", {"command": "pip install requests"}, pip_missing, True),
             ("Bash", {"command": "uv pip install requests"}, "Installed 1 package", False)]
    for name, start, cwd in (("early-1", 0, "/work/shop"), ("early-2", 100, "/work/shop"),
                             ("late-shop", 200, "/work/shop"), ("late-blog", 300, "/work/blog")):
        (tmp_path / f"{name}.jsonl").write_text(transcript_lines(name, fixed, cwd=cwd, start_second=start))
    status, tally = _bench(tmp_path, "--answers-only")
    assert status == 0 and tally["learned_answers"] == 1
    assert (tally["failures"], tally["recurring_failures"]) == (2, 2)
    assert tally["kinds"]["learned"] == {"fix": 1, "otherwise": 0, "recurring_fix": 1, "recurring_otherwise": 0}
    assert (tally["recurring_left_alone"], tally["wrong"]) == (1, 0)
    assert tally["recurring_with_own_fix"] == 1 and tally["recurring_with_own_fix_share"] == 0.5


NPM_MISSING = ('Exit code 1\nnpm error Missing script: "tset"\nnpm error\nnpm error Did you mean this?\n'
               'npm error   npm test # Test a package\nnpm error\nnpm error To see a list of scripts, run:\n'
               'npm error   npm run')


def test_a_session_shows_its_projects_tasks_and_the_replay_lays_only_those(tmp_path):
    """The recorded working directory does not exist where the bench runs; the replay makes it a real one
    holding what the session shows: late-1 ran `npm run test:unit` (npm's `> shop@1.0.0 test:unit` line in a
    failed run's output) and `npm run test` that worked, so its `npm run tset` is answered from the
    project's tasks with the agent's own fix. late-2 showed no script: its same failure is left alone,
    and no task is carried over from late-1."""
    git = [("Bash", {"command": "git status --short"}, "", False)]
    _session(tmp_path, "early-1", 0, git)
    _session(tmp_path, "early-2", 100, git)
    failed_unit = "Exit code 1\n> shop@1.0.0 test:unit\n> jest tests/unit\n\nFAIL tests/unit/cart.test.ts"
    _session(tmp_path, "late-1", 200, [("Bash", {"command": "npm run test:unit"}, failed_unit, True),
                                       ("Bash", {"command": "npm run tset"}, NPM_MISSING, True),
                                       ("Bash", {"command": "npm run test"}, "> shop@1.0.0 test\n3 passed", False)])
    _session(tmp_path, "late-2", 300, [("Bash", {"command": "npm run tset"}, NPM_MISSING, True),
                                       ("Bash", {"command": "git log -1"}, "commit 1", False)])
    status, tally = _bench(tmp_path)
    assert status == 0 and tally["wrong"] == 0
    assert tally["kinds"]["task"] == {"fix": 1, "otherwise": 0, "recurring_fix": 0, "recurring_otherwise": 0}
    assert [(e["kind"], e["outcome"], e["dp"]) for e in tally["examples"]] == [("task", "answered", "npm run test")]
    assert tally["left_alone"] == 2  # late-1's test:unit failure (its tests failed), late-2's npm run tset
