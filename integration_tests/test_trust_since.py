"""Issue 49, finding 10: a teammate's change to .dp/rules.toml, as the person who trusted it meets it.

Two people, two stores, two clones of one real repository: Alice changes the rules and pushes, Bob pulls.
Bob's rules stop acting (the session start says so), ``dp trust --show`` shows what changed in the rules
since he trusted them — added, changed (with what it was) and removed, in words — not the whole file,
and ``dp trust`` makes them act again.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


class Person:
    def __init__(self, root: Path, name: str):
        self.home = root / name
        self.home.mkdir()
        self.env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE"))}
        self.env.update({"HOME": str(self.home), "NO_COLOR": "1", "XDG_CACHE_HOME": str(self.home / ".cache"),
                         "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": f"{name}@example.com",
                         "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": f"{name}@example.com"})

    def dp(self, *args, cwd: Path, stdin=None) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN / "dp"), *args], cwd=cwd, env=self.env, capture_output=True, text=True,
                              input=stdin, timeout=60)

    def session_start(self, cwd: Path) -> str:
        payload = {"session_id": "s1", "hook_event_name": "SessionStart", "source": "startup", "cwd": str(cwd)}
        proc = subprocess.run([str(BIN / "pave-check")], input=json.dumps(payload), env=self.env,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"] if proc.stdout else ""

    def git(self, cwd: Path, *args: str) -> str:
        return subprocess.run(["git", *args], cwd=cwd, env=self.env, check=True, capture_output=True,
                              text=True).stdout


@pytest.fixture
def team(tmp_path):
    """Alice's repository with three committed rules (and a .gitignore, a src tree, a binary file), pushed to
    a bare origin; Bob's clone of it, trusted by Bob."""
    alice, bob = Person(tmp_path, "alice"), Person(tmp_path, "bob")
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    work = alice.home / "app"
    alice.git(tmp_path, "clone", "-q", str(origin), str(work))
    (work / "src").mkdir()
    (work / "src" / "main.py").write_text("print('hi')\n")
    (work / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00binary")
    (work / ".gitignore").write_text(".dp/rules.local.toml\n.venv/\n")
    for args in (("--cmd", "bd", "--flag", "wisp", "ephemeral", "-m", "this bd has no --wisp"),
                 ("--cmd", "grep", "--replace", "rg"), ("--cmd", "ls", "--flag", "l", "long")):
        assert alice.dp("alias", "-q", "--project", *args, cwd=work).returncode == 0
    alice.git(work, "add", "-A")
    alice.git(work, "commit", "-qm", "the team's rules")
    alice.git(work, "push", "-q", "origin", "HEAD")
    clone = bob.home / "app"
    bob.git(tmp_path, "clone", "-q", str(origin), str(clone))
    trusted = bob.dp("trust", cwd=clone)
    assert trusted.returncode == 0, trusted.stderr
    return alice, work, bob, clone


def teammate_changes_the_rules(alice: Person, work: Path, bob: Person, clone: Path) -> None:
    """Alice changes one rule, adds one and removes one, commits and pushes; Bob pulls."""
    for args in (("--cmd", "bd", "--flag", "wisp", "temp", "-m", "--wisp is --temp now"),
                 ("--cmd", "make", "--replace", "just")):
        assert alice.dp("alias", "-q", "--project", *args, cwd=work).returncode == 0
    assert alice.dp("alias", "-q", "--project", "--delete", "--cmd", "grep", "--replace", "rg", cwd=work).returncode == 0
    alice.git(work, "commit", "-qam", "bd's --wisp is --temp; just")
    alice.git(work, "push", "-q", "origin", "HEAD")
    bob.git(clone, "pull", "-q", "--ff-only")


def test_show_after_a_pull_is_the_change_of_the_rules_and_trust_makes_them_act_again(team):
    alice, work, bob, clone = team
    assert "Use `rg` instead of `grep`" in bob.session_start(clone)
    teammate_changes_the_rules(alice, work, bob, clone)
    rules = clone / ".dp" / "rules.toml"

    opening = bob.session_start(clone)
    assert f"dp: {rules} changed since you trusted it, so its rules (3) do not apply until" in opening
    assert "Use `rg`" not in opening and "--temp" not in opening

    shown = bob.dp("trust", "--show", cwd=clone)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[:6] == [
        f"{rules} (changed since you trusted it: none of its rules acts for you until you trust it again):",
        "  since you trusted it:",
        "  ~ line 6: bd: Flag `--wisp` should be `--temp` (--wisp is --temp now) "
        "(was: bd: Flag `--wisp` should be `--ephemeral` (this bd has no --wisp))",
        "  + line 23: make: Use `just` instead of `make`",
        "  - grep: Use `rg` instead of `grep`",
        "  1 rule unchanged",
    ]
    assert "`--long`" not in shown.stdout  # the rule that did not change is counted, not shown again
    report = json.loads(bob.dp("trust", "--show", "--json", cwd=clone).stdout)
    assert report[0]["state"] == "changed" and report[0]["since_trusted"][-1] == "1 rule unchanged"

    assert bob.dp("trust", cwd=clone).returncode == 0
    assert "Flag `--wisp` should be `--temp`" in bob.session_start(clone)
    again = bob.dp("trust", "--show", cwd=clone).stdout
    assert again.startswith(f"{rules} (trusted):\n  line 6: bd: Flag `--wisp` should be `--temp`")
    assert "since you trusted it" not in again


def test_a_change_of_comments_only_says_the_rules_are_the_ones_trusted(team):
    _, _, bob, clone = team
    rules = clone / ".dp" / "rules.toml"
    rules.write_text(rules.read_text() + "\n# reviewed by the team\n")
    shown = bob.dp("trust", "--show", cwd=clone).stdout.splitlines()
    assert shown[1:4] == ["  since you trusted it:",
                          "  its rules are the ones you trusted (only comments or layout changed)",
                          "  3 rules unchanged"]


def test_trust_kept_without_a_copy_shows_the_whole_file_and_untrust_drops_the_copies(team):
    """A record made before dp kept a copy of what was trusted (or a copy that no longer reads as its hash)
    shows the whole file, as before; untrusting deletes the copies nobody's trust names."""
    alice, work, bob, clone = team
    copies = list((bob.home / ".dp" / "trusted").iterdir())
    assert len(copies) == 1 and len(copies[0].name) == 64
    copies[0].write_text("[meta]\nversion = 1\n")  # not the bytes its name says: never read
    teammate_changes_the_rules(alice, work, bob, clone)
    shown = bob.dp("trust", "--show", cwd=clone).stdout
    assert "  since you trusted it:" not in shown
    assert "  line 6: bd: Flag `--wisp` should be `--temp` (--wisp is --temp now)" in shown
    assert "  line 15: ls: Flag `-l` should be `--long`" in shown
    assert bob.dp("untrust", cwd=clone).returncode == 0
    assert list((bob.home / ".dp" / "trusted").iterdir()) == []
