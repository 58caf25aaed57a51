"""Registering ``dp mcp`` with Claude Code (``dp pave --mcp``, ``dp init --mcp``), ``dp doctor``'s
mcp check, and the import boundary: only ``dp mcp`` loads the MCP SDK."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_assertions import assert_one_line_error

DP_REAL = os.path.realpath(Path(sys.executable).parent / "dp")
# What `claude mcp add --scope user|project dp -- DP mcp` writes (Claude Code 2.1.330).
ENTRY = {"type": "stdio", "command": DP_REAL, "args": ["mcp"], "env": {}}


@pytest.fixture
def project(tmp_path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path


def read_json(path: Path):
    return json.loads(path.read_text())


def test_project_scope_writes_mcp_json_like_claude_mcp_add(dp, project):
    first = dp("pave", "--mcp", "--scope", "project", cwd=project)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[:2] == [
        f"Registered the dp MCP server in {project}/.mcp.json (project scope).",
        f"  command: {DP_REAL} mcp",
    ]
    assert read_json(project / ".mcp.json") == {"mcpServers": {"dp": ENTRY}}
    before = (project / ".mcp.json").stat()
    again = dp("pave", "--mcp", "--scope", "project", "--json", cwd=project)
    assert json.loads(again.stdout)["status"] == "already_configured"
    after = (project / ".mcp.json").stat()
    assert (after.st_mtime_ns, after.st_ino) == (before.st_mtime_ns, before.st_ino)  # not even rewritten


def test_user_scope_keeps_everything_else_in_claude_json(dp, home, project):
    config = home / ".claude.json"
    original = {
        "firstStartTime": "2026-11-24T06:29:04.506Z",
        "mcpServers": {"github": {"type": "http", "url": "https://example.com/mcp"},
                       "dp": {"type": "stdio", "command": "/old/dp", "args": ["mcp"], "env": {}}},
        "projects": {"/work/app": {"allowedTools": [], "mcpServers": {}}},
        "zzz": [1, 2.5, None],
    }
    config.write_text(json.dumps(original, indent=2))
    config.chmod(0o600)
    result = json.loads(dp("pave", "--mcp", "--json", cwd=project).stdout)
    assert result["status"] == "updated" and result["scope"] == "user" and result["config"] == str(config)
    written = read_json(config)
    assert list(written) == list(original)  # keys keep their order
    assert written["mcpServers"] == {"github": original["mcpServers"]["github"], "dp": ENTRY}
    assert written["projects"] == original["projects"] and written["zzz"] == original["zzz"]
    assert oct(config.stat().st_mode & 0o777) == "0o600"
    assert read_json(Path(result["backup"])) == original

    removed = json.loads(dp("pave", "--unmcp", "--scope", "user", "--json", cwd=project).stdout)
    assert removed["status"] == "removed"
    assert read_json(config)["mcpServers"] == {"github": original["mcpServers"]["github"]}
    gone = json.loads(dp("pave", "--unmcp", "--json", cwd=project).stdout)
    assert gone["status"] == "not_installed"


def test_registrations_are_recorded_for_dp_uninstall(dp, db_path, project):
    from dp.store.installs import MCP, read

    dp("pave", "--mcp", "--scope", "project", cwd=project)
    [recorded] = read(db_path, MCP)
    assert (recorded.path, recorded.kind, recorded.scope, recorded.created_file) == (
        str(project / ".mcp.json"), "mcp", "project", True)
    assert recorded.details == {"command": DP_REAL, "args": ["mcp"]}
    dp("pave", "--unmcp", "--scope", "project", cwd=project)
    assert read(db_path, MCP) == []
    assert read_json(project / ".mcp.json") == {}  # no empty "mcpServers" residue; dp uninstall deletes the file


def test_a_symlinked_config_is_written_through(dp, home, tmp_path, project):
    real = tmp_path / "dotfiles" / "claude.json"
    real.parent.mkdir()
    real.write_text('{"theme": "dark"}\n')
    (home / ".claude.json").symlink_to(real)
    assert dp("pave", "--mcp", cwd=project).returncode == 0
    assert (home / ".claude.json").is_symlink()
    assert read_json(real) == {"theme": "dark", "mcpServers": {"dp": ENTRY}}


def test_bad_config_and_options_are_one_line_errors(dp, home, project):
    (home / ".claude.json").write_text('{"mcpServers": {"dp": 1}, "mcpServers": {}}')
    assert_one_line_error(dp("pave", "--mcp", cwd=project), "appears twice")
    assert (home / ".claude.json").read_text() == '{"mcpServers": {"dp": 1}, "mcpServers": {}}'
    (project / ".mcp.json").write_text('{"mcpServers": []}')
    assert_one_line_error(dp("pave", "--mcp", "--scope", "project", cwd=project), "mcpServers is not a JSON object")
    assert_one_line_error(dp("pave", "--mcp", "--scope", "local", cwd=project), "unknown scope 'local' for --mcp")
    assert_one_line_error(dp("pave", "--mcp", "--permission", "ask", cwd=project), "--permission goes with --hook")
    assert_one_line_error(dp("pave", "--mcp", "--hook", cwd=project), "choose one of")


def test_init_registers_the_server_too(dp, home, project):
    result = dp("init", "--mcp", "--scope", "project", "--json", cwd=project)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["mcp"]["status"] == "configured" and report["hook"]["status"] == "configured"
    assert read_json(project / ".mcp.json") == {"mcpServers": {"dp": ENTRY}}
    text = dp("init", "--mcp", "--scope", "project", cwd=project).stdout
    assert f"MCP:   The dp MCP server is already registered in {project}/.mcp.json (project scope)" in text


def test_doctor_says_whether_it_is_registered_and_starts(dp, home, project):
    def mcp_findings():
        report = json.loads(dp("doctor", "--json", cwd=project).stdout)
        return [check for check in report["checks"] if check["check"] == "mcp"]

    [absent] = mcp_findings()
    assert absent["status"] == "ok" and "not registered" in absent["message"]
    dp("pave", "--mcp", "--scope", "project", cwd=project)
    [found] = mcp_findings()
    assert found["status"] == "ok", found
    assert found["message"] == (f"registered in project scope ({project}/.mcp.json); it starts and lists 5 tools: "
                                "project_recipe, run_script, project_actions, recipe, tasks")
    # A cloned repository's .mcp.json naming another program is reported, never started.
    marker = project / "started"
    (project / ".mcp.json").write_text(json.dumps(
        {"mcpServers": {"dp": {"type": "stdio", "command": "sh", "args": ["-c", f"touch {marker}"]}}}))
    [foreign] = mcp_findings()
    assert foreign["status"] == "warning" and "it was not started" in foreign["message"]
    assert not marker.exists()


def test_doctor_reports_a_server_that_does_not_start(dp, home, project):
    (home / ".claude.json").write_text(json.dumps({"mcpServers": {"dp": {**ENTRY, "args": ["mcp", "--bogus"]}}}))
    [finding] = [c for c in json.loads(dp("doctor", "--json", cwd=project).stdout)["checks"] if c["check"] == "mcp"]
    assert finding["status"] == "error", finding
    assert "registered in user scope" in finding["message"] and "the server did not start" in finding["message"]
    assert "--bogus" in finding["message"] and finding["fix"] == "dp pave --mcp --scope user"


PROBE = """
import sys
from dp.cli.main import main
status = main(sys.argv[1:])
print("LOADED" if any(name == "mcp" or name.startswith("mcp.") for name in sys.modules) else "CLEAN")
"""


@pytest.mark.parametrize("args", [["--help"], ["tasks", "--help"], ["pave", "--mcp", "--scope", "project"], ["doctor"]])
def test_only_dp_mcp_imports_the_sdk(env, project, args):
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=project, env=env, capture_output=True, text=True)
    assert proc.stdout.splitlines()[-1] == "CLEAN", proc.stderr
