"""dp's OpenCode plugin in the real binary of every agent that runs it (OpenCode, and an agent built on it:
Kilo Code, its harness ``like`` OpenCode's): install and uninstall, the front door, dp doctor and
``--live``, capture through the plugin's hooks. Each agent's names (its config directory, its project
directory, ``dp-NAME.json``) come from its suite's user (integration_tests/plugin_users.py).

The front door: after a plain ``dp init --agent NAME`` the plugin reads dp's hook gate as JSON (dp/hook/gate.py
``door``, written on every rule change) and starts pave-check only for a call a rule, recipe, alias or paving
word could concern, and dp-capture only for a failure and the Bash calls just after it. A recording wrapper
stands in for both programs in the plugin's ``dp-NAME.json``, so every dp process a session starts leaves
one line with the JSON it was given.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from plugin_users import ACTED_ON, UNTOUCHED, bash, recorded, started, user_with_rules

from dp.agents import get
from dp.live.openai_compat import tool_call
from real_client_contract.harnesses import agents

PLUGIN_AGENTS = agents("opencode")
OWN_PLUGIN = "export const Mine = async () => ({})\n"


def users_files(user) -> dict:
    """Files a user keeps in the agent's config directory and project, before dp."""
    name = user.AGENT
    files = {
        user.config_dir / f"{name}.jsonc": '{\n  // the user\'s own settings, comments and all\n  "instructions": ["STYLE.md"]\n}\n',
        user.config_dir / "plugins" / "mine.ts": OWN_PLUGIN,
        user.config_dir / "AGENTS.md": "# my rules\n",
        user.project / "AGENTS.md": "# project rules\n",
        user.project / user.PROJECT_DIR / f"{name}.json": '{"share": "disabled"}\n',
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return {path: path.read_bytes() for path in files}


@pytest.mark.parametrize("harness", PLUGIN_AGENTS)
def test_a_user_install_runs_in_the_real_binary_and_uninstall_leaves_the_users_files_byte_for_byte(harness, user):
    before = users_files(user)
    report = user.init()
    plugin = user.config_dir / "plugins" / "dp.ts"
    assert report["hook"]["plugin"] == str(plugin) and report["demo"]["ok"]
    assert plugin.read_text().startswith(f"// dp (desire paths) in {get(user.AGENT).display}:")
    assert json.loads(plugin.with_name(f"dp-{user.AGENT}.json").read_text())["pave"][1:] == ["--agent", user.AGENT]
    assert {path: path.read_bytes() for path in before} == before
    user.program("grep", 'echo "GREP RAN" "$@"')
    user.program("rg", 'echo "RG RAN:" "$@"')
    user.dp("alias", "--cmd", "grep", "--replace", "rg")
    call = bash("grep -n TODO notes.txt")

    session = user.run([[call]])

    assert session.result(call).startswith("RG RAN: -n TODO notes.txt"), session.log
    # The agent itself may rewrite a project's settings file (OpenCode 1.18.33 adds "$schema" to it): what
    # dp must give back is each file as it was before `dp uninstall`.
    before = {path: path.read_bytes() for path in before}
    user.dp("uninstall")
    assert not plugin.exists() and not plugin.with_name(f"dp-{user.AGENT}.json").exists()
    assert {path: path.read_bytes() for path in before} == before

    session = user.run([[call]])
    assert session.result(call).startswith("GREP RAN")  # dp is out of the way


@pytest.mark.parametrize("harness", PLUGIN_AGENTS)
def test_a_project_install_finds_each_persons_own_dp_on_path(harness, user):
    from agent_home import BIN

    user.dp("init", "--agent", user.AGENT, "--scope", "project")
    plugin = user.project / user.PROJECT_DIR / "plugins" / "dp.ts"
    assert plugin.exists() and not plugin.with_name(f"dp-{user.AGENT}.json").exists()
    for program in ("dp", "pave-check", "dp-capture"):
        (user.bin / program).symlink_to(BIN / program)
    user.program("rg", 'echo "RG RAN:" "$@"')
    user.dp("alias", "--cmd", "grep", "--replace", "rg")
    call = bash("grep -n TODO notes.txt")

    session = user.run([[call]])

    assert session.result(call).startswith("RG RAN: -n TODO notes.txt"), session.log


@pytest.mark.parametrize("harness", PLUGIN_AGENTS)
def test_a_project_plugin_without_dp_on_path_leaves_the_call_alone(harness, user):
    user.dp("init", "--agent", user.AGENT, "--scope", "project")
    user.dp("alias", "--cmd", "grep", "--replace", "rg")
    user.env["PATH"] = os.pathsep.join(d for d in user.env["PATH"].split(os.pathsep)
                                       if not os.path.exists(os.path.join(d, "pave-check")))
    user.program("grep", 'echo "GREP RAN" "$@"')
    call = bash("grep -n TODO notes.txt")

    session = user.run([[call]])

    assert session.proc.returncode == 0, session.log
    assert session.result(call).startswith("GREP RAN")
    assert "dp" not in session.result(call).replace("GREP RAN", "")


@pytest.mark.parametrize("harness", PLUGIN_AGENTS)
def test_doctor_reports_the_plugin_and_its_sample_call(harness, user):
    user.init()
    report = json.loads(user.dp("doctor", "--json", check=False).stdout)
    lines = [f["message"] for f in report["checks"] if f["check"] == "agents"]
    plugin = user.config_dir / "plugins" / "dp.ts"
    assert any(line.startswith(f"installed in {get(user.AGENT).display}, user scope ({plugin}):")
               and "a sample call took" in line for line in lines), lines
    plugin.write_text(plugin.read_text() + "// changed by hand\n")
    report = json.loads(user.dp("doctor", "--json", check=False).stdout)
    found = [f for f in report["checks"] if f["check"] == "agents" and "dp's plugin is" in f["message"]]
    assert found and found[0]["message"].endswith("dp's plugin is outdated")
    assert found[0]["fix"] == f"dp pave --hook --agent {user.AGENT} --scope user"


@pytest.mark.parametrize("harness", PLUGIN_AGENTS)
def test_the_live_check_shows_the_plugin_acting_in_the_real_binary(harness, user):
    user.init()
    user.dp("alias", "--cmd", "grep", "--replace", "rg")
    user.dp("alias", "read_file", "Read", "--message", "dp: read takes filePath")

    proc = user.dp("doctor", "--live", "--agent", user.AGENT, "--json", cwd=user.home, timeout=1200)

    report = json.loads(proc.stdout)
    version = subprocess.run([str(user.binary), "--version"], capture_output=True, text=True, timeout=120,
                             env=user.env).stdout.split()[-1]
    assert report["ok"] is True and report["client"] == get(user.AGENT).display
    assert report["version"] == version
    rewrite, *block = report["probes"]
    assert rewrite["fired"] and any(line.startswith("dp: grep → rg") for line in rewrite["told"])
    if harness.made_up_answer:  # the agent lets the plugin see a made-up tool name (OpenCode's invalid tool)
        assert block[0]["fired"] and block[0]["told"] == ["dp: read takes filePath"]
    else:  # it answers the name itself, before any hook: no probe of it; the corrections come up front
        assert block == []
    assert "Use `read` instead" in report["session_start"]


@pytest.mark.parametrize("harness", PLUGIN_AGENTS)
def test_without_dps_plugin_the_live_check_says_how_to_install_it(harness, user):
    user.dp("alias", "--cmd", "grep", "--replace", "rg")
    proc = user.dp("doctor", "--live", "--agent", user.AGENT, check=False)
    assert proc.returncode == 1
    assert proc.stderr.strip().endswith(f"install it with: dp init --agent {user.AGENT}")


@pytest.mark.parametrize("harness", PLUGIN_AGENTS)
def test_a_tool_that_fails_and_a_made_up_tool_name_are_captured(harness, user):
    """A tool that fails (a missing file) fires no after-hook and reaches dp through the plugin's ``event``
    hook; a made-up tool name is OpenCode's ``invalid`` tool. Both stored as the agent's."""
    user.init()
    missing = str(user.project / "missing.txt")
    calls = [tool_call("read", {"filePath": missing}), tool_call("read_file", {"path": "a.txt"})]

    session = user.run([calls])

    assert "File not found" in session.result(calls[0])
    by_tool = {event["tool_name"]: event for event in json.loads(user.dp("desires", "--json").stdout)}
    assert by_tool["Read"]["error_class"] == "no such file" and by_tool["Read"]["source"] == user.AGENT
    assert by_tool["Read"]["tool_input"] == {"filePath": missing}
    assert by_tool["read_file"]["error_class"] == "unknown tool"


@pytest.mark.parametrize("harness", PLUGIN_AGENTS)
def test_ordinary_calls_start_no_dp_process_and_rewrites_stay_as_today(harness, user):
    user.init()
    user_with_rules(user)
    logs = recorded(user)
    calls = [bash(command) for command in UNTOUCHED + ACTED_ON] + [tool_call("read", {"filePath": str(
        user.project / "notes.txt")})]

    session = user.run([[call] for call in calls])

    assert session.proc.returncode == 0, session.log
    # pave-check for the three calls a rule, recipe or paving word concerns; nothing for the rest
    # (a Read no rule names included); no dp-capture: nothing failed.
    assert started(logs["pave"]) == list(ACTED_ON)
    assert started(logs["capture"]) == []
    results = {call["id"]: session.result(call) for call in calls}
    assert results[calls[1]["id"]].strip() == "hi" and "x marks the spot" in results[calls[2]["id"]]
    grep, npm, recipe = calls[len(UNTOUCHED):len(UNTOUCHED) + 3]
    assert results[grep["id"]].startswith("rg ran:") and "grep → rg" in results[grep["id"]]
    assert results[npm["id"]].startswith("pnpm ran: install")
    assert results[recipe["id"]].startswith("deployed job 1; echo INJECTED")
    assert "x marks the spot" in results[calls[-1]["id"]]


@pytest.mark.parametrize("harness", PLUGIN_AGENTS)
def test_a_failure_and_the_calls_after_it_go_to_dp_capture_a_stale_gate_sends_every_call_to_dp(harness, user):
    """dp-capture in line for the failure, then the 5 Bash calls after it in one process; nothing
    before it. Then a rule change whose sync did not run (the rules stamp moved): every call asks dp."""
    user.init()
    (user.project / "notes.txt").write_text("x marks the spot\n")
    logs = recorded(user)
    stamp = user.home / ".dp" / "rules.changed"
    user.env.update(STAMP=str(stamp))
    later = ("echo one", "echo two", "echo three", "echo four", "echo five", "echo six")
    calls = [bash(command) for command in ("ls", "pnmp install", *later, 'touch "$STAMP"', "pwd")]

    session = user.run([[call] for call in calls])

    assert session.proc.returncode == 0, session.log
    assert started(logs["capture"]) == ["pnmp install", list(later[:5])]
    # Fresh: no pave-check; once the stamp moved (no sync ran), the gate reads as stale: every call.
    assert started(logs["pave"]) == ["pwd"]
    rows = json.loads(user.dp("desires", "--json").stdout)
    assert [(row["tool_input"]["command"], row["source"]) for row in rows] == [("pnmp install", user.AGENT)]
