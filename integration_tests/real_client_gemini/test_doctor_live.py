"""dp doctor --live --agent gemini: the user's own gemini (the pinned one on PATH) against dp's fake Gemini API."""

from __future__ import annotations

import json


def test_the_live_check_shows_the_hooks_firing_in_the_real_binary(gemini):
    gemini.init()
    gemini.dp("alias", "--cmd", "grep", "--replace", "rg")
    gemini.dp("alias", "list_directory", "glob", "--force", "--message", "dp: use glob")

    proc = gemini.dp("doctor", "--live", "--agent", "gemini", "--json", cwd=gemini.home)

    report = json.loads(proc.stdout)
    assert report["ok"] is True and report["client"] == "Gemini CLI"
    assert report["version"].startswith("0.61")
    rewrite, block = report["probes"]
    assert rewrite["fired"] and any("dp: grep → rg" in line for line in rewrite["told"])
    assert block["fired"] and "Tool execution blocked: dp: use glob" in block["told"]
    assert "Use `glob` instead" in report["session_start"]
    text = gemini.dp("doctor", "--live", "--agent", "gemini", cwd=gemini.home).stdout
    assert text.startswith("Gemini CLI 0.61")
    assert "reached the model: yes" in text


def test_without_dps_entries_the_live_check_says_how_to_install_them(gemini):
    gemini.dp("alias", "--cmd", "grep", "--replace", "rg")
    proc = gemini.dp("doctor", "--live", "--agent", "gemini", check=False)
    assert proc.returncode == 1
    assert proc.stderr.strip().endswith("install them with: dp pave --hook --agent gemini")
