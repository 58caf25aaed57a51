"""`dp init` installs the capture hooks: one async entry per event, idempotent, removable, optional."""

from __future__ import annotations

import json
from pathlib import Path

from capture_support import CAPTURE_BIN, failure, run_capture, stored

EVENTS = ("PostToolUseFailure", "PostToolUse")


def _settings(home: Path) -> dict:
    return json.loads((home / ".claude" / "settings.json").read_text())


def _capture_entries(settings: dict) -> dict:
    return {
        event: [(group.get("matcher"), hook) for group in settings.get("hooks", {}).get(event, [])
                for hook in group["hooks"] if "dp-capture" in hook.get("command", "")]
        for event in EVENTS
    }


def test_init_installs_one_capture_entry_per_event_async_after_a_success(dp, home, db_path, env):
    """After a failure dp-capture runs in line: its learned answer must reach the model with the result."""
    report = json.loads(dp("init", "--json").stdout)
    assert report["hook"]["capture"]["status"] == "configured"
    entries = _capture_entries(_settings(home))
    for event in EVENTS:
        [(matcher, hook)] = entries[event]
        assert matcher == "*"
        assert hook.get("async") is (None if event == "PostToolUseFailure" else True)
        assert hook["type"] == "command" and hook["timeout"] == 60
        # the real program, and the store this dp uses (Claude Code does not pass DP_DB on)
        assert hook["command"] == f"{CAPTURE_BIN.resolve()} --db {db_path}"
    # The installed command really records into the user's store.
    assert run_capture(failure("python x.py", "Exit code 127"), "--db", db_path, env=env).returncode == 0
    assert len(stored(db_path)) == 1


def test_init_again_changes_nothing(dp, home):
    dp("init")
    before = (home / ".claude" / "settings.json").read_bytes()
    report = json.loads(dp("init", "--json").stdout)
    assert report["hook"]["capture"]["status"] == "already_configured"
    assert (home / ".claude" / "settings.json").read_bytes() == before


def test_a_changed_capture_entry_is_repaired_in_place_not_duplicated(dp, home):
    dp("init")
    path = home / ".claude" / "settings.json"
    settings = _settings(home)
    settings["hooks"]["PostToolUse"][0]["hooks"][0]["async"] = False
    settings["hooks"]["PostToolUse"].append({"matcher": "Bash", "hooks": [{"type": "command", "command": "dp-capture"}]})
    settings["hooks"]["PostToolUse"].append({"matcher": "Edit", "hooks": [{"type": "command", "command": "my-linter"}]})
    path.write_text(json.dumps(settings))
    report = json.loads(dp("init", "--json").stdout)
    assert report["hook"]["capture"]["status"] == "updated"
    entries = _capture_entries(_settings(home))
    assert [len(entries[event]) for event in EVENTS] == [1, 1]
    assert entries["PostToolUse"][0][1]["async"] is True
    assert {"matcher": "Edit", "hooks": [{"type": "command", "command": "my-linter"}]} in _settings(home)["hooks"]["PostToolUse"]


def test_no_capture_installs_only_the_pretooluse_hook(dp, home):
    report = json.loads(dp("init", "--no-capture", "--json").stdout)
    assert "capture" not in report["hook"]
    hooks = _settings(home)["hooks"]
    assert "PreToolUse" in hooks and not set(EVENTS) & set(hooks)


def test_unhook_removes_the_capture_entries_too(dp, home):
    dp("init")
    proc = dp("pave", "--unhook", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["removed"] >= 3  # pave-check's entries and the two capture entries
    path = home / ".claude" / "settings.json"
    assert not path.exists() or not _settings(home).get("hooks")  # dp's file, emptied, may go entirely
