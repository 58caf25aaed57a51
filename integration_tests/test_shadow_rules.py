"""Shadow rules (issue 51): a rule that rewrites nothing — the real pave-check answers byte for byte as without
it — and records what it would have done, counted by dp stats on a replayed session; the same rule without
--shadow promotes it; dp suggest applies a suggestion from fewer than 3 sessions in shadow, and offers to
promote a shadow rule whose record is clean."""

from __future__ import annotations

import shutil

import pytest
from hook_support import isolated_env
from outcomes_support import Session, dp, project, rule, stats

GREP_RG = ("--cmd", "grep", "--replace", "rg")
# The replayed session: grep works, grep fails, then the agent's own next call is what the rule would write.
REPLAY = ("grep -rn TODO src", "grep -rn TODO no-such-dir", "rg -n TODO src", "ls src")


@pytest.fixture
def env(tmp_path):
    if not shutil.which("rg"):
        pytest.skip("the replay runs rg")
    return isolated_env(tmp_path)


def _replay(env, repo, name, calls=REPLAY) -> Session:
    session = Session(env, repo, name)
    for command in calls:
        session.call(command)
    return session


def test_a_shadow_rule_rewrites_nothing_and_counts_what_it_would_have_done(env, tmp_path):
    repo = project(tmp_path)
    plain = _replay({**env, "DP_DB": str(tmp_path / "plain" / "dp.db")}, repo, "replay")
    assert dp(env, "alias", *GREP_RG, "--shadow").returncode == 0
    shadowed = _replay(env, repo, "replay")
    assert shadowed.answers == plain.answers  # exit status, stdout and stderr of every hook call
    assert all(answer == (0, "", "") for answer in shadowed.answers)

    report = stats(env)
    assert (report["shadowed"], report["rewritten"]) == (2, 0)
    record = rule(report, "grep → rg")
    assert {key: record[key] for key in ("kind", "actions", "succeeded", "failed", "followed", "hurts")} == \
        {"kind": "shadow", "actions": 2, "succeeded": 1, "failed": 1, "followed": 1, "hurts": False}
    assert "dp alias" not in dp(env, "suggest").stderr  # one grep worked as typed: not a clean record


def test_promotion_turns_a_shadow_rule_into_a_normal_rule(env, tmp_path):
    repo = project(tmp_path)
    assert dp(env, "alias", *GREP_RG, "--shadow").returncode == 0
    assert Session(env, repo, "before").call("grep -rn TODO src")[0] == "grep -rn TODO src"
    promoted = dp(env, "alias", *GREP_RG)
    assert promoted.returncode == 0 and promoted.stdout == "Rule set: command grep -> rg\n"
    assert Session(env, repo, "after").call("grep -rn TODO src")[0] == "rg -n --hidden --no-ignore TODO src"
    gone = dp(env, "alias", "--delete", "--shadow", *GREP_RG)
    assert gone.returncode == 1 and gone.stderr.startswith("dp: error: not found: no shadow rule")
    assert stats(env)["shadowed"] == 1 and rule(stats(env), "grep → rg")["actions"] == 2  # one record, one rewrite


def test_dp_suggest_offers_to_promote_a_shadow_rule_with_a_clean_record(env, tmp_path):
    repo = project(tmp_path)
    assert dp(env, "alias", *GREP_RG, "--shadow").returncode == 0
    for name in ("one", "two"):  # grep fails as typed, and the agent goes to rg on its own
        _replay(env, repo, name, ("grep -rn TODO no-such-dir", "rg -n TODO src"))
    offer = dp(env, "suggest")
    assert "shadow rule grep → rg has a clean record (dp stats); make it act: dp alias --cmd grep --replace rg" \
        in offer.stderr


def test_a_suggestion_from_fewer_than_three_sessions_is_applied_in_shadow(env, tmp_path):
    if shutil.which("gradle", path=env["PATH"]):
        pytest.skip("this machine has gradle: the call would not fail")
    repo = project(tmp_path)
    (repo / "gradlew").write_text("#!/bin/sh\necho BUILD SUCCESSFUL\n")
    (repo / "gradlew").chmod(0o755)
    for name in ("earlier-1", "earlier-2"):
        _replay(env, repo, name, ("gradle -q test", "./gradlew -q test"))
    [item] = [found for found in __import__("json").loads(dp(env, "suggest", "--json").stdout)
              if found["alias"][:2] == ["--recipe", "gradle"]]
    applied = dp(env, "suggest", "--apply", item["id"], "--cwd", str(repo))
    assert applied.returncode == 0, applied.stderr
    assert "learned from 2 sessions (fewer than 3): set in shadow" in applied.stderr
    assert applied.stdout.startswith("Shadow rule set: ")
    assert dp(env, "aliases", "--json").stdout.strip() == "[]"
    session = _replay(env, repo, "now", ("gradle -q build",))
    assert session.answers == [(0, "", "")] and stats(env)["shadowed"] == 1


@pytest.mark.parametrize("args, message", [
    (("alias", "read_file", "Read", "--shadow"), "dp: error: a tool-name alias has no shadow"),
    (("alias", *GREP_RG, "--shadow", "--project"), "dp: error: --shadow goes without --project"),
    (("suggest", "--shadow"), "dp: error: --shadow goes with --apply ID"),
])
def test_shadow_misuse_is_a_one_line_error(env, args, message):
    proc = dp(env, *args)
    assert proc.returncode != 0 and proc.stderr.startswith(message) and "Traceback" not in proc.stderr
