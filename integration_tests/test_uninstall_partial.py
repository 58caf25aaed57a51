"""dp uninstall when the files dp wrote have changed since: each place is reported on its own.

A settings file the user broke by hand cannot be edited safely, so its entry
is an error (exit 1) and stays on record for the next run; every other place
is still cleaned up; a file the user deleted is simply no longer installed.
"""

from __future__ import annotations

import json


def test_a_broken_file_is_one_error_and_the_rest_is_still_removed(dp, home, tmp_path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    for args in (["alias", "read_file", "Read"], ["pave", "--hook", "--scope", "project"], ["pave", "--hook", "--scope", "local"],
                 ["pave", "--agents-md", "--include-personal", "--output", "AGENTS.md"]):
        assert dp(*args, cwd=project).returncode == 0
    project_settings = project / ".claude" / "settings.json"
    healthy = project_settings.read_text()
    local = project / ".claude" / "settings.local.json"
    local.write_text('{"hooks": {broken')  # the user's hand edit gone wrong
    (project / "AGENTS.md").unlink()

    proc = dp("uninstall", "--json", cwd=project)
    assert proc.returncode == 1, proc.stderr
    reports = {(r["kind"], r["scope"] or "-"): r for r in json.loads(proc.stdout)["removed"]}
    assert reports[("hook", "local")]["status"] == "error"
    assert str(local) in reports[("hook", "local")]["error"]
    assert reports[("hook", "project")]["status"] == "removed"
    assert reports[("block", "-")]["status"] == "not_installed"
    assert "pave-check" not in (project_settings.read_text() if project_settings.exists() else "")
    assert local.read_text() == '{"hooks": {broken'  # never rewritten

    # The failed place stays on record: once the file is fixed, the next run removes it.
    local.write_text(healthy)
    again = dp("uninstall", "--json", cwd=project)
    assert again.returncode == 0, again.stderr
    assert [(r["kind"], r["scope"], r["status"]) for r in json.loads(again.stdout)["removed"]] == [
        ("hook", "local", "removed")]
    assert not local.exists()  # dp created it: with its entries gone it goes too


def test_text_report_names_the_error_and_what_was_removed(dp, home, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    assert dp("pave", "--hook", "--scope", "local", cwd=project).returncode == 0
    (project / ".claude" / "settings.local.json").write_text("[]")
    proc = dp("uninstall", cwd=project)
    assert proc.returncode == 1
    assert proc.stdout.startswith(f"Could not remove dp's hook entries from {project / '.claude' / 'settings.local.json'}"
                                  " (local scope): ")
    assert "Traceback" not in proc.stderr
