"""dp doctor's subject modules called directly on real files: the branches a CLI run rarely reaches.

integration_tests/test_doctor*.py run ``dp doctor`` end to end; these pin
what its modules say about the odder inputs — an MCP entry that is not a
stdio server, an unreadable ``.mcp.json``, other hooks that are prompts or
URLs, a ``--settings`` file named with spaces — with the exact words and
the exact fix command a user would copy.
"""

from __future__ import annotations

import json
import shlex

import pytest

from dp.doctor.collisions import check_colliding_hooks
from dp.doctor.findings import ERROR, OK, WARNING, Finding, summary
from dp.doctor.mcp_check import check_mcp
from dp.doctor.settings_files import SettingsFile, check_settings, reinstall_command, settings_files


@pytest.fixture
def home(tmp_path):
    """A home of its own; the test's project is ``project`` below it, whose ``.mcp.json`` doctor reads."""
    (tmp_path / "home").mkdir()
    (tmp_path / "project").mkdir()
    return tmp_path / "home"


@pytest.fixture
def project(home):
    return home.parent / "project"


# -- mcp ---------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", [
    {"type": "http", "url": "http://localhost:8080/mcp"},
    {"type": "stdio", "command": ["dp", "mcp"]},
    {"type": "stdio", "command": "dp", "args": "mcp"},
    "dp mcp",
])
def test_an_entry_that_is_not_a_stdio_command_is_an_error_with_the_fix(home, project, entry):
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"dp": entry}}))
    [finding] = check_mcp(project, home)
    assert (finding.status, finding.fix) == (ERROR, "dp pave --mcp --scope project")
    assert finding.message == f"dp's entry in project scope ({project / '.mcp.json'}) is not a stdio server command"


def test_an_unreadable_config_is_an_error_that_says_to_fix_it_by_hand(home, project):
    (home / ".claude.json").write_text("{not json")
    [finding] = check_mcp(project, home)
    assert finding.status == ERROR
    assert str(home / ".claude.json") in finding.message
    assert finding.fix == "fix the file by hand, then dp pave --mcp --scope user"


def test_other_servers_do_not_count_as_dp(home, project):
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"github": {"command": "gh-mcp"}}}))
    [finding] = check_mcp(project, home)
    assert finding.status == OK and "not registered" in finding.message


# -- other hooks -----------------------------------------------------------------------------


def settings_file(tmp_path, data, scope="user") -> SettingsFile:
    path = tmp_path / f"{scope}-settings.json"
    path.write_text(json.dumps(data))
    return SettingsFile(scope, path)


def pre_tool_use(*groups) -> dict:
    return {"hooks": {"PreToolUse": list(groups)}}


@pytest.mark.parametrize("matcher, sees_bash", [
    (None, True), ("", True), ("*", True), ("Bash", True), ("Bash|Edit", True), ("B.*", True),
    ("Edit|Write", False), ("bash", False), ("[", False), ("Bash(git *)", False),
])
def test_only_hooks_whose_matcher_selects_bash_collide(tmp_path, matcher, sees_bash):
    group = {"hooks": [{"type": "command", "command": "~/bin/guard.sh"}]}
    if matcher is not None:
        group["matcher"] = matcher
    findings = check_colliding_hooks([settings_file(tmp_path, pre_tool_use(group))])
    assert [f.status for f in findings] == [WARNING if sees_bash else OK]


@pytest.mark.parametrize("hook, described", [
    ({"type": "command", "command": "~/bin/guard.sh"}, "command hook '~/bin/guard.sh'"),
    ({"command": "x" * 200}, f"command hook '{'x' * 80}'"),
    ({"type": "prompt", "prompt": "Is this safe?"}, "prompt hook 'Is this safe?'"),
    ({"type": "http", "url": "https://hooks.example/pre"}, "http hook 'https://hooks.example/pre'"),
    ({"type": "agent"}, "agent hook 'agent'"),
])
def test_a_colliding_hook_is_described_by_what_it_runs(tmp_path, hook, described):
    file = settings_file(tmp_path, pre_tool_use({"matcher": "Bash", "hooks": [hook]}))
    [finding] = check_colliding_hooks([file])
    assert finding.message.startswith(f"{file.where}: {described} (matcher 'Bash') also runs on Bash")
    assert finding.fix.startswith("narrow its matcher")


def test_dp_s_own_hook_and_other_events_are_not_collisions(tmp_path):
    data = {"hooks": {
        "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/opt/dp/bin/pave-check"}]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "logger"}]}],
    }}
    assert [f.status for f in check_colliding_hooks([settings_file(tmp_path, data)])] == [OK]


# -- settings files ------------------------------------------------------------------------------


def test_a_settings_file_named_with_spaces_gets_a_fix_a_shell_can_run(tmp_path, project):
    path = tmp_path / "my settings" / "team's.json"
    path.parent.mkdir()
    path.write_text("{}")
    [custom] = [f for f in settings_files(project, path) if f.scope == "custom"]
    command = reinstall_command(custom)
    assert shlex.split(command) == ["dp", "pave", "--hook", "--settings", str(path)]


def test_each_file_is_read_once_even_through_a_symlink(tmp_path, project):
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text("{}")
    (tmp_path / "alias.json").symlink_to(project / ".claude" / "settings.json")
    files = settings_files(project, tmp_path / "alias.json")
    assert [f.scope for f in files].count("custom") == 0  # the same file as the project scope


def test_settings_problems_each_name_their_file(tmp_path):
    broken = settings_file(tmp_path, {}, scope="project")
    broken.path.write_text("[1, 2")
    broken = SettingsFile("project", broken.path)
    off = settings_file(tmp_path, {"disableAllHooks": True}, scope="local")
    missing = SettingsFile("custom", tmp_path / "typo.json")
    findings = check_settings([broken, off, missing])
    assert [(f.status, f.fix) for f in findings] == [
        (ERROR, f"fix {broken.path} by hand; Claude Code cannot read it either"),
        (ERROR, f'remove "disableAllHooks" from {off.path}'),
        (ERROR, "check the path given to --settings"),
    ]


# -- findings --------------------------------------------------------------------------------------


def test_findings_serialise_with_their_details_and_count_by_status():
    findings = [Finding("latency", OK, "fast", ms=12.5), Finding("rules", WARNING, "none", "dp alias …"),
                Finding("hook", ERROR, "missing", "dp pave --hook"), Finding("mcp", OK, "absent")]
    assert findings[0].to_dict() == {"check": "latency", "status": "ok", "message": "fast", "fix": None,
                                     "details": {"ms": 12.5}}
    assert "details" not in findings[3].to_dict()
    assert summary(findings) == {"ok": 2, "warning": 1, "error": 1}
