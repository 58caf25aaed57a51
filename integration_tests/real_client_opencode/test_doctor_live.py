"""dp doctor --live --agent opencode: the user's own opencode (the pinned one on PATH) against dp's fake model."""

from __future__ import annotations

import json


def test_the_live_check_shows_the_plugin_acting_in_the_real_binary(opencode):
    opencode.init()
    opencode.dp("alias", "--cmd", "grep", "--replace", "rg")
    opencode.dp("alias", "read_file", "Read", "--message", "dp: read takes filePath")

    proc = opencode.dp("doctor", "--live", "--agent", "opencode", "--json", cwd=opencode.home, timeout=900)

    report = json.loads(proc.stdout)
    assert report["ok"] is True and report["client"] == "OpenCode"
    assert report["version"] == "1.18.33"
    rewrite, block = report["probes"]
    assert rewrite["fired"] and any(line.startswith("dp: grep → rg") for line in rewrite["told"])
    assert block["fired"] and block["told"] == ["dp: read takes filePath"]
    assert "Use `read` instead" in report["session_start"]


def test_without_dps_plugin_the_live_check_says_how_to_install_it(opencode):
    opencode.dp("alias", "--cmd", "grep", "--replace", "rg")
    proc = opencode.dp("doctor", "--live", "--agent", "opencode", check=False)
    assert proc.returncode == 1
    assert proc.stderr.strip().endswith("install it with: dp init --agent opencode")
