"""The mod's front-door decision and the classic hook's answer, side by side, without the client.

``mod_decisions`` runs the mod's own ``asksDp`` (``dp/agents/claude/mod/register.ts``,
under the real bun) on a list of commands against the word set of a snapshot dp
wrote; ``hook_answers`` asks the real pave-check (one Python process, its ``run``
per command, real store) what it makes of each. The test and the bench
(``bench/run_front_door_bench.py``) compare the two: a command the mod does not send
to dp must be one the classic hook leaves alone.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import dp

REGISTER = Path(dp.__file__).parent / "agents" / "claude" / "mod" / "register.ts"

# Reads {snapshot, commands} on stdin; prints one decision per command.
_DRIVER = """
import { asksDp } from %s
const { snapshot, commands } = JSON.parse(await Bun.stdin.text())
const bash = JSON.parse(snapshot).bash
const door = { words: new Set(bash.words), everything: bash.everything !== false }
console.log(JSON.stringify(commands.map(command => asksDp(command, door))))
"""

# One pave-check per command, in process (the same run() the program's main calls).
_HOOK = """
import json, sys
from dp.hook import parse_options, run
cwd, commands = json.load(sys.stdin)
answers = []
for command in commands:
    payload = {"session_id": "corpus", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": command}, "tool_use_id": "toolu_corpus"}
    status, out, err = run(parse_options([]), json.dumps(payload).encode())
    answers.append([status, out])
json.dump(answers, sys.stdout)
"""


def mod_decisions(bun: Path, snapshot: Path, commands: list[str], scratch: Path) -> list[bool]:
    """Whether the mod would start pave-check for each command, under ``snapshot``'s word set."""
    driver = scratch / "front-door-driver.ts"
    driver.write_text(_DRIVER % json.dumps(str(REGISTER)))
    proc = subprocess.run([str(bun), "run", str(driver)], input=json.dumps(
        {"snapshot": snapshot.read_text(), "commands": commands}), capture_output=True, text=True, timeout=300,
        check=True)
    return json.loads(proc.stdout)


def hook_answers(python: str, env: dict, cwd: Path, commands: list[str]) -> list[tuple[int, str]]:
    """(exit status, stdout) of the classic pave-check for each command, run in ``cwd``."""
    proc = subprocess.run([python, "-c", _HOOK], input=json.dumps([str(cwd), commands]), capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=600, check=True)
    return [tuple(answer) for answer in json.loads(proc.stdout)]
