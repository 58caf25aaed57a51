"""`dp doctor --json`, one subject module at a time (store, hook, collisions, rules, latency),
on real stores and real settings files in a temporary HOME: the findings the other doctor
tests do not reach."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest


def _checks(proc) -> list[dict]:
    return json.loads(proc.stdout)["checks"]


def _find(checks, check, status=None, fragment=""):
    return [c for c in checks if c["check"] == check and status in (None, c["status"]) and fragment in c["message"]]


def _settings(home: Path) -> dict:
    return json.loads((home / ".claude" / "settings.json").read_text())


def _write_settings(home: Path, data: dict) -> None:
    (home / ".claude" / "settings.json").write_text(json.dumps(data, indent=2))


def _insert_raw_rule(db_path: Path, *values) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO aliases_v3 VALUES (?, ?, ?, ?, ?, ?, '', '2026-01-01T00:00:00Z')", values)


def _dp_command(home: Path) -> str:
    [hook] = _settings(home)["hooks"]["PreToolUse"][0]["hooks"]
    return hook["command"]


def _single_hook(home: Path, command: str, **fields) -> None:
    entry = {"type": "command", "command": command, "timeout": 5, **fields}
    _write_settings(home, {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [entry]}]}})


@pytest.fixture
def installed(dp):
    proc = dp("init")
    assert proc.returncode == 0, proc.stderr


# -- store --------------------------------------------------------------------


def test_an_older_store_is_a_warning_that_names_the_migration(dp, db_path, installed):
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA user_version = 1")
    proc = dp("doctor", "--json")
    [store] = _find(_checks(proc), "store", "warning", "schema 1, current is")
    assert store["fix"] == "dp init (migrates the store)"


def test_a_store_from_a_newer_dp_is_an_error(dp, db_path, installed):
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA user_version = 99")
    proc = dp("doctor", "--json")
    assert proc.returncode == 1
    [store] = _find(_checks(proc), "store", "error", "schema 99, newer than this dp")
    assert store["fix"] == "upgrade dp: uv tool upgrade desire-paths, pipx upgrade desire-paths or pip install -U desire-paths"


def test_a_file_that_is_not_a_store(dp, db_path):
    db_path.write_bytes(b"this is not SQLite at all" * 100)
    proc = dp("doctor", "--json")
    assert proc.returncode == 1
    [store] = _find(_checks(proc), "store", "error", str(db_path))
    assert store["fix"] == "move the file aside, then run: dp init"
    assert not _find(_checks(proc), "rules")


def test_an_empty_store_says_the_hook_changes_nothing(dp, installed):
    [rules] = _find(_checks(dp("doctor", "--json")), "rules", "warning", "no rules yet")
    assert rules["fix"].startswith("dp alias read_file Read")


def test_rule_counts_by_kind(dp, installed):
    dp("alias", "read_file", "Read")
    dp("alias", "--cmd", "grep", "--replace", "rg")
    [counts] = _find(_checks(dp("doctor", "--json")), "rules", "ok", "2 rules: alias 1, command 1")
    assert counts["details"] == {"counts": {"alias": 1, "command": 1}}


# -- hook ---------------------------------------------------------------------


def test_the_go_tools_dp_pave_check_as_the_hook_program(dp, home, installed):
    _single_hook(home, "dp pave-check")
    [finding] = _find(_checks(dp("doctor", "--json")), "hook", "warning", "loads its whole CLI")
    assert finding["fix"] == "dp pave --hook"


def test_a_hook_program_that_is_not_executable(dp, home, tmp_path, installed):
    program = tmp_path / "pave-check"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o644)
    _single_hook(home, str(program))
    proc = dp("doctor", "--json")
    assert proc.returncode == 1
    assert _find(_checks(proc), "hook", "error", f"{program} is not executable")


def test_a_hook_program_looked_up_on_path(dp, home, installed):
    program = _dp_command(home).split()[0]
    _single_hook(home, _dp_command(home).replace(program, "pave-check", 1))
    checks = _checks(dp("doctor", "--json", extra_env={"PATH": f"{Path(program).parent}:/usr/bin:/bin"}))
    assert _find(checks, "hook", "ok", "installed in user scope")
    assert _find(checks, "hook", "warning", "'pave-check' is looked up on PATH at every call")


def test_a_hook_registered_for_an_event_it_does_not_answer(dp, home, installed):
    settings = _settings(home)
    settings["hooks"]["Stop"] = [{"hooks": [{"type": "command", "command": _dp_command(home)}]}]
    _write_settings(home, settings)
    [stop] = _find(_checks(dp("doctor", "--json")), "hook", "warning", "registered for Stop")
    assert stop["fix"] == "dp pave --unhook && dp pave --hook"


def test_a_missing_timeout_is_a_warning(dp, home, installed):
    settings = _settings(home)
    del settings["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"]
    _write_settings(home, settings)
    assert _find(_checks(dp("doctor", "--json")), "hook", "warning", "timeout is missing (Claude Code waits up to 600 s)")


def test_a_project_scope_hook_gets_a_scoped_fix(dp, tmp_path, installed):
    project = tmp_path / "project"
    project.mkdir()
    dp("pave", "--unhook")
    dp("pave", "--hook", "--scope", "project", cwd=project)
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    settings["hooks"]["PreToolUse"][0]["hooks"][0]["async"] = True
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    [problem] = _find(_checks(dp("doctor", "--json", cwd=project)), "hook", "error", "'async'")
    assert problem["fix"] == "dp pave --hook --scope project"


# -- other hooks --------------------------------------------------------------


def test_other_hooks_only_count_when_they_see_bash(dp, home, installed):
    settings = _settings(home)
    settings["hooks"]["PreToolUse"] += [
        {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "format-on-write"}]},
        {"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "is this command safe?"}]},
    ]
    _write_settings(home, settings)
    checks = _checks(dp("doctor", "--json"))
    [other] = _find(checks, "other-hooks")
    assert other["status"] == "warning"
    assert "prompt hook 'is this command safe?' (matcher 'Bash')" in other["message"]


# -- rules --------------------------------------------------------------------


def test_aliases_to_aliases_and_to_retired_tools(dp, db_path, installed):
    dp("alias", "read_file", "Read")
    _insert_raw_rule(db_path, "open_file", "read_file", "", "", "", "")
    _insert_raw_rule(db_path, "multi_edit", "MultiEdit", "", "", "", "")
    checks = _checks(dp("doctor", "--json"))
    [chain] = _find(checks, "rules", "warning", "alias open_file → read_file points to another alias")
    assert chain["fix"] == "dp alias --delete open_file, then: dp alias open_file <real tool>"
    [retired] = _find(checks, "rules", "warning", "alias multi_edit → MultiEdit: current Claude Code calls it Edit")
    assert retired["fix"] == "dp alias multi_edit Edit"


def test_a_rule_set_without_problems_says_all_can_fire(dp, installed):
    dp("alias", "--tool", "Edit", "--param", "file_path", "/old", "/new")
    dp("alias", "--cmd", "grep", "--replace", "rg")
    checks = _checks(dp("doctor", "--json"))
    assert _find(checks, "rules", "ok", "all 2 rules can fire")


def test_an_alias_the_client_rejects_first_is_not_counted_as_one_that_can_fire(dp, installed):
    # Claude Code rejects read_file before any hook: the rules line must agree with the reach line.
    dp("alias", "read_file", "Read")
    dp("alias", "list_files", "Glob")
    dp("alias", "--cmd", "grep", "--replace", "rg")
    checks = _checks(dp("doctor", "--json"))
    [valid] = _find(checks, "rules", "ok", "all 3 rules are valid")
    assert valid["message"] == ("all 3 rules are valid: 1 can fire before the call runs; 2 tool-name aliases are "
                                "only told to the model (Claude Code rejects those names before any hook; see reach)")
    reach = " ".join(c["message"] for c in checks if c["check"] == "reach")
    assert "(list_files, read_file) cannot be blocked" in reach and "1 Bash rule rewrites the command" in reach


def test_a_command_rule_without_a_flag_table_only_renames(dp, installed):
    dp("alias", "--cmd", "frobnicate", "--replace", "frob")
    [rename] = _find(_checks(dp("doctor", "--json")), "rules", "warning", "frobnicate → frob only renames")
    assert rename["fix"] == "dp alias --delete --cmd frobnicate --replace frob (if frob reads some flags differently)"


def test_a_raw_recipe_is_named(dp, installed):
    dp("alias", "--recipe", "gt x", "gt y {{ raw|raw }}")
    [raw] = _find(_checks(dp("doctor", "--json")), "rules", "warning", "no longer splices the agent's text unchecked")
    assert raw["message"].endswith("{{ raw|raw }}") and raw["fix"].startswith("drop |raw")


# -- latency ------------------------------------------------------------------


def _fake_hook(home: Path, tmp_path: Path, body: str) -> None:
    program = tmp_path / "bin" / "pave-check"
    program.parent.mkdir(exist_ok=True)
    program.write_text("#!/bin/sh\ncat >/dev/null\n" + body)
    program.chmod(0o755)
    _single_hook(home, str(program))


def test_a_hook_that_fails_is_a_latency_error_with_its_last_line(dp, home, tmp_path, installed):
    _fake_hook(home, tmp_path, "echo first >&2\necho 'the last words' >&2\nexit 3\n")
    proc = dp("doctor", "--json")
    assert proc.returncode == 1
    [latency] = _find(_checks(proc), "latency", "error")
    assert latency["message"] == "the installed hook failed with exit 3: the last words"
    assert latency["details"]["command"] == str(tmp_path / "bin" / "pave-check")


def test_a_hook_that_prints_something_other_than_json(dp, home, tmp_path, installed):
    _fake_hook(home, tmp_path, "echo 'hello there'\n")
    [latency] = _find(_checks(dp("doctor", "--json")), "latency", "error")
    assert latency["message"] == "the installed hook printed output that is not a JSON object"
    assert latency["fix"] == "reinstall dp"


def test_a_slow_hook_is_a_warning_with_its_time(dp, home, tmp_path, installed):
    _fake_hook(home, tmp_path, "sleep 0.3\n")
    [latency] = _find(_checks(dp("doctor", "--json")), "latency", "warning", "(every tool call pays this)")
    assert latency["details"]["milliseconds"] >= 300


# -- capture ------------------------------------------------------------------


def test_capture_hooks_installed_and_failures_counted(dp, home, installed):
    checks = _checks(dp("doctor", "--json"))
    [capture] = _find(checks, "capture", "ok")
    assert capture["message"] == f"capture hooks installed in user scope ({home / '.claude' / 'settings.json'})"
    assert _find(checks, "suggestions", "ok", "no pending suggestions (0 captured failures)")


def test_capture_hooks_missing_says_how_to_install_them(dp, home, installed):
    settings = _settings(home)
    for event in ("PostToolUse", "PostToolUseFailure"):
        settings["hooks"].pop(event, None)
    _write_settings(home, settings)
    [capture] = _find(_checks(dp("doctor", "--json")), "capture", "warning", "capture hooks not installed")
    assert capture["fix"].startswith("dp init")
