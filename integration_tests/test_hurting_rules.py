"""A rule dp made that hurts clearly is switched off; a person's rule is only flagged (issue 51).

The story, through the real hooks and real commands: two sessions where ``python`` was missing and the agent
ran ``python3`` instead teach ``dp suggest`` the rule python → python3, applied with ``dp suggest --apply``.
Later python is there and this machine's python3 is broken: each rewritten call fails and the agent runs
python by its path instead (it undoes the rewrite). dp switches the rule off (it no longer acts, it is kept),
says so once, and a person enables it again with the command dp names. A person's rule that hurts the same way
(cat → false) is flagged and left acting."""

from __future__ import annotations

import json

from hook_support import isolated_env
from outcomes_support import Session, dp, project, rule, stats

MADE = "python → python3"


def _script(path, body: str):
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def _made_rule(tmp_path) -> tuple[dict, object]:
    """A store whose python → python3 came from dp suggest --apply; python missing then, python3 working."""
    env = isolated_env(tmp_path)
    bin_dir = tmp_path / "agent-bin"
    bin_dir.mkdir()
    _script(bin_dir / "python3", "echo ok")
    env["PATH"] = f"{bin_dir}:/usr/bin:/bin"
    repo = project(tmp_path)
    for name in ("earlier-1", "earlier-2"):
        earlier = Session(env, repo, name)
        assert earlier.call("python src/main.py")[1] == 127
        assert earlier.call("python3 src/main.py")[1] == 0
    found = json.loads(dp(env, "suggest", "--json").stdout)
    assert [item["alias"] for item in found] == [["--cmd", "python", "--replace", "python3"]]
    applied = dp(env, "suggest", "--apply", found[0]["id"], "--act")
    assert applied.returncode == 0, applied.stderr
    # Now python is there, and python3 is broken.
    _script(bin_dir / "python", "echo ok")
    _script(bin_dir / "python3", "echo 'python3: broken' >&2; exit 1")
    return env, repo


def _hurt(session: Session, python: str) -> None:
    """Two calls rewritten into python3, each failing, each undone by the agent (python by its path)."""
    for script in ("src/main.py", "src/odd name [1].py"):
        assert session.call(f"python '{script}'") == (f"python3 '{script}'", 1)
        assert session.call(f"{python} '{script}'")[1] == 0


def test_a_rule_dp_made_that_hurts_clearly_is_switched_off_and_said_once(tmp_path):
    env, repo = _made_rule(tmp_path)
    python = str(tmp_path / "agent-bin" / "python")
    _hurt(Session(env, repo, "now"), python)

    first = dp(env, "stats")
    assert first.returncode == 0, first.stderr
    [said] = [line for line in first.stderr.splitlines() if "switched off" in line]
    assert said.startswith(f"dp switched off rule {MADE}, which dp suggest --apply made: 2 of its 2 rewritten calls "
                           "were made worse (0 failed where the program it replaced had worked, 2 undone by the "
                           "agent), 0 succeeded.")
    assert said.endswith("to make it act again: dp alias --cmd python --replace python3")
    assert f"{MADE} [rewrite, user, made by dp suggest]: 2: 0 / 2 / 0, undone 2  ⚠ hurts" in first.stdout
    again = dp(env, "stats")
    assert "switched off" not in again.stderr  # said once
    report = stats(env)
    made = rule(report, MADE)
    assert {key: made[key] for key in ("actions", "failed", "undone", "harmed", "hurts", "origin", "switched_off")} == \
        {"actions": 2, "failed": 2, "undone": 2, "harmed": 2, "hurts": True, "origin": "suggest", "switched_off": True}
    [off] = report["switched_off"]
    assert (off["rule"], off["origin"], off["told"]) == (MADE, "suggest", True)

    # It acts no more: the real hook leaves python as typed, and the rule is kept for the record, not deleted.
    later = Session(env, repo, "later")
    assert later.call("python src/main.py") == ("python src/main.py", 0)
    assert MADE not in dp(env, "aliases").stdout
    doctor = dp(env, "doctor").stdout
    assert f"rule {MADE} switched off by dp on" in doctor

    # A person enables it again with the command dp named: it is theirs now, flagged but never switched off.
    assert dp(env, "alias", "--cmd", "python", "--replace", "python3").returncode == 0
    _hurt(Session(env, repo, "after"), python)
    report = stats(env)
    assert (rule(report, MADE)["origin"], rule(report, MADE)["switched_off"], report["switched_off"]) == ("", False, [])
    assert later.call("python src/main.py") == ("python3 src/main.py", 1)


