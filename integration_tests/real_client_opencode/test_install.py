"""dp init / dp uninstall for OpenCode (1.18.33): the plugin in place for a user or a project, what the
real binary does with it, and every file of the user's as it was, byte for byte."""

from __future__ import annotations

import json
import os

from real_client_opencode.opencode_support import bash

USER_CONFIG = """{
  // the user's own settings, comments and all
  "$schema": "https://opencode.ai/config.json",
  "theme": "system",
  "instructions": ["STYLE.md"]
}
"""
OWN_PLUGIN = "export const Mine = async () => ({})\n"


def users_files(opencode) -> dict:
    """Files a user keeps in OpenCode's config directory and project, before dp."""
    files = {
        opencode.config_dir / "opencode.jsonc": USER_CONFIG,
        opencode.config_dir / "plugins" / "mine.ts": OWN_PLUGIN,
        opencode.config_dir / "AGENTS.md": "# my rules\n",
        opencode.project / "AGENTS.md": "# project rules\n",
        opencode.project / ".opencode" / "opencode.json": '{"share": "disabled"}\n',
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return {path: path.read_bytes() for path in files}


def test_a_user_install_runs_in_the_real_binary_and_uninstall_leaves_the_users_files_byte_for_byte(opencode):
    before = users_files(opencode)
    report = opencode.init()
    plugin = opencode.config_dir / "plugins" / "dp.ts"
    assert report["hook"]["plugin"] == str(plugin) and report["demo"]["ok"]
    assert {path: path.read_bytes() for path in before} == before
    opencode.program("grep", 'echo "GREP RAN" "$@"')
    opencode.program("rg", 'echo "RG RAN:" "$@"')
    opencode.dp("alias", "--cmd", "grep", "--replace", "rg")
    call = bash("grep -n TODO notes.txt")

    session = opencode.run([[call]])

    assert session.result(call).startswith("RG RAN: -n TODO notes.txt")
    # OpenCode itself rewrites a project's .opencode/opencode.json (it adds "$schema", observed in
    # 1.18.33): what dp must give back is each file as it was before `dp uninstall`.
    before = {path: path.read_bytes() for path in before}
    opencode.dp("uninstall")
    assert not plugin.exists() and not plugin.with_name("dp-opencode.json").exists()
    assert {path: path.read_bytes() for path in before} == before

    session = opencode.run([[call]])
    assert session.result(call).startswith("GREP RAN")  # dp is out of the way


def test_a_project_install_finds_each_persons_own_dp_on_path(opencode):
    from agent_home import BIN

    opencode.dp("init", "--agent", "opencode", "--scope", "project")
    plugin = opencode.project / ".opencode" / "plugins" / "dp.ts"
    assert plugin.exists() and not plugin.with_name("dp-opencode.json").exists()
    for program in ("dp", "pave-check", "dp-capture"):
        (opencode.bin / program).symlink_to(BIN / program)
    opencode.program("rg", 'echo "RG RAN:" "$@"')
    opencode.dp("alias", "--cmd", "grep", "--replace", "rg")
    call = bash("grep -n TODO notes.txt")

    session = opencode.run([[call]])

    assert session.result(call).startswith("RG RAN: -n TODO notes.txt")


def test_a_project_plugin_without_dp_on_path_leaves_the_call_alone(opencode):
    opencode.dp("init", "--agent", "opencode", "--scope", "project")
    opencode.dp("alias", "--cmd", "grep", "--replace", "rg")
    opencode.env["PATH"] = os.pathsep.join(d for d in opencode.env["PATH"].split(os.pathsep)
                                           if not os.path.exists(os.path.join(d, "pave-check")))
    opencode.program("grep", 'echo "GREP RAN" "$@"')
    call = bash("grep -n TODO notes.txt")

    session = opencode.run([[call]])

    assert session.proc.returncode == 0, session.log
    assert session.result(call).startswith("GREP RAN")
    assert "dp" not in session.result(call).replace("GREP RAN", "")


def test_doctor_reports_the_plugin_and_its_sample_call(opencode):
    opencode.init()
    report = json.loads(opencode.dp("doctor", "--json", check=False).stdout)
    lines = [f["message"] for f in report["checks"] if f["check"] == "agents"]
    plugin = opencode.config_dir / "plugins" / "dp.ts"
    assert any(line.startswith(f"installed in OpenCode, user scope ({plugin}):") and "a sample call took" in line
               for line in lines), lines
    plugin.write_text(plugin.read_text() + "// changed by hand\n")
    report = json.loads(opencode.dp("doctor", "--json", check=False).stdout)
    found = [f for f in report["checks"] if f["check"] == "agents" and "dp's plugin is" in f["message"]]
    assert found and found[0]["message"].endswith("dp's plugin is outdated")
    assert found[0]["fix"] == "dp pave --hook --agent opencode --scope user"
