"""`dp init` end to end: store, hook, and the live demonstration through the real pave-check."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from cli_assertions import assert_one_line_error

from dp.agents import get, names


def _settings(home: Path) -> dict:
    return json.loads((home / ".claude" / "settings.json").read_text())


def _dp_commands(settings: dict) -> list[str]:
    return [
        hook["command"]
        for group in settings["hooks"]["PreToolUse"]
        for hook in group["hooks"]
        if "pave-check" in hook["command"]
    ]


def test_init_sets_everything_up_and_demonstrates_it(dp, home, db_path, pave_check):
    proc = dp("init")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"Store: {db_path} (created" in out
    assert "Installed the dp PreToolUse hook" in out and str(home / ".claude" / "settings.json") in out
    # What Claude Code really does with read_file: it rejects the name itself, no hook blocks it;
    # the model reads the correction at session start and right after the rejected call.
    assert "blocked" not in out
    assert "session starts: the model is shown the corrections\n    - Do NOT call `read_file`. Use `Read` instead." in out
    assert re.search(r"  agent calls tool read_file: Claude Code( \d[\d.]*)? has no such tool and rejects the call "
                     r"itself, before any hook runs\n    -> right after, the model is told: dp: read_file is not a "
                     r"valid tool\. Use Read instead\.", out), out
    assert "agent runs Bash: grep -n TODO src/app.py" in out
    assert "runs instead: rg -n TODO src/app.py" in out
    assert db_path.exists()
    [command] = _dp_commands(_settings(home))
    # The installed hook reads the user's store, which the demo left empty.
    assert command.endswith(f"--db {db_path}")
    assert sqlite3.connect(db_path).execute("SELECT count(*) FROM aliases_v3").fetchone()[0] == 0
    assert pave_check({"tool_name": "read_file", "tool_input": {}}).returncode == 0


def test_init_twice_changes_nothing_the_second_time(dp, home):
    first = json.loads(dp("init", "--json").stdout)
    settings_bytes = (home / ".claude" / "settings.json").read_bytes()
    second_proc = dp("init", "--json")
    assert second_proc.returncode == 0, second_proc.stderr
    second = json.loads(second_proc.stdout)
    assert (first["store"]["status"], second["store"]["status"]) == ("created", "exists")
    assert (first["hook"]["status"], second["hook"]["status"]) == ("configured", "already_configured")
    assert (home / ".claude" / "settings.json").read_bytes() == settings_bytes
    assert len(_dp_commands(_settings(home))) == 1
    assert second["demo"]["ok"] is True
    assert second["demo"]["rewrite"]["rewritten"] == "rg -n TODO src/app.py"
    assert second["demo"]["rewrite"]["kept_description"] is True
    assert second["demo"]["block"]["exit_code"] == 2
    assert second["demo"]["session_start"]["lines"] == ["- Do NOT call `read_file`. Use `Read` instead.",
                                                        "- grep: Use `rg` instead of `grep`"]
    correction = second["demo"]["correction"]
    assert (correction["event"], correction["ok"]) == ("PostToolBatch", True)
    assert correction["additional_context"] == "dp: read_file is not a valid tool. Use Read instead."


def test_init_keeps_the_users_rules_and_settings(dp, home):
    dp("alias", "--cmd", "scp", "--flag", "r", "R")
    settings_path = home / ".claude" / "settings.json"
    settings_path.parent.mkdir(exist_ok=True)
    settings_path.write_text(
        json.dumps({"model": "opus", "hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "?"}]}]}})
    )
    report = json.loads(dp("init", "--json").stdout)
    assert report["store"]["rules"] == 1
    settings = _settings(home)
    assert settings["model"] == "opus" and settings["hooks"]["Stop"] == [{"hooks": [{"type": "prompt", "prompt": "?"}]}]
    assert Path(report["hook"]["backup"]).exists()


def test_init_in_advise_mode_shows_the_advice(dp, home):
    proc = dp("init", "--mode", "advise")
    assert proc.returncode == 0, proc.stderr
    assert "denied with advice" in proc.stdout and "rg -n TODO src/app.py" in proc.stdout
    assert _dp_commands(_settings(home))[0].endswith("--mode advise")


def test_init_project_scope(dp, home, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    report = json.loads(dp("init", "--scope", "project", "--json", cwd=project).stdout)
    assert Path(report["hook"]["settings"]) == project / ".claude" / "settings.json"
    assert not (home / ".claude" / "settings.json").exists()


def test_init_refuses_broken_settings_without_touching_them(dp, home):
    path = home / ".claude" / "settings.json"
    path.write_text("{oops")
    assert_one_line_error(dp("init"), "not valid JSON")
    assert path.read_text() == "{oops"


def test_bad_options_create_nothing(dp, home, db_path):
    for args in (("--scope", "global"), ("--permission", "always"), ("--mode", "fix")):
        assert_one_line_error(dp("init", *args), args[1])
    assert not db_path.exists() and not (home / ".claude" / "settings.json").exists()


# -- no Claude Code on the machine, and --dry-run ---------------------------------------------------


def _tree(root: Path) -> list:
    """Every path under ``root`` with its mode and bytes: what 'changed nothing' compares."""
    return sorted((str(path.relative_to(root)), path.lstat().st_mode,
                   path.read_bytes() if path.is_file() and not path.is_symlink() else None)
                  for path in root.rglob("*"))


def test_init_without_claude_code_writes_nothing_and_says_so(dp, home):
    (home / ".claude").rmdir()  # a machine where Claude Code never ran, and no claude on PATH
    before = _tree(home)
    proc = dp("init")
    assert_one_line_error(proc, "dp: error: no Claude Code on this machine (no claude on PATH, no ~/.claude): "
                                "nothing was written. Install Claude Code and run dp init again, or name your "
                                "agent: dp init --agent ")
    assert _tree(home) == before == []
    named = dp("init", "--agent", "claude", "--json")  # the person says so: it is written
    assert named.returncode == 0, named.stderr
    assert (home / ".claude" / "settings.json").exists()


@pytest.mark.parametrize("args", [[], ["--json"], ["--mcp"], ["--plugin"]])
def test_init_dry_run_shows_each_change_and_makes_none(dp, home, db_path, tmp_path, args):
    dp("alias", "--cmd", "grep", "--replace", "rg")
    settings = home / ".claude" / "settings.json"
    settings.write_bytes(b'{\n    "model": "opus"\n}')  # the user's own file, own style, no final newline
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    before_home, before_project, before_store = _tree(home), _tree(project), db_path.read_bytes()
    proc = dp("init", "--dry-run", *args, cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert (_tree(home), _tree(project), db_path.read_bytes()) == (before_home, before_project, before_store)
    if args == ["--json"]:
        plan = json.loads(proc.stdout)
        assert plan["dry_run"] is True and plan["store"] == {"path": str(db_path), "status": "exists"}
        [change] = plan["files"]
        assert (change["path"], change["status"]) == (str(settings), "would change")
        assert '+    "model": "opus",' in change["diff"] and "pave-check" in change["diff"]
        return
    assert proc.stdout.startswith("Dry run: nothing was written, created or run.\n"
                                  f"Store: {db_path} (exists)\n")
    if args == ["--plugin"]:
        assert "claude-plugin/dp/hooks/hooks.json (would be created)" in proc.stdout
        assert "Would run: claude plugin install dp@dp-local --scope user" in proc.stdout
        return
    assert f"File:  {settings} (would change)\n       --- {settings}\n       +++ {settings}\n" in proc.stdout
    assert '       -    "model": "opus"\n       +    "model": "opus",\n' in proc.stdout
    assert re.search(r'^       \+ +"command": "\S*pave-check ', proc.stdout, re.M), proc.stdout
    if args == ["--mcp"]:
        assert f"Would: register dp's MCP server in {home / '.claude.json'}" in proc.stdout
    # the same plan, applied, is what dp init writes
    assert dp("init", *args, cwd=project).returncode == 0
    after = settings.read_text()
    shown = [line[8:] for line in proc.stdout.splitlines() if line.startswith("       +") and not line.startswith("       +++")]
    assert "\n".join(shown) in after


@pytest.mark.parametrize("agent", names())
def test_each_agents_demonstration_passes_and_shows_the_corrections_where_they_come_up_front(dp, agent):
    """Every agent's own payloads and answers, whatever their shape (a plugin's ``session.start`` answered with
    ``{"system"}`` as well as Claude Code's ``SessionStart``): the session-start scene is read in each."""
    from dp.install.demo import told_up_front

    proc = dp("init", "--agent", agent, "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    demo = json.loads(proc.stdout)["demo"]
    assert demo["ok"], demo
    if told_up_front(get(agent)):
        assert demo["session_start"]["ok"] and demo["session_start"]["lines"], demo  # the sample rules, read back