def test_a_persons_rule_that_hurts_is_flagged_never_switched_off(tmp_path):
    env = isolated_env(tmp_path)
    assert dp(env, "alias", "--cmd", "cat", "--replace", "false").returncode == 0
    repo = project(tmp_path)
    session = Session(env, repo, "s1")
    for _ in range(3):
        assert session.call("cat README.md") == ("false README.md", 1)
        assert session.call("/bin/cat README.md")[1] == 0  # undone, every time
    text = dp(env, "stats")
    assert "switched off" not in text.stderr + text.stdout
    hurts = rule(stats(env), "cat → false")
    assert (hurts["harmed"], hurts["hurts"], hurts["origin"], hurts["switched_off"]) == (3, True, "", False)
    assert session.call("cat README.md") == ("false README.md", 1)  # still acting: the person decides
    assert "rule cat → false hurts" in dp(env, "doctor").stdout


def test_one_harmed_call_is_not_clear_evidence(tmp_path):
    env, repo = _made_rule(tmp_path)
    session = Session(env, repo, "now")
    assert session.call("python src/main.py") == ("python3 src/main.py", 1)
    assert session.call(f"{tmp_path / 'agent-bin' / 'python'} src/main.py")[1] == 0
    report = stats(env)
    assert (rule(report, MADE)["harmed"], rule(report, MADE)["switched_off"], report["switched_off"]) == (1, False, [])
    assert session.call("python src/main.py") == ("python3 src/main.py", 1)


def test_origin_is_not_something_else(tmp_path):
    env = isolated_env(tmp_path)
    proc = dp(env, "alias", "--origin", "person", "--cmd", "grep", "--replace", "rg")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "dp: error: --origin 'person': the only origin is suggest (dp suggest --apply)"


def test_the_next_session_start_switches_it_off_with_no_command_run(tmp_path):
    """No dp stats, no dp ingest: the SessionStart starts the check, and the session's calls are left as typed."""
    import subprocess
    import time

    from outcomes_support import BIN

    env, repo = _made_rule(tmp_path)
    _hurt(Session(env, repo, "now"), str(tmp_path / "agent-bin" / "python"))
    start = {"hook_event_name": "SessionStart", "session_id": "next", "cwd": str(repo), "source": "startup",
             "transcript_path": ""}
    proc = subprocess.run([str(BIN / "pave-check")], input=json.dumps(start), capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    deadline = time.monotonic() + 60  # the check runs detached: wait for its record, never for a fixed time
    while not _switched_off(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _switched_off(tmp_path)
    assert Session(env, repo, "next").call("python src/main.py") == ("python src/main.py", 0)
    doctor = dp(env, "doctor").stdout
    assert f"dp switched off rule {MADE}, which dp suggest --apply made" in doctor  # not told yet: a warning
    assert "dp switched off rule" in dp(env, "stats").stderr
    assert f"rule {MADE} switched off by dp on" in dp(env, "doctor").stdout


def _switched_off(tmp_path) -> bool:
    import sqlite3

    with sqlite3.connect(tmp_path / "dp.db") as conn:
        return conn.execute("SELECT count(*) FROM switched_off_rules").fetchone()[0] == 1
