"""dp's hook entries follow the rules: `if` filters written at install and kept in sync by every rule change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def claude_version(tmp_path):
    """A stand-in `claude` that answers --version like the real one; returns the env to use it."""

    def make(version: str) -> dict:
        path = tmp_path / "fake-claude"
        path.write_text(f"#!/bin/sh\necho '{version} (Claude Code)'\n")
        path.chmod(0o755)
        return {"DP_CLAUDE": str(path)}

    return make


def _hooks(home: Path) -> dict:
    return json.loads((home / ".claude" / "settings.json").read_text())["hooks"]


def _conditions(hooks: dict) -> list:
    return [(group["matcher"], handler.get("if")) for group in hooks.get("PreToolUse", []) for handler in group["hooks"]]


def test_filtered_install_follows_every_rule_change(dp, home, claude_version):
    env = claude_version("2.1.330")
    dp("paving", "off")  # paving's own command words are the next test's subject
    report = json.loads(dp("init", "--json", extra_env=env).stdout)
    assert report["hook"]["filters"]["filtered"] is True
    assert "2.1.330" in report["hook"]["filters"]["reason"]
    hooks = _hooks(home)
    # no rules: only a Bash call naming dp starts the hook (its commands only a person runs, dp.widening)
    assert _conditions(hooks) == [("Bash", "Bash(*dp*)")]
    assert [len(hooks[event]) for event in ("SessionStart", "PostToolBatch")] == [1, 1]

    proc = dp("alias", "--cmd", "grep", "--replace", "rg")
    assert proc.returncode == 0 and "Hook entries updated in" in proc.stderr
    assert _conditions(_hooks(home)) == [("Bash", "Bash(*dp*)"), ("Bash", "Bash(*grep*)")]

    dp("alias", "read_file", "Read")
    dp("alias", "--tool", "Edit", "--param", "file_path", "/old", "/new")
    assert _conditions(_hooks(home))[2:] == [("Edit|read_file", None)]

    unchanged = dp("alias", "--cmd", "grep", "--replace", "rg", "--message", "faster")
    assert "Hook entries" not in unchanged.stderr  # same words: the file is not touched

    dp("alias", "--delete", "--cmd", "grep", "--replace", "rg")
    assert _conditions(_hooks(home)) == [("Bash", "Bash(*dp*)"), ("Edit|read_file", None)]


def test_project_paving_words_share_stems_while_paving_is_on(dp, home, claude_version):
    """Paving's 39 words and dp's own name fit in fewer conditions (one per stem they share): an ordinary
    call starts no hook process with paving on, and paving off drops its words from the filters."""
    from dp.agents.claude.filters import stems
    from dp.paving import WORDS

    dp("init", extra_env=claude_version("2.1.330"))
    on = _conditions(_hooks(home))
    assert on == [("Bash", f"Bash(*{stem}*)") for stem in stems(sorted(WORDS | {"dp"}))]
    assert ("Bash", "Bash(*npm*)") in on and ("Bash", "Bash(*pyt*)") in on and len(on) < len(WORDS)
    proc = dp("paving", "off")
    assert "Hook entries updated in" in proc.stderr
    assert _conditions(_hooks(home)) == [("Bash", "Bash(*dp*)")]
    dp("paving", "on")
    assert _conditions(_hooks(home)) == on


def test_more_conditions_than_pay_for_take_the_plain_bash_handler(dp, home, claude_version):
    from dp.agents.claude.filters import MAX_CONDITIONS

    dp("paving", "off")
    dp("init", extra_env=claude_version("2.1.330"))
    words = [f"t{n:02d}" for n in range(MAX_CONDITIONS)]  # none holds another's stem; dp's own name is one more
    for word in words[:-1]:
        dp("alias", "--cmd", word, "--replace", word.upper())
    assert _conditions(_hooks(home)) == [("Bash", f"Bash(*{word}*)") for word in ["dp", *words[:-1]]]
    proc = dp("alias", "--cmd", words[-1], "--replace", "last")
    assert _conditions(_hooks(home)) == [("Bash", None)]
    said = _said(dp("doctor", extra_env=claude_version("2.1.330")).stdout)
    assert f"pave-check starts for every Bash command: the rules' {MAX_CONDITIONS + 1} command words" in said, proc.stderr
    assert (f"need more than the {MAX_CONDITIONS} `if` conditions dp writes: a command Claude Code cannot analyze "
            "would start one process each") in said
    dp("alias", "--delete", "--cmd", words[-1], "--replace", "last")
    assert len(_conditions(_hooks(home))) == MAX_CONDITIONS


def test_import_syncs_and_a_bash_wide_rule_takes_the_plain_bash_handler(dp, home, tmp_path, claude_version):
    dp("init", extra_env=claude_version("2.1.85"))
    collection = tmp_path / "team.json"
    collection.write_text(json.dumps({"aliases": [
        {"from": "scp", "to": "rsync", "match_kind": "command", "tool": "Bash", "param": "command", "command": "scp"},
        {"from": "foo", "to": "bar", "match_kind": "regex", "tool": "Bash", "param": "command"},
    ]}))
    proc = dp("aliases", "import", str(collection))
    assert proc.returncode == 0, proc.stderr
    assert _conditions(_hooks(home)) == [("Bash", None)]


def test_an_old_claude_gets_the_plain_handler_and_is_told_why(dp, home, claude_version):
    dp("alias", "--cmd", "grep", "--replace", "rg")
    proc = dp("pave", "--hook", extra_env=claude_version("2.1.80"))
    assert proc.returncode == 0, proc.stderr
    assert "Claude Code 2.1.80 has no hook `if` filters" in proc.stdout
    assert _conditions(_hooks(home)) == [("*", None)]
    dp("alias", "--cmd", "scp", "--replace", "rsync")
    assert _conditions(_hooks(home)) == [("*", None)]


def test_sync_touches_only_dp_entries_in_every_recorded_file(dp, home, tmp_path, claude_version):
    env = claude_version("2.1.330")
    dp("paving", "off")
    other = tmp_path / "other" / "settings.json"
    other.parent.mkdir()
    own = {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/guard.sh", "if": "Bash(rm *)"}]}
    other.write_text(json.dumps({"model": "x", "hooks": {"PreToolUse": [own]}}, indent=4))
    dp("init", extra_env=env)
    dp("pave", "--hook", "--settings", str(other), extra_env=env)
    dp("alias", "--cmd", "grep", "--replace", "rg")
    for path in (home / ".claude" / "settings.json", other):
        settings = json.loads(path.read_text())
        assert ("Bash", "Bash(*grep*)") in _conditions(settings["hooks"])
    settings = json.loads(other.read_text())
    assert list(settings) == ["model", "hooks"] and settings["hooks"]["PreToolUse"][0] == own


def test_a_settings_file_that_broke_is_a_warning_not_a_failed_alias(dp, home, claude_version):
    dp("init", extra_env=claude_version("2.1.330"))
    (home / ".claude" / "settings.json").write_text("{ not json")
    proc = dp("alias", "--cmd", "grep", "--replace", "rg")
    assert proc.returncode == 0
    assert "dp: warning: could not update dp's hook entries:" in proc.stderr and "not valid JSON" in proc.stderr


def test_doctor_reports_stale_entries_and_where_each_kind_takes_effect(dp, home, claude_version):
    env = claude_version("2.1.330")
    dp("paving", "off")
    dp("init", extra_env=env)
    dp("alias", "read_file", "Read")
    dp("alias", "--cmd", "grep", "--replace", "rg")
    checks = json.loads(dp("doctor", "--json", extra_env=env).stdout)["checks"]
    [entries] = [c for c in checks if c["check"] == "entries"]
    assert entries["status"] == "ok" and "hook entries match the rules" in entries["message"]
    assert ("pave-check starts for Bash commands naming dp, grep (2 `if` conditions: a command Claude Code cannot "
            "analyze, such as a loop over `$f`, starts all 2); calls of read_file") in entries["message"]
    reach = " ".join(c["message"] for c in checks if c["check"] == "reach")
    assert "(read_file) cannot be blocked" in reach and "after the failed call (PostToolBatch)" in reach
    assert "Claude Code 2.1.330" in reach and "1 Bash rule rewrites the command" in reach

    path = home / ".claude" / "settings.json"
    settings = json.loads(path.read_text())
    settings["hooks"]["PreToolUse"][0]["hooks"][0]["if"] = "Bash(*grep *)"  # as an older dp wrote it
    path.write_text(json.dumps(settings))
    checks = json.loads(dp("doctor", "--json", extra_env=env).stdout)["checks"]
    [entries] = [c for c in checks if c["check"] == "entries"]
    assert entries["status"] == "warning" and "stale" in entries["message"] and entries["fix"] == "dp pave --hook"
    dp("pave", "--hook", extra_env=env)
    assert [c["status"] for c in json.loads(dp("doctor", "--json", extra_env=env).stdout)["checks"]
            if c["check"] == "entries"] == ["ok"]


def _said(text: str) -> str:
    return next(line.strip() for line in text.splitlines() if "pave-check starts for" in line)


def test_init_and_doctor_say_which_calls_start_the_hook_as_the_settings_hold(dp, home, claude_version):
    """Issue 49, finding 5 and issue 52: with paving on the words share stems, one condition each;
    init and doctor say which calls start pave-check, and what a condition costs."""
    env = claude_version("2.1.330")
    init = dp("init", extra_env=env)
    conditions = _conditions(_hooks(home))
    assert None not in [condition for _, condition in conditions]
    said = _said(init.stdout)
    assert said.startswith(f"pave-check starts for Bash commands naming one of {len(conditions)} word stems ("), said
    assert f"a command Claude Code cannot analyze, such as a loop over `$f`, starts all {len(conditions)}" in said
    assert said.endswith("and after a batch in which Claude Code refused a tool name (PostToolBatch)")
    [entries] = [c for c in json.loads(dp("doctor", "--json", extra_env=env).stdout)["checks"] if c["check"] == "entries"]
    assert said in entries["message"] and "if-filtered" not in entries["message"]

    dp("paving", "off")
    dp("alias", "--cmd", "grep", "--replace", "rg")
    assert _conditions(_hooks(home)) == [("Bash", "Bash(*dp*)"), ("Bash", "Bash(*grep*)")]
    [entries] = [c for c in json.loads(dp("doctor", "--json", extra_env=env).stdout)["checks"] if c["check"] == "entries"]
    assert "pave-check starts for Bash commands naming dp, grep (2 `if` conditions" in entries["message"]

    dp("alias", "--tool", "Bash", "--param", "command", "http://old.example", "https://new.example")
    assert _conditions(_hooks(home)) == [("Bash", None)]
    [entries] = [c for c in json.loads(dp("doctor", "--json", extra_env=env).stdout)["checks"] if c["check"] == "entries"]
    assert "pave-check starts for every Bash command: a rule can match any Bash command" in entries["message"]


def test_without_filters_doctor_says_every_call_starts_the_hook(dp, home, claude_version):
    env = claude_version("2.1.80")
    assert "pave-check starts for every tool call (no `if` filters)" in _said(dp("init", extra_env=env).stdout)
    assert _conditions(_hooks(home)) == [("*", None)]
    [entries] = [c for c in json.loads(dp("doctor", "--json", extra_env=env).stdout)["checks"] if c["check"] == "entries"]
    assert "pave-check starts for every tool call (no `if` filters)" in entries["message"]
