"""dp uninstall: every hook entry and block dp put in goes, each file as it was; --purge deletes dp's data."""

from __future__ import annotations

import json

from cli_assertions import assert_one_line_error


def set_up(dp, home, project):
    (project / ".git").mkdir(parents=True)
    (home / ".claude").mkdir(exist_ok=True)
    settings = home / ".claude" / "settings.json"
    settings.write_bytes(b'{\n    "model": "opus",\n    "hooks": {}\n}')  # the user's own style, no final newline
    agents = project / "AGENTS.md"
    agents.write_bytes(b"# Notes\r\n\r\nmine\r\n")
    before = {path: path.read_bytes() for path in (settings, agents)}
    assert dp("alias", "read_file", "Read", cwd=project).returncode == 0
    for args in (["init"], ["pave", "--agents-md", "--include-personal", "--output", "AGENTS.md"],
                 ["pave", "--agents-md", "--include-personal", "--output", "CLAUDE.md"], ["pave", "--hook", "--scope", "local"]):
        proc = dp(*args, cwd=project)
        assert proc.returncode == 0, proc.stderr
    assert (project / "CLAUDE.md").exists() and (project / ".claude" / "settings.local.json").exists()
    return before


def test_uninstall_restores_every_file_byte_for_byte_and_deletes_what_dp_created(dp, home, tmp_path, db_path):
    project = tmp_path / "project"
    before = set_up(dp, home, project)
    dry = json.loads(dp("uninstall", "--dry-run", "--json", cwd=project).stdout)
    assert {(entry["kind"], entry["status"]) for entry in dry["removed"]} == {("hook", "would_remove"),
                                                                               ("block", "would_remove")}
    assert len(dry["removed"]) == 4 and (project / "CLAUDE.md").exists()

    proc = dp("uninstall", cwd=project)
    assert proc.returncode == 0, proc.stderr
    for path, data in before.items():
        assert path.read_bytes() == data, path
    assert not (project / "CLAUDE.md").exists()
    assert not (project / ".claude").exists()
    assert db_path.exists()  # the rules stay without --purge
    again = dp("uninstall", cwd=project)
    assert again.stdout.strip() == "dp has nothing installed here (no hook entries, no blocks)."


def test_purge_needs_a_confirmation_then_deletes_the_store_and_dps_data(dp, home, tmp_path, db_path):
    project = tmp_path / "project"
    set_up(dp, home, project)
    refused = dp("uninstall", "--purge", cwd=project)
    assert_one_line_error(refused, "add --yes to delete without asking (nothing was deleted)")
    assert db_path.exists() and (project / "CLAUDE.md").exists()
    proc = dp("uninstall", "--purge", "--yes", "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert str(db_path) in report["purged"]
    assert not db_path.exists() and not (home / ".dp").exists()
    assert json.loads((home / ".claude" / "settings.json").read_text()) == {"model": "opus", "hooks": {}}


def test_uninstall_removes_mcp_registrations_and_the_claude_md_import(dp, home, tmp_path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    claude_json = home / ".claude.json"
    claude_json.write_bytes(b'{\n  "numStartups": 3,\n  "projects": {}\n}\n')
    claude_md = project / "CLAUDE.md"
    claude_md.write_bytes(b"# House rules\n\nBe brief.\n")
    before = {path: path.read_bytes() for path in (claude_json, claude_md)}
    for args in (["pave", "--mcp", "--scope", "user"], ["pave", "--mcp", "--scope", "project"],
                 ["pave", "--claude-md"]):
        proc = dp(*args, cwd=project)
        assert proc.returncode == 0, proc.stderr
    assert "mcpServers" in json.loads(claude_json.read_text())
    assert (project / ".mcp.json").exists() and b"@AGENTS.md" in claude_md.read_bytes()
    dry = json.loads(dp("uninstall", "--dry-run", "--json", cwd=project).stdout)
    assert sorted(entry["kind"] for entry in dry["removed"]) == ["claude-md", "mcp", "mcp"]

    proc = dp("uninstall", "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert {entry["status"] for entry in json.loads(proc.stdout)["removed"]} == {"removed"}
    for path, data in before.items():
        assert path.read_bytes() == data, path
    assert not (project / ".mcp.json").exists()  # dp created it: it goes


def test_a_claude_md_dp_created_for_the_import_is_deleted(dp, home, tmp_path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    assert dp("pave", "--claude-md", cwd=project).returncode == 0
    assert (project / "CLAUDE.md").read_text() == "@AGENTS.md\n"
    proc = dp("uninstall", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert not (project / "CLAUDE.md").exists()
