"""`dp pave --hook / --unhook` against real settings files in a temporary HOME and project."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_assertions import assert_one_line_error

from dp.agents.settings import unguarded

POPULATED = {
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "model": "claude-opus-4-1",
    "env": {"FOO": "bar"},
    "permissions": {"allow": ["Bash(git status:*)"], "deny": ["Read(./.env)"], "defaultMode": "acceptEdits"},
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {"type": "command", "command": "~/bin/audit.sh", "timeout": 30, "async": True, "if": "Bash(git *)"}
                ],
            },
            {
                "matcher": "Edit|Write",
                "hooks": [{"type": "prompt", "prompt": "Is this edit safe? $ARGUMENTS", "once": True}],
            },
        ],
        "PostToolUse": [
            {"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write", "statusMessage": "fmt"}]}
        ],
        "Stop": [{"hooks": [{"type": "prompt", "prompt": "Did you finish?", "timeout": 30}]}],
    },
    "statusLine": {"type": "command", "command": "~/.claude/statusline.sh", "padding": 0},
    "someFutureSetting": {"nested": [1, 2.5, None, True, "ü"]},
    "enabledPlugins": {"x@y": True},
}


def _settings(home: Path) -> Path:
    return home / ".claude" / "settings.json"


def _write(path: Path, data) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = (json.dumps(data, indent=4, ensure_ascii=False) + "\n").encode()
    path.write_bytes(raw)
    return raw


def _dp_entries(settings: dict, event: str = "PreToolUse") -> list[dict]:
    """dp's handlers for one event (dp also answers SessionStart and PostToolBatch)."""
    return [
        hook
        for group in settings.get("hooks", {}).get(event, [])
        for hook in group.get("hooks", [])
        if "pave-check" in hook.get("command", "")
    ]


