"""Which calls start a dp process in the real Qwen Code (0.24.4): dp's PreToolUse matcher names only the
tools it can act on (dp.agents.matchers; Qwen reads a matcher that starts with ``^`` as a regular
expression searched in the tool name), and its PostToolBatch entry, which no matcher narrows, is there
only while a tool-name alias can correct a rejected name. A recording wrapper in place of dp's programs
shows what each call started."""

from __future__ import annotations

import json

from real_client_contract.harnesses import oldtool_rule
from recording_hooks import record

from dp.live.openai_compat import shell, tool_call

BLOCKED = "dp: search with grep_search here, never glob"


def _starts(log) -> list[tuple[str, str]]:
    """(event, tool) of each start, '' for an event without a tool (PostToolBatch), session start left out."""
    payloads = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return [(p["hook_event_name"], p.get("tool_name", "")) for p in payloads if p["hook_event_name"] != "SessionStart"]


def test_under_a_bash_rule_only_shell_calls_start_pave_check(qwen):
    oldtool_rule(qwen)
    (qwen.project / "notes.txt").write_text("x marks the spot\n")
    logs = record(qwen.settings, qwen.root)
    read = tool_call("read_file", {"file_path": str(qwen.project / "notes.txt")})
    old, echo = shell("oldtool -x a.txt"), shell("echo hi")

    session = qwen.run([[read], [old], [echo]])

    assert _starts(logs["pave-check"]) == [("PreToolUse", "run_shell_command")] * 2  # no read_file, no batch
    assert ("PostToolUse", "read_file") in _starts(logs["dp-capture"])  # capture records every call
    assert "x marks the spot" in session.output(read)
    assert "Run this instead:\nnewtool -x a.txt" in session.output(old)  # the rule acts as before
    assert "Output: hi\n" in session.output(echo)


def test_tool_name_aliases_still_act_where_qwen_sends_them(qwen):
    qwen.init()
    qwen.dp("alias", "--force", "view_file", "read_file")  # a made-up name: corrected after its batch
    qwen.dp("alias", "glob", "grep_search", "--force", "--message", BLOCKED)  # Qwen's own tool: blocked
    logs = record(qwen.settings, qwen.root)
    made_up, listing = tool_call("view_file", {"path": "README.md"}), tool_call("glob", {"pattern": "*.txt"})

    session = qwen.run([[made_up], [listing]])

    assert session.output(made_up).endswith("dp: view_file is not a valid tool. Use read_file instead.")
    assert BLOCKED in session.output(listing)
    assert ("PreToolUse", "glob") in _starts(logs["pave-check"])
    assert ("PostToolBatch", "") in _starts(logs["pave-check"])
