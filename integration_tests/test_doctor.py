"""`dp doctor` on real stores and settings files in a temporary HOME."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest


def _checks(proc) -> list[dict]:
    return json.loads(proc.stdout)["checks"]


def _find(checks, check, status=None, fragment=""):
    return [
        c
        for c in checks
        if c["check"] == check and (status is None or c["status"] == status) and fragment in c["message"]
    ]


def _insert_raw_rule(db_path: Path, *values) -> None:
    """A rule `dp alias` would refuse (made by an older tool or edited by hand)."""
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO aliases_v3 VALUES (?, ?, ?, ?, ?, ?, '', '2026-01-01T00:00:00Z')", values)


def _write_settings(home: Path, data: dict) -> Path:
    path = home / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))
    return path


@pytest.fixture
def installed(dp):
    proc = dp("init")
    assert proc.returncode == 0, proc.stderr


def test_healthy_setup_passes(dp, installed):
    dp("alias", "read_file", "Read")
    proc = dp("doctor", "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["ok"] is True and report["summary"]["error"] == 0
    checks = report["checks"]
    assert _find(checks, "store", "ok", "schema")
    assert _find(checks, "rules", "ok", "1 rule: alias 1")
    assert _find(checks, "hook", "ok", "user scope")
    assert _find(checks, "other-hooks", "ok")
    [latency] = _find(checks, "latency")
    assert latency["status"] in ("ok", "warning") and latency["details"]["milliseconds"] >= 0


def test_broken_regex_shadowing_alias_and_colliding_hook(dp, home, db_path, installed):
    _insert_raw_rule(db_path, "Read", "open_file", "", "", "", "")  # no agent's name for Read: it shadows Read
    _insert_raw_rule(db_path, "(unclosed", "x", "Bash", "command", "sed", "regex")
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    settings["hooks"]["PreToolUse"].insert(
        0, {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/rewrite-bash.sh"}]}
    )
    _write_settings(home, settings)

    proc = dp("doctor", "--json")
    assert proc.returncode == 1
    checks = _checks(proc)
    [regex] = _find(checks, "rules", "error", "(unclosed")
    assert "--delete --cmd sed --regex" in regex["fix"]
    [shadow] = _find(checks, "rules", "error", "shadows the real tool Read")
    assert shadow["fix"] == "dp alias --delete Read"
    [collision] = _find(checks, "other-hooks", "warning", "rewrite-bash.sh")
    assert "updatedInput" in collision["message"] and collision["fix"]


def test_recipe_template_that_does_not_parse(dp, db_path, installed):
    _insert_raw_rule(db_path, "gt wait", "{% if %}sleep 1", "Bash", "command", "gt", "recipe")
    proc = dp("doctor", "--json")
    assert proc.returncode == 1
    [problem] = _find(_checks(proc), "rules", "error", "does not parse")
    assert problem["fix"].startswith("dp alias --delete --recipe 'gt wait'")


def test_text_output_has_one_line_per_finding_with_fixes(dp, db_path, installed):
    _insert_raw_rule(db_path, "a", "b", "Edt", "file_path", "", "literal")
    proc = dp("doctor")
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    [problem] = [line for line in lines if "Edt" in line and line.startswith("ERROR")]
    following = lines[lines.index(problem) + 1]
    assert following.strip().startswith("fix: dp alias --delete --tool Edt --param file_path a")
    assert lines[-1].endswith("error(s)")


def test_missing_hook_and_store(dp, db_path):
    proc = dp("doctor", "--json")
    assert proc.returncode == 1
    checks = _checks(proc)
    assert _find(checks, "store", "warning", "does not exist")[0]["fix"] == "dp init"
    assert _find(checks, "hook", "error", "not installed")[0]["fix"] == "dp pave --hook"
    # Doctor only reads: it never creates the store.
    assert not db_path.exists()


def test_hook_through_a_shim_with_a_go_timeout(dp, home, tmp_path, installed):
    shim = tmp_path / ".pyenv" / "shims" / "pave-check"
    shim.parent.mkdir(parents=True)
    shim.write_text('#!/usr/bin/env bash\nexec "$PYENV_ROOT/libexec/pyenv" exec "pave-check" "$@"\n')
    shim.chmod(0o755)
    _write_settings(
        home,
        {
            "hooks": {
                "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": str(shim), "timeout": 3000}]}]
            }
        },
    )
    checks = _checks(dp("doctor", "--json"))
    assert _find(checks, "hook", "warning", "pyenv shim")
    assert _find(checks, "hook", "warning", "3000")


def test_async_dp_hook_is_an_error(dp, home, installed):
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    settings["hooks"]["PreToolUse"][0]["hooks"][0]["async"] = True
    _write_settings(home, settings)
    proc = dp("doctor", "--json")
    assert proc.returncode == 1
    assert _find(_checks(proc), "hook", "error", "'async'")[0]["fix"] == "dp pave --hook"


def test_missing_hook_program_is_an_error(dp, home, installed):
    _write_settings(
        home,
        {
            "hooks": {
                "PreToolUse": [
                    {"matcher": "*", "hooks": [{"type": "command", "command": "/nowhere/pave-check", "timeout": 5}]}
                ]
            }
        },
    )
    proc = dp("doctor", "--json")
    assert proc.returncode == 1
    [gone] = _find(_checks(proc), "dangling", "error", "/nowhere/pave-check, which is gone")
    assert gone["fix"].startswith("dp doctor --fix")
    # The gone program is not timed; this dp's pave-check is, and says why.
    [timed] = _find(_checks(proc), "latency", None, "runs a program that is gone (see dangling)")
    assert timed["status"] != "error"


def test_invalid_settings_and_disabled_hooks(dp, home, tmp_path, installed):
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.local.json").write_text('{"disableAllHooks": true}')
    (project / ".claude" / "settings.json").write_text("{broken")
    checks = _checks(dp("doctor", "--json", cwd=project))
    assert _find(checks, "settings", "error", "not valid JSON")
    assert _find(checks, "settings", "error", "disableAllHooks")


def test_tool_param_rules_for_unknown_or_renamed_tools(dp, db_path, installed):
    _insert_raw_rule(db_path, "/a", "/b", "MultiEdit", "file_path", "", "literal")
    _insert_raw_rule(db_path, "/a", "/b", "Edit", "path", "", "literal")
    dp("alias", "--tool", "mcp__github__create_issue", "--param", "title", "bug", "Bug")
    _insert_raw_rule(db_path, "open_file", "Raed", "", "", "", "")
    checks = _checks(dp("doctor", "--json"))
    assert _find(checks, "rules", "warning", "MultiEdit")[0]["message"].endswith("Edit")
    assert _find(checks, "rules", "warning", "no text parameter 'path'")
    assert _find(checks, "rules", "warning", "no tool named Raed")
    assert not _find(checks, "rules", None, "mcp__github")


def test_hook_installed_in_two_scopes(dp, tmp_path, installed):
    project = tmp_path / "project"
    project.mkdir()
    dp("pave", "--hook", "--scope", "project", cwd=project)
    checks = _checks(dp("doctor", "--json", cwd=project))
    [twice] = _find(checks, "hook", "warning", "2 scopes")
    assert twice["fix"] == "dp pave --unhook --scope project"


def test_hook_reading_another_store(dp, home, tmp_path, installed):
    proc = dp("doctor", "--json", extra_env={"DP_DB": str(tmp_path / "other.db")})
    assert _find(_checks(proc), "hook", "warning", "the hook reads")


def test_a_projects_settings_cannot_make_doctor_run_a_command(dp, tmp_path, installed):
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    tool = project / "tools" / "pave-check"
    tool.parent.mkdir()
    tool.write_text(f"#!/bin/sh\ntouch {project}/ran-tool\n")
    tool.chmod(0o755)
    real = json.loads(dp("pave", "--hook", "--json", "--settings", tmp_path / "probe.json").stdout)["command"]
    entries = {"settings.json": f"{real} && touch {project}/ran-shell", "settings.local.json": str(tool)}
    for name, command in entries.items():
        entry = {"matcher": "*", "hooks": [{"type": "command", "command": command, "timeout": 5}]}
        (project / ".claude" / name).write_text(json.dumps({"hooks": {"PreToolUse": [entry]}}))
    dp("pave", "--unhook")  # so the project entries are the only ones
    checks = _checks(dp("doctor", "--json", cwd=project))
    assert not (project / "ran-shell").exists() and not (project / "ran-tool").exists()
    [latency] = _find(checks, "latency")
    assert "was not run" in latency["message"] and latency["status"] in ("ok", "warning")


def test_a_settings_file_named_on_the_command_line_must_exist(dp, tmp_path, installed):
    proc = dp("doctor", "--json", "--settings", tmp_path / "typo.json")
    assert proc.returncode == 1
    assert _find(_checks(proc), "settings", "error", "typo.json does not exist")


def test_run_from_home_the_user_settings_count_once(dp, home, installed):
    checks = _checks(dp("doctor", "--json", cwd=home))
    assert not _find(checks, "hook", "warning", "scopes")
    assert len(_find(checks, "hook", "ok", "installed in")) == 1


def test_a_hook_path_written_with_tilde_is_found(dp, home, installed):
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    [hook] = settings["hooks"]["PreToolUse"][0]["hooks"]
    program = Path(hook["command"].split()[0])
    (home / "bin").mkdir()
    (home / "bin" / "pave-check").symlink_to(program)
    hook["command"] = hook["command"].replace(str(program), "~/bin/pave-check")
    _write_settings(home, settings)
    proc = dp("doctor", "--json")
    assert proc.returncode == 0, proc.stdout
    assert _find(_checks(proc), "hook", "ok", "~/bin/pave-check")
    assert _find(_checks(proc), "latency", None, "the installed hook")
