"""dp's repository hooks (.github/hooks/dp.json) in the real Copilot CLI: they act only once the folder is
trusted, and ``dp doctor`` says which way of trusting it applies here."""

from __future__ import annotations

import json

from dp.agents.claude.fake_api import shell


def _doctor_lines(copilot, env=None) -> list[dict]:
    proc = copilot.dp("doctor", "--json", check=False, env=env)
    return [finding for finding in json.loads(proc.stdout)["checks"] if finding["check"] == "copilot"]


def test_repository_hooks_act_only_in_a_trusted_folder_and_doctor_says_so(copilot):
    copilot.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    copilot.dp("pave", "--hook", "--agent", "copilot", "--scope", "project")
    hooks_file = copilot.project / ".github" / "hooks" / "dp.json"
    assert json.loads(hooks_file.read_text())["hooks"].keys() == {"sessionStart", "preToolUse"}
    copilot.program("oldtool")
    copilot.program("newtool")

    untrusted = shell("oldtool a")
    session = copilot.run([[untrusted]])
    assert session.tool_result(untrusted["id"])["text"].startswith("oldtool ran: a\n"), session.output
    [warning] = [line for line in _doctor_lines(copilot) if "trusted folder" in line["message"]]
    assert warning["status"] == "warning" and "--trust-folder" in warning["fix"]

    trusted = shell("oldtool b")
    session = copilot.run([[trusted]], "--trust-folder")
    assert session.tool_result(trusted["id"])["text"].startswith("newtool ran: b\n"), session.output

    variable = {"GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS": "true"}
    by_variable = shell("oldtool c")
    session = copilot.run([[by_variable]], env=variable)
    assert session.tool_result(by_variable["id"])["text"].startswith("newtool ran: c\n")
    assert any("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true is set" in line["message"]
               for line in _doctor_lines(copilot, env=variable))

    # Trusted once interactively: Copilot lists the folder in ~/.copilot/config.json, which it writes so.
    config = copilot.home / ".copilot" / "config.json"
    config.write_text("// User settings belong in settings.json.\n// This file is managed automatically.\n"
                      + json.dumps({"trustedFolders": [str(copilot.project)]}, indent=2))
    listed = shell("oldtool d")
    session = copilot.run([[listed]])
    assert session.tool_result(listed["id"])["text"].startswith("newtool ran: d\n")
    [line] = [line for line in _doctor_lines(copilot) if "repository hooks" in line["message"]]
    assert line["status"] == "ok" and "this folder is in trustedFolders" in line["message"]
