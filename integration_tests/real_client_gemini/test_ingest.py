"""dp ingest --gemini-sessions reads what the real Gemini CLI (0.61.0) saved of a session."""

from __future__ import annotations

import json

from dp.agents.gemini.fake_api import function_call, shell


def run_mistakes(gemini):
    return gemini.run([[shell("pnmp install")], [function_call("read_file", {"file_path": "nope.txt"})],
                       [function_call("bogus_tool", {"x": 1})], [shell("echo fine && true")]])


def test_failed_calls_and_unknown_tool_names_come_from_the_saved_session(gemini):
    assert run_mistakes(gemini).proc.returncode == 0
    report = json.loads(gemini.dp("ingest", "--gemini-sessions", "--json").stdout)["gemini_sessions"]
    assert (report["files"], report["failures"], report["successes"]) == (1, 3, 1)
    events = {event["tool_name"]: event for event in json.loads(gemini.dp("desires", "--json").stdout)}
    assert events["Bash"]["error_class"] == "command not found" and events["Bash"]["source"] == "gemini-session"
    assert events["Bash"]["cwd"] == str(gemini.project)
    assert "File not found" in events["Read"]["error"]
    assert events["bogus_tool"]["error_class"] == "unknown tool"
    again = json.loads(gemini.dp("ingest", "--gemini-sessions", "--json").stdout)["gemini_sessions"]
    assert again["added"] == 0
    assert "bogus_tool" in gemini.dp("paths").stdout


def test_a_session_the_hook_captured_is_not_counted_twice(gemini):
    gemini.init()
    run_mistakes(gemini)
    before = json.loads(gemini.dp("desires", "--json").stdout)
    assert {event["source"] for event in before} == {"gemini"}
    report = json.loads(gemini.dp("ingest", "--gemini-sessions", "--json").stdout)["gemini_sessions"]
    assert report["added"] == 0
