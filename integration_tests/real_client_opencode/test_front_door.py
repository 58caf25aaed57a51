"""The plugin as the front door in the real OpenCode (1.18.33): only calls dp can act on start a dp process.

After a plain ``dp init --agent opencode`` the plugin reads dp's hook gate as JSON (dp/hook/gate.py
``door``, written on every rule change) and starts pave-check only for a call a rule, recipe, alias
or paving word could concern, and dp-capture only for a failure and the Bash calls just after it. A
recording wrapper stands in for both programs in the plugin's ``dp-opencode.json``, so every dp
process a session starts leaves one line with the JSON it was given.
"""

from __future__ import annotations

import json

from plugin_users import ACTED_ON, UNTOUCHED, recorded, started, user_with_rules

from dp.live.openai_compat import tool_call
from real_client_opencode.opencode_support import bash


def test_ordinary_calls_start_no_dp_process_and_rewrites_stay_as_today(opencode):
    opencode.init()
    user_with_rules(opencode)
    logs = recorded(opencode)
    calls = [bash(command) for command in UNTOUCHED + ACTED_ON] + [tool_call("read", {"filePath": str(
        opencode.project / "notes.txt")})]

    session = opencode.run([[call] for call in calls])

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


def test_a_failure_and_the_calls_after_it_go_to_dp_capture_a_stale_gate_sends_every_call_to_dp(opencode):
    """dp-capture in line for the failure, then the 5 Bash calls after it in one process; nothing
    before it. Then a rule change whose sync did not run (the rules stamp moved): every call asks dp."""
    opencode.init()
    (opencode.project / "notes.txt").write_text("x marks the spot\n")
    logs = recorded(opencode)
    stamp = opencode.home / ".dp" / "rules.changed"
    opencode.env.update(STAMP=str(stamp))
    later = ("echo one", "echo two", "echo three", "echo four", "echo five", "echo six")
    calls = [bash(command) for command in ("ls", "pnmp install", *later, 'touch "$STAMP"', "pwd")]

    session = opencode.run([[call] for call in calls])

    assert session.proc.returncode == 0, session.log
    assert started(logs["capture"]) == ["pnmp install", list(later[:5])]
    # Fresh: no pave-check; once the stamp moved (no sync ran), the gate reads as stale: every call.
    assert started(logs["pave"]) == ["pwd"]
    rows = json.loads(opencode.dp("desires", "--json").stdout)
    assert [row["tool_input"]["command"] for row in rows] == ["pnmp install"]
