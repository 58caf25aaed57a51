"""Capture, failing open, lossless install and uninstall, dp doctor and its live probe, in the real
``qwen -p`` (Qwen Code 0.24.4)."""

from __future__ import annotations

import json

from dp.live.openai_compat import shell, tool_call


def test_dp_ingest_reads_the_made_up_tool_name_from_qwens_session_file_once(qwen):
    qwen.init()
    made_up, failing = tool_call("view_file", {"path": "README.md"}), shell("ls /no-such-dir-for-dp")
    qwen.run([[made_up], [failing]])

    report = json.loads(qwen.dp("ingest", "--qwen-sessions", "--json").stdout)["qwen_sessions"]
    assert report["files"] == 1 and report["failures"] == 2
    assert report["added"] == 1  # the failing command: dp-capture already stored it under the same key
    names = sorted(desire["tool_name"] for desire in json.loads(qwen.dp("desires", "--json").stdout))
    assert names == ["Bash", "view_file"]
    again = json.loads(qwen.dp("ingest", "--qwen-sessions", "--json").stdout)["qwen_sessions"]
    assert again["added"] == 0


def test_install_keeps_the_users_settings_and_uninstall_gives_back_the_same_bytes(qwen):
    qwen.run([[shell("echo before dp")]])  # Qwen stamps its settings version into the file on a first run
    original = qwen.settings.read_bytes()
    assert b'"$version"' in original and original.startswith(b'{\n\t"security"')
    report = qwen.init()
    assert report["hook"]["settings"] == str(qwen.settings) and report["hook"]["agent"] == "Qwen Code"

    settings = json.loads(qwen.settings.read_text())
    assert settings["ui"] == {"theme": "GitHub", "customThemes": {"été": {}}}
    hooks = settings["hooks"]
    assert hooks["PreToolUse"][0]["matcher"] == "^(run_shell_command)$"  # no rule names another tool
    assert "pave-check --agent qwen" in hooks["PreToolUse"][0]["hooks"][0]["command"]
    assert {"SessionStart", "PostToolUse", "PostToolUseFailure"} <= set(hooks)
    assert "PostToolBatch" not in hooks  # no tool-name alias to correct after a batch
    assert "dp-capture --agent qwen" in hooks["PostToolUseFailure"][0]["hooks"][0]["command"]
    assert qwen.settings.read_bytes().startswith(b'{\n\t"security"')  # the file's own tabs

    session = qwen.run([[shell("echo hi")]])
    assert session.proc.returncode == 0, session.log

    qwen.dp("uninstall", "--yes")
    assert qwen.settings.read_bytes() == original


def test_dp_doctor_checks_the_installed_hook_with_a_sample_call_in_qwens_json(qwen):
    qwen.init()
    qwen.dp("alias", "--force", "view_file", "read_file")
    report = json.loads(qwen.dp("doctor", "--json", check=False).stdout)
    lines = [finding for finding in report["checks"] if "Qwen Code" in finding["message"]]
    installed = next(finding for finding in lines if finding["message"].startswith("installed in Qwen Code, user"))
    assert installed["status"] == "ok" and "a sample call took" in installed["message"]
    aliases = next(finding for finding in lines if "tool-name alias" in finding["message"])
    assert "rejects a tool name it does not know before any hook runs" in aliases["message"]
    assert "dp pave --agents-md --agent qwen --include-personal --output QWEN.md" in aliases["message"]


def test_dp_doctor_live_runs_the_users_qwen_and_shows_what_the_model_read(qwen):
    qwen.init()
    qwen.dp("alias", "--cmd", "grep", "--replace", "rg")
    qwen.dp("alias", "--force", "view_file", "read_file")
    report = json.loads(qwen.dp("doctor", "--live", "--agent", "qwen", "--json").stdout)

    assert report["ok"] is True and report["client"] == "Qwen Code" and report["version"] == "0.24.4"
    rewrite, alias = report["probes"]
    assert rewrite["fired"] and any("Run this instead:" in line for line in rewrite["told"])
    assert alias["tool"] == "view_file" and alias["fired"]
    assert "dp: view_file is not a valid tool. Use read_file instead." in alias["told"]
    assert "Use `rg` instead of `grep`" in report["session_start"]
