"""The plugin as the front door in the real OpenCode (1.18.33): only calls dp can act on start a dp process.

After a plain ``dp init --agent opencode`` the plugin reads dp's hook gate as JSON (dp/hook/gate.py
``door``, written on every rule change) and starts pave-check only for a call a rule, recipe, alias
or paving word could concern, and dp-capture only for a failure and the Bash calls just after it. A
recording wrapper stands in for both programs in the plugin's ``dp-opencode.json``, so every dp
process a session starts leaves one line with the JSON it was given.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from dp.live.openai_compat import tool_call
from real_client_opencode.opencode_support import bash

UNTOUCHED = ("ls", "echo hi", "cat notes.txt", "git status", "pwd")
RECIPE = "deploy now"
ACTED_ON = ("grep -rn x .", "npm install", f"{RECIPE} 'job 1; echo INJECTED'")


def user_with_rules(opencode) -> None:
    """grep → rg (a command rule), a recipe prefix, paving on in a pnpm project (as the Claude Code test's user)."""
    opencode.dp("alias", "-q", "--cmd", "grep", "--replace", "rg")
    opencode.dp("alias", "-q", "--recipe", RECIPE, "echo deployed {{ arg(1) }}")
    (opencode.project / "package.json").write_text(json.dumps({"name": "app", "scripts": {"build": "tsc"}}))
    (opencode.project / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    (opencode.project / "notes.txt").write_text("x marks the spot\n")
    for name in ("rg", "grep", "pnpm", "npm"):
        opencode.program(name)


def recorded(opencode) -> dict[str, Path]:
    """Wrap pave-check and dp-capture in the plugin's config with a recorder; each one's log (a line per start)."""
    config_path = opencode.config_dir / "plugins" / "dp-opencode.json"
    config = json.loads(config_path.read_text())
    logs = {}
    for key in ("pave", "capture"):
        log = opencode.root / f"{key}.log"
        wrapper = opencode.root / f"recording-{key}"
        wrapper.write_text("#!/bin/bash\ninput=$(cat)\n"
                           f"printf '%s\\n' \"$input\" >> {shlex.quote(str(log))}\n"
                           f"printf '%s' \"$input\" | exec {shlex.join(config[key])}\n")
        wrapper.chmod(0o755)
        config[key] = [str(wrapper)]
        logs[key] = log
    config_path.write_text(json.dumps(config))
    return logs


def started(log: Path) -> list:
    """What each start was given (the one session start left out): a call's Bash command or tool, or
    for a start given several calls, the list of them."""
    if not log.exists():
        return []
    payloads = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    return [[_call(one) for one in p] if isinstance(p, list) else _call(p)
            for p in payloads if isinstance(p, list) or p.get("hook_event_name") != "session.start"]


def _call(payload: dict) -> str:
    return (payload.get("args") or {}).get("command") or payload["tool"]


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
