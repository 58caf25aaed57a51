"""`dp doctor --live`: the user's own claude against a local fake model, reporting what dp did."""

from __future__ import annotations

import json


def test_doctor_live_reports_the_hook_firing_and_what_the_model_read(client):
    client.init()
    client.dp("alias", "read_file", "Read")
    client.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    client.program("newtool")  # a rule leads only to a program the agent has
    settings_before = client.settings.read_bytes()
    report = json.loads(client.dp("doctor", "--live", "--json").stdout)
    assert report["ok"] is True and report["version"] == "2.1.330"
    bash_probe, alias_probe = report["probes"]
    assert bash_probe["input"] == {"command": "oldtool live-probe"} and bash_probe["fired"]
    assert any("dp: oldtool → newtool" in line for line in bash_probe["told"])
    assert alias_probe["tool"] == "read_file" and "No such tool available" in alias_probe["result"]
    assert any("read_file is not a valid tool. Use Read instead." in line for line in alias_probe["told"])
    assert "Do NOT call `read_file`" in report["session_start"]
    # The user's own sessions and settings are untouched: it ran in a temporary HOME.
    assert client.settings.read_bytes() == settings_before
    assert not (client.home / ".claude" / "projects").exists()


def test_doctor_live_without_claude_says_so(client):
    client.init()
    client.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    (client.bin / "claude").unlink()
    proc = client.dp("doctor", "--live", check=False)
    assert proc.returncode == 1
    assert proc.stderr.startswith("dp: error: dp doctor --live runs your installed Claude Code, but `claude` is not on PATH")
    assert len(proc.stderr.strip().splitlines()) == 1
