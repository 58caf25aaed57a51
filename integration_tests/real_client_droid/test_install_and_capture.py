"""Installing into, checking and reading the real ``droid`` (Factory Droid 0.225.2): lossless install and
uninstall, the hook entries a rule change re-writes, ``dp doctor`` and its live probe (with the corrections
at session start), and ``dp ingest --droid-sessions`` (no hook fires after a failed call)."""

from __future__ import annotations

import json

from dp.live.openai_compat import tool_call
from real_client_droid.droid_support import USER_SETTINGS, execute


def test_install_keeps_the_users_settings_and_uninstall_gives_back_the_same_bytes(droid):
    report = droid.init()
    assert report["hook"]["settings"] == str(droid.settings) and report["hook"]["agent"] == "Factory Droid"
    settings = json.loads(droid.settings.read_text())
    assert (settings["theme"], settings["commandDenylist"], settings["note"]) == ("dark", ["rm -rf /"], "été")
    hooks = settings["hooks"]
    execute_group = hooks["PreToolUse"][0]
    assert execute_group["matcher"] == "^(Execute)$" and "pnpm" in execute_group["commandRegex"]
    assert "pave-check --agent droid" in execute_group["hooks"][0]["command"]
    assert "pave-check --agent droid" in hooks["SessionStart"][0]["hooks"][0]["command"]
    assert "dp-capture --agent droid" in hooks["PostToolUse"][0]["hooks"][0]["command"]
    assert droid.settings.read_bytes().startswith(b'{\n    "theme"')  # the file's own indentation

    session = droid.run([[execute("echo hi")]])
    assert session.result["is_error"] is False, session.log

    droid.dp("uninstall", "--yes")
    assert droid.settings.read_bytes() == USER_SETTINGS


def test_a_rule_change_rewrites_the_entries_to_name_its_word_and_tool_in_droids_names(droid):
    droid.init()
    before = droid.hooks()["PreToolUse"]
    assert "oldtool" not in json.dumps(before)
    droid.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    droid.dp("alias", "--tool", "Write", "--param", "file_path", "/old", "/new")
    groups = droid.hooks()["PreToolUse"]
    assert "oldtool" in groups[0]["commandRegex"] and groups[1]["matcher"] == "^(Create)$", groups
    droid.dp("alias", "--delete", "--cmd", "oldtool", "--replace", "newtool")
    assert "oldtool" not in droid.hooks()["PreToolUse"][0]["commandRegex"]


def test_dp_ingest_reads_failed_calls_from_droids_session_files_once(droid):
    droid.init()
    droid.dp("alias", "view_file", "Read")
    failing, made_up = execute("ls /no-such-dir-for-dp"), tool_call("view_file", {"path": "a.txt"})
    droid.run([[failing], [made_up]])
    assert json.loads(droid.dp("desires", "--json").stdout) == []  # no hook fires after a failed call

    report = json.loads(droid.dp("ingest", "--droid-sessions", "--json").stdout)["droid_sessions"]
    assert (report["files"], report["failures"], report["added"]) == (1, 1, 1), report  # dp's refusal is no failure
    desires = json.loads(droid.dp("desires", "--json").stdout)
    assert [desire["tool_name"] for desire in desires] == ["Bash"]
    again = json.loads(droid.dp("ingest", "--droid-sessions", "--json").stdout)["droid_sessions"]
    assert again["added"] == 0


def test_dp_doctor_checks_the_installed_hook_with_a_sample_call_in_droids_json(droid):
    droid.init()
    droid.dp("alias", "--cmd", "grep", "--replace", "rg")
    report = json.loads(droid.dp("doctor", "--json", check=False).stdout)
    lines = [finding for finding in report["checks"] if "Factory Droid" in finding["message"]]
    installed = next(finding for finding in lines if finding["message"].startswith("installed in Factory Droid, user"))
    assert installed["status"] == "ok" and "a sample call took" in installed["message"], lines


def test_dp_doctor_live_runs_the_users_droid_and_shows_what_the_model_read(droid):
    droid.init()
    droid.dp("alias", "--cmd", "grep", "--replace", "rg")
    droid.dp("alias", "view_file", "Read")
    droid.dp("alias", "--force", "show_file", "Write")
    report = json.loads(droid.dp("doctor", "--live", "--agent", "droid", "--json", timeout=300).stdout)

    assert report["ok"] is True and report["client"] == "Factory Droid" and report["version"] == "0.225.2", report
    rewrite, alias = report["probes"]
    assert rewrite["fired"] and any("Run this instead:" in line for line in rewrite["told"]), rewrite
    assert alias["tool"] == "view_file" and alias["fired"], alias
    opening = report["session_start"]  # the corrections up front, in Droid's tool names (Create for Write)
    assert opening.startswith("dp (desire paths) corrections on this machine") and opening.endswith("`grep`"), opening
    assert "Do NOT call `show_file`. Use `Create` instead." in opening and "Use `rg` instead of `grep`" in opening


def test_a_settings_file_with_comments_which_droid_reads_is_left_as_it_is(droid):
    """Droid reads its settings as JSON with comments (its block list below applies); dp writes only plain JSON,
    so it refuses in one line and changes nothing."""
    commented = b'{\n  // my droid\n  "commandBlocklist": ["newtool"]\n}\n'
    droid.settings.write_bytes(commented)
    droid.program("newtool")
    call = execute("newtool -x")
    assert "matched blocked-command rule" in droid.run([[call]]).output(call)

    proc = droid.dp("init", "--agent", "droid", check=False)

    assert proc.returncode == 1 and proc.stderr.startswith(f"dp: error: {droid.settings} is not valid JSON")
    assert len(proc.stderr.splitlines()) == 1 and "nothing was changed" in proc.stderr
    assert droid.settings.read_bytes() == commented
