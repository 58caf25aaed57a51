"""`if` filters in the real client: every rewrite still happens, and a command no rule can
touch starts no hook process at all."""

from __future__ import annotations

import json
import subprocess
import sys

from dp.agents.claude.fake_api import bash
from dp.agents.settings import command_words

# Commands dp's own parser rewrites under the rules below: every position a
# command word can take.
REWRITTEN = [
    "oldtool a",
    "ls | oldtool b",
    "true && oldtool c",
    "false || oldtool d",
    "echo x; oldtool e",
    "echo x\noldtool f",
    "(oldtool g)",
    "{ oldtool h; }",
    "echo $(oldtool i)",
    "echo `oldtool j`",
    "FOO=1 oldtool k",
    "sudo oldtool l",
    "env oldtool m",
    "/usr/bin/env oldtool n",
    "timeout 5 oldtool o",
    "nice -n 5 oldtool p",
    "nohup oldtool q",
    "time oldtool r",
    "command oldtool s",
    "echo t | xargs oldtool",
    "echo u | xargs -0 oldtool",
    "oldtool v > /dev/null 2>&1",
    "if true; then oldtool w; fi",
    "for i in 1; do oldtool x; done",
    "scp -r a b",
    "ls && scp -r c d",
    "gt wait job1",
    "echo 1 && gt wait job2 | cat",
    "sudo -u root scp -r e f",
    "X=1 timeout 5 oldtool z",
]
# Commands without any rule word: no hook process may start for them.
UNTOUCHED = [
    "echo hello",
    "ls -la | sort",
    "git status; pwd",
    "cat /etc/hostname",
    "for f in a b; do echo x; done",
    "X=1 printenv X",
    "timeout 5 echo hi",
    "sudo ls",
    "echo a | xargs echo",
    "(cd / && ls)",
]
# Commands Claude Code cannot analyze statically (a loop variable, ${…:-…}, a
# redirected subshell): it starts
# every filtered handler for them, rule word or not (observed in 2.1.330). dp then
# leaves them unchanged.
UNANALYZABLE = ["for f in a b; do echo $f; done", "echo ${X:-y}", "(cd / && ls) > /dev/null", "echo $(date)",
                "echo `date`", "{ ls; }", "cat <<EOF\nhi\nEOF"]
RULES = [
    ("--cmd", "oldtool", "--replace", "newtool"),
    ("--cmd", "scp", "--flag", "r", "R"),
    ("--recipe", "gt wait", "echo waited {{ arg(1) }}"),
]
SPAWN_LOGGER = """#!{python}
import json, subprocess, sys
data = sys.stdin.buffer.read()
payload = json.loads(data or b"{{}}")
with open({log!r}, "a") as log:
    log.write(json.dumps([sys.argv[1].rsplit("/", 1)[-1], payload.get("hook_event_name"),
                          (payload.get("tool_input") or {{}}).get("command")]) + "\\n")
proc = subprocess.run(sys.argv[1:], input=data, capture_output=True)
sys.stdout.buffer.write(proc.stdout)
sys.stderr.buffer.write(proc.stderr)
sys.exit(proc.returncode)
"""


def _plain_handler_rewrites(client, command: str) -> bool:
    """What the unfiltered hook does with the command: pave-check run directly."""
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}}
    proc = subprocess.run([str(client.bin.parent / "pave-check")], input=json.dumps(payload), capture_output=True,
                          text=True, env=client.env, timeout=60)
    return "updatedInput" in proc.stdout


def log_spawns(client):
    """Put a recording logger in front of every dp program the user's settings start (also behind the shell
    guard of PostToolBatch's handler); the log holds one ``[program, event, command]`` per process."""
    log = client.root / "spawns.jsonl"
    logger = client.bin / "spawn-logger"
    logger.write_text(SPAWN_LOGGER.format(python=sys.executable, log=str(log)))
    logger.chmod(0o755)
    settings = client.read_settings()
    for groups in settings["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                program = command_words(handler["command"])[0]
                handler["command"] = handler["command"].replace(program, f"{logger} {program}", 1)
    client.settings.write_text(json.dumps(settings, indent=2))
    return log


def spawned(log) -> list[list]:
    """``[program, event, command]`` of every dp process the client started, in order."""
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_filtered_handlers_rewrite_everything_the_plain_one_does_and_spawn_nothing_else(client):
    client.dp("paving", "off")  # only the rules' words here (paving adds its own while on)
    report = client.init()
    assert report["hook"]["filters"]["filtered"] is True, report["hook"]["filters"]
    for rule in RULES:
        client.dp("alias", *rule)
    groups = client.read_settings()["hooks"]["PreToolUse"]
    assert [group["matcher"] for group in groups] == ["Bash"]
    assert [h["if"] for h in groups[0]["hooks"]] == ["Bash(*dp*)", "Bash(*gt*)", "Bash(*oldtool*)", "Bash(*scp*)"]
    (client.bin.parent / "pave-check").symlink_to(sys.executable.rsplit("/", 1)[0] + "/pave-check")
    for name in ("oldtool", "newtool", "scp"):
        client.program(name)
    rewritten = [command.replace("{bin}", str(client.bin)) for command in REWRITTEN]
    assert [command for command in rewritten if not _plain_handler_rewrites(client, command)] == []
    assert not any(_plain_handler_rewrites(client, command) for command in UNTOUCHED)
    log = log_spawns(client)

    calls = [bash(command) for command in rewritten + UNTOUCHED + UNANALYZABLE]
    session = client.run([[call] for call in calls], timeout=300)

    pre_tool_use = [command for _, event, command in spawned(log) if event == "PreToolUse"]
    for call, command in zip(calls, rewritten):
        assert command in pre_tool_use, f"no hook process for {command!r}"
        assert "dp: " in session.tool_result(call["id"])["context"], f"{command!r} was not rewritten"
    for command in UNTOUCHED:
        assert command not in pre_tool_use, f"a hook process started for {command!r}"
    for call, command in zip(calls[-len(UNANALYZABLE):], UNANALYZABLE):
        assert command in pre_tool_use  # Claude Code's choice, not dp's
        assert "dp: " not in session.tool_result(call["id"])["context"]
    assert len(rewritten) + len(UNTOUCHED) >= 40
