"""Capture in the real OpenCode (1.18.33): what the plugin hands dp-capture ends up in dp desires.

A command that exits non-zero is a success for OpenCode (``tool.execute.after`` fires with
``metadata.exit``); a tool that fails (a missing file) fires no after-hook, and reaches dp through
the plugin's ``event`` hook; a made-up tool name is OpenCode's ``invalid`` tool.
"""

from __future__ import annotations

import json

from dp.live.openai_compat import tool_call


def desires(opencode) -> list[dict]:
    return json.loads(opencode.dp("desires", "--json").stdout)


def test_a_tool_that_fails_and_a_made_up_tool_name_are_captured(opencode):
    opencode.init()
    missing = str(opencode.project / "missing.txt")
    calls = [tool_call("read", {"filePath": missing}), tool_call("read_file", {"path": "a.txt"})]

    session = opencode.run([calls])

    assert "File not found" in session.result(calls[0])
    by_tool = {event["tool_name"]: event for event in desires(opencode)}
    assert by_tool["Read"]["error_class"] == "no such file"
    assert by_tool["Read"]["tool_input"] == {"filePath": missing}
    assert by_tool["read_file"]["error_class"] == "unknown tool"