def _pairs(value):
    """Value and key order, for comparing JSON 'byte-for-value'."""
    if isinstance(value, dict):
        return [(key, _pairs(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [_pairs(item) for item in value]
    return (type(value).__name__, value)


def test_install_into_missing_settings_creates_them(dp, home):
    proc = dp("pave", "--hook", "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["status"] == "configured" and report["backup"] is None
    settings = json.loads(_settings(home).read_text())
    assert list(settings) == ["hooks"]
    [group] = settings["hooks"]["PreToolUse"]
    assert group["matcher"] == "*"
    [hook] = group["hooks"]
    assert hook["type"] == "command" and hook["timeout"] == 5
    assert hook["command"] == report["command"]


@pytest.mark.parametrize("content", ["", "{}\n"])
def test_install_into_empty_settings(dp, home, content):
    path = _settings(home)
    path.parent.mkdir(exist_ok=True)
    path.write_text(content)
    assert json.loads(dp("pave", "--hook", "--json").stdout)["status"] == "configured"
    assert list(json.loads(path.read_text())) == ["hooks"]
    assert len(_dp_entries(json.loads(path.read_text()))) == 1


def test_hook_command_is_the_real_absolute_pave_check(dp, home, db_path):
    dp("pave", "--hook")
    [hook] = _dp_entries(json.loads(_settings(home).read_text()))
    words = hook["command"].split()
    program = Path(words[0])
    assert program.is_absolute() and program.name == "pave-check"
    assert str(program) == os.path.realpath(program) and os.access(program, os.X_OK)
    # DP_DB is not the default store, so the hook is told which store to read.
    assert words[1:] == ["--db", str(db_path)]


def test_a_pyenv_shim_first_on_path_is_not_installed(dp, home, tmp_path):
    shims = tmp_path / ".pyenv" / "shims"
    shims.mkdir(parents=True)
    shim = shims / "pave-check"
    shim.write_text('#!/usr/bin/env bash\nexec "$PYENV_ROOT/libexec/pyenv" exec "pave-check" "$@"\n')
    shim.chmod(0o755)
    dp("pave", "--hook", extra_env={"PATH": f"{shims}{os.pathsep}{os.environ['PATH']}"})
    [hook] = _dp_entries(json.loads(_settings(home).read_text()))
    assert ".pyenv" not in hook["command"] and "shims" not in hook["command"]


def test_populated_settings_survive_in_value_and_order(dp, home):
    _write(_settings(home), POPULATED)
    proc = dp("pave", "--hook", "--permission", "ask", "--mode", "advise", "--json")
    assert proc.returncode == 0, proc.stderr
    after = json.loads(_settings(home).read_text())
    dp_group = after["hooks"]["PreToolUse"].pop()
    assert dp_group["matcher"] == "*"
    assert dp_group["hooks"][0]["command"].endswith("--permission ask --mode advise")
    for event in ("SessionStart", "PostToolBatch"):
        [group] = after["hooks"].pop(event)
        assert unguarded(group["hooks"][0]["command"]) == dp_group["hooks"][0]["command"]  # PostToolBatch's guard
    assert _pairs(after) == _pairs(POPULATED)


def test_install_twice_gives_one_entry_and_leaves_the_file_alone(dp, home):
    _write(_settings(home), POPULATED)
    first = json.loads(dp("pave", "--hook", "--json").stdout)
    installed = _settings(home).read_bytes()
    second = json.loads(dp("pave", "--hook", "--json").stdout)
    assert (first["status"], second["status"]) == ("configured", "already_configured")
    assert _settings(home).read_bytes() == installed
    assert len(_dp_entries(json.loads(installed))) == 1


def test_changed_options_update_the_entry_in_place(dp, home):
    _write(_settings(home), POPULATED)
    dp("pave", "--hook", "--mode", "advise")
    report = json.loads(dp("pave", "--hook", "--json").stdout)
    assert report["status"] == "updated"
    settings = json.loads(_settings(home).read_text())
    [hook] = _dp_entries(settings)
    assert "--mode" not in hook["command"]
    assert Path(report["backup"]).read_text().count("--mode advise") == 3  # PreToolUse, SessionStart, PostToolBatch


def test_go_tool_entry_is_taken_over_not_duplicated(dp, home):
    go_entry = {"matcher": "*", "hooks": [{"type": "command", "command": "dp pave-check", "timeout": 3000}]}
    _write(_settings(home), {"hooks": {"PreToolUse": [go_entry]}})
    report = json.loads(dp("pave", "--hook", "--json").stdout)
    assert report["status"] == "updated"
    [hook] = _dp_entries(json.loads(_settings(home).read_text()))
    assert hook["timeout"] == 5 and hook["command"].split()[0].endswith("/pave-check")


def test_backup_holds_the_previous_file(dp, home):
    original = _write(_settings(home), POPULATED)
    report = json.loads(dp("pave", "--hook", "--json").stdout)
    assert Path(report["backup"]).read_bytes() == original


def test_a_byte_order_mark_survives_install_and_unhook(dp, home):
    path = _settings(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(POPULATED, indent=2).encode())
    assert dp("pave", "--hook").returncode == 0
    assert path.read_bytes().startswith(b"\xef\xbb\xbf{")
    assert dp("pave", "--unhook").returncode == 0
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf{")
    assert _pairs(json.loads(data.decode("utf-8-sig"))) == _pairs(POPULATED)


def test_unhook_removes_only_dp_entries(dp, home):
    _write(_settings(home), POPULATED)
    dp("pave", "--hook")
    proc = dp("pave", "--unhook", "--json")
    assert json.loads(proc.stdout)["status"] == "removed"
    assert _pairs(json.loads(_settings(home).read_text())) == _pairs(POPULATED)
    again = dp("pave", "--unhook", "--json")
    assert json.loads(again.stdout)["status"] == "not_installed"


def test_unhook_drops_the_event_array_it_empties(dp, home):
    _write(
        _settings(home),
        {
            "theme": "dark",
            "hooks": {"PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "log"}]}]},
        },
    )
    dp("pave", "--hook")
    dp("pave", "--unhook")
    assert json.loads(_settings(home).read_text()) == {
        "theme": "dark",
        "hooks": {"PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "log"}]}]},
    }


def test_unhook_without_a_settings_file_creates_nothing(dp, home):
    proc = dp("pave", "--unhook")
    assert proc.returncode == 0 and "nothing changed" in proc.stdout
    assert not _settings(home).exists()


@pytest.mark.parametrize("content", ['{"model": "x",}', "{\n  // comment\n}", '{"a": 1, "a": 2}', "[]"])
def test_unreadable_settings_are_an_error_that_changes_nothing(dp, home, content):
    path = _settings(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    for args in (("pave", "--hook"), ("pave", "--unhook")):
        proc = dp(*args)
        assert_one_line_error(proc, str(path))
        assert path.read_text() == content
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_read_only_settings_are_left_alone(dp, home):
    path = _settings(home)
    original = _write(path, {"model": "x"})
    path.chmod(0o444)
    assert_one_line_error(dp("pave", "--hook"), "read-only")
    assert path.read_bytes() == original
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


@pytest.mark.parametrize("content", ['{"hooks": []}', '{"hooks": {"PreToolUse": {"matcher": "*"}}}'])
def test_malformed_hooks_are_an_error_naming_the_file(dp, home, content):
    path = _settings(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    assert_one_line_error(dp("pave", "--hook"), f"{path}: \"hooks")
    assert path.read_text() == content


@pytest.mark.parametrize(
    "scope, relative", [("project", ".claude/settings.json"), ("local", ".claude/settings.local.json")]
)
def test_project_and_local_scopes_write_in_the_project(dp, home, tmp_path, scope, relative):
    project = tmp_path / "project"
    project.mkdir()
    report = json.loads(dp("pave", "--hook", "--scope", scope, "--json", cwd=project).stdout)
    assert report["scope"] == scope and Path(report["settings"]) == project / relative
    assert len(_dp_entries(json.loads((project / relative).read_text()))) == 1
    assert not _settings(home).exists()


def test_explicit_settings_path_and_symlinked_file(dp, tmp_path):
    real = tmp_path / "dotfiles" / "claude.json"
    _write(real, {"model": "x"})
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    proc = dp("pave", "--hook", "--settings", link)
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink()
    assert len(_dp_entries(json.loads(real.read_text()))) == 1


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("pave",), "choose one of"),
        (("pave", "--hook", "--unhook"), "choose one of"),
        (("pave", "--hook", "--scope", "global"), "unknown scope"),
        (("pave", "--hook", "--scope", "user", "--settings", "x.json"), "not both"),
        (("pave", "--hook", "--permission", "always"), "--permission"),
        (("pave", "--hook", "--mode", "fix"), "--mode"),
        (("pave", "--unhook", "--mode", "advise"), "options of --hook"),
        (("pave", "--hook", "--output", "A.md"), "--agents-md"),
    ],
)
def test_bad_options_are_one_line_errors(dp, home, args, fragment):
    assert_one_line_error(dp(*args), fragment)
    assert not _settings(home).exists()


def test_permission_allow_needs_yes_and_says_what_it_widens(dp, home):
    refused = dp("pave", "--hook", "--permission", "allow")
    assert refused.returncode == 1 and not _settings(home).exists()
    assert_one_line_error(refused, "runs even without --allowedTools Bash")
    assert "add --yes" in refused.stderr
    assert dp("init", "--permission", "allow").returncode == 1
    proc = dp("pave", "--hook", "--permission", "allow", "--yes")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("dp: warning: --permission allow approves every call dp rewrites")
    assert _dp_entries(json.loads(_settings(home).read_text()))[0]["command"].endswith("--permission allow")


def test_permission_ask_warns_that_non_interactive_runs_refuse_rewrites(dp, home):
    proc = dp("pave", "--hook", "--permission", "ask")
    assert proc.returncode == 0, proc.stderr
    assert "non-interactive runs (claude -p, CI, dp recipe agent steps) cannot ask" in proc.stderr
