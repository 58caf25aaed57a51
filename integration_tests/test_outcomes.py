"""Outcomes for dp's actions (issue 51): what the real pave-check did, joined by dp stats to what happened next
in the session, as dp-capture recorded it from the real commands' exit statuses."""

from __future__ import annotations

import json
import shutil

import pytest
from hook_support import build_store
from outcomes_support import Session, dp, learn_gradlew, project, rule, stats

HELPS, HURTS = ("--cmd", "grep", "--replace", "rg"), ("--cmd", "cat", "--replace", "false")


@pytest.fixture
def env(tmp_path):
    if not shutil.which("rg"):
        pytest.skip("grep → rg helps only on a machine with rg")
    return build_store(tmp_path, [HELPS, HURTS])


def test_each_rules_actions_and_their_outcomes_are_counted(env, tmp_path):
    repo = project(tmp_path)
    session = Session(env, repo, "s1")
    assert session.call("grep -rn TODO src") == ("rg -n --hidden --no-ignore TODO src", 0)
    assert session.call("cat README.md") == ("false README.md", 1)
    assert session.call("/bin/cat README.md") == ("/bin/cat README.md", 0)  # the agent undoes the rewrite
    assert session.call("cat src/main.py")[1] == 1
    assert session.call("ls src") == ("ls src", 0)  # no rule: nothing noted

    report = stats(env)
    assert (report["calls_seen"], report["rewritten"], report["blocked"], report["answered"]) == (5, 3, 0, 0)
    helps, hurts = rule(report, "grep → rg"), rule(report, "cat → false")
    assert {key: helps[key] for key in ("actions", "succeeded", "failed", "undone", "hurts")} == \
        {"actions": 1, "succeeded": 1, "failed": 0, "undone": 0, "hurts": False}
    assert {key: hurts[key] for key in ("actions", "succeeded", "failed", "undone", "hurts")} == \
        {"actions": 2, "succeeded": 0, "failed": 2, "undone": 1, "hurts": True}
    assert [agent["agent"] for agent in report["agents"]] == ["claude"]
    text = dp(env, "stats").stdout
    assert "cat → false [rewrite, user]: 2: 0 / 2 / 0, undone 1  ⚠ hurts" in text


def test_a_rewrite_that_succeeds_where_the_original_failed_before_is_a_failure_prevented(env, tmp_path):
    repo = project(tmp_path)
    dp(env, "alias", "--delete", *HELPS)
    before = Session(env, repo, "old")  # an earlier session, before the rule: grep failed for real
    assert before.call("grep -rn TODO no-such-dir")[1] == 2
    dp(env, "alias", *HELPS)
    now = Session(env, repo, "new")
    assert now.call("grep -rn TODO src")[1] == 0
    report = stats(env)
    assert rule(report, "grep → rg")["prevented"] == 1 and report["prevented"] == 1


def test_stats_filter_by_agent_project_and_time(env, tmp_path):
    repo = project(tmp_path)
    Session(env, repo, "s1").call("grep -rn TODO src")
    assert stats(env)["rewritten"] == 1
    assert stats(env, "--agent", "gemini")["rewritten"] == 0
    assert stats(env, "--agent", "claude")["calls_seen"] is None  # captured rows do not all name their agent
    assert stats(env, "--project", str(repo))["rewritten"] == 1
    assert stats(env, "--project", str(tmp_path / "elsewhere"))["rewritten"] == 0
    assert stats(env, "--since", "2999-01-01")["rewritten"] == 0


def test_a_call_no_rule_touches_notes_nothing(env, tmp_path):
    """Where nothing applies the hook's path does not change: no spool beside the store."""
    repo = project(tmp_path)
    Session(env, repo, "s1").call("ls src && git --version")
    assert not (tmp_path / "actions.jsonl").exists()
    assert not list(tmp_path.glob("actions.jsonl.taken-*"))


@pytest.mark.parametrize("args, message", [
    (("--since", "yesterday"), "dp: error: --since 'yesterday' is not a date or duration"),
    (("--agent", "vim"), "dp: error: --agent 'vim' is not an agent dp serves"),
])
def test_bad_options_are_one_line_errors(env, args, message):
    proc = dp(env, "stats", *args)
    assert proc.returncode != 0 and proc.stderr.startswith(message) and "Traceback" not in proc.stderr


def test_a_learned_answer_told_after_a_failure_and_followed_is_counted(env, tmp_path):
    if shutil.which("gradle", path=env["PATH"]):
        pytest.skip("this machine has gradle: the call would not fail")
    repo = project(tmp_path)
    learn_gradlew(env, repo)
    session = Session(env, repo, "now")
    assert session.call("gradle -q build")[1] == 127 and "./gradlew -q build" in session.told[-1]
    assert session.call("./gradlew -q build")[1] == 0
    report = stats(env)
    assert (report["answered"], report["answers_followed"]) == (1, 1)
    [answer] = [found for found in report["rules"] if found["kind"] == "answer"]
    assert answer["rule"].startswith("learned #") and answer["source"] == "learned"
    assert {key: answer[key] for key in ("actions", "failed", "followed", "followed_and_worked", "repeated")} == \
        {"actions": 1, "failed": 1, "followed": 1, "followed_and_worked": 1, "repeated": 0}


def test_dp_doctor_flags_the_rule_that_hurts_and_only_it(env, tmp_path):
    repo = project(tmp_path)
    session = Session(env, repo, "s1")
    for command in ("grep -rn TODO src", "cat README.md", "cat src/main.py"):
        session.call(command)
    stats(env)  # moves the hook's notes into the store, as any dp stats does
    report = json.loads(dp(env, "doctor", "--json").stdout)
    flagged = [check for check in report["checks"] if check["check"] == "outcomes"]
    assert [(check["status"], check["message"]) for check in flagged] == [
        ("warning", "rule cat → false hurts: of its 2 rewritten calls in 7 days 2 failed and 0 were undone, "
                    "0 succeeded (dp stats)")]
