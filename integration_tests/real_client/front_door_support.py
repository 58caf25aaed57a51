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
import shlex
import subprocess
from pathlib import Path

import dp
from real_client.client_support import BIN, RealClient

RECIPE = "deploy now"
REGISTER = Path(dp.__file__).parent / "agents" / "claude" / "mod" / "register.ts"

# Reads {snapshot, commands} on stdin; prints one decision per command.
_DRIVER = """
import { asksDp, commandWords, doorOf } from %s
const { snapshot, commands } = JSON.parse(await Bun.stdin.text())
const door = doorOf(JSON.parse(snapshot))
if (door === null) throw new Error('the snapshot holds no front door')
console.log(JSON.stringify(commands.map(command => [asksDp(command, door), [...commandWords(command)].sort()])))
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


def mod_decisions(bun: Path, snapshot: Path, commands: list[str], scratch: Path) -> list[tuple[bool, list[str]]]:
    """For each command: whether the mod would start pave-check under ``snapshot``'s word set, and the
    words its scan read (sorted)."""
    driver = scratch / "front-door-driver.ts"
    driver.write_text(_DRIVER % json.dumps(str(REGISTER)))
    proc = subprocess.run([str(bun), "run", str(driver)], input=json.dumps(
        {"snapshot": snapshot.read_text(), "commands": commands}), capture_output=True, text=True, timeout=300,
        check=True)
    return [(ask, words) for ask, words in json.loads(proc.stdout)]


def hook_answers(python: str, env: dict, cwd: Path, commands: list[str]) -> list[tuple[int, str]]:
    """(exit status, stdout) of the classic pave-check for each command, run in ``cwd``."""
    proc = subprocess.run([python, "-c", _HOOK], input=json.dumps([str(cwd), commands]), capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=600, check=True)
    return [tuple(answer) for answer in json.loads(proc.stdout)]


def recorded(client: RealClient, program: str = "pave-check") -> Path:
    """Put a recording wrapper in place of ``program`` (pave-check, dp-capture) in the installed plugin;
    the log it writes, one line per start: the hook JSON it was given (and, beside it, how long
    each run took: ``hook_seconds``)."""
    log = client.root / f"{program}.log"
    wrapper = client.root / f"recording-{program}"
    real = str(BIN / program)
    wrapper.write_text("#!/bin/bash\ninput=$(cat)\n"
                       f"printf '%s\\n' \"$input\" >> {shlex.quote(str(log))}\n"
                       "start=$(date +%s%N)\n"
                       f"printf '%s' \"$input\" | {shlex.quote(real)} \"$@\"\n"
                       "status=$?\n"
                       f"echo $(( $(date +%s%N) - start )) >> {shlex.quote(str(log))}.ns\n"
                       "exit $status\n")
    wrapper.chmod(0o755)
    installed = json.loads((client.home / ".claude" / "plugins" / "installed_plugins.json").read_text())
    for plugin in (client.home / ".dp" / "claude-plugin" / "dp", Path(installed["plugins"]["dp@dp-local"][0]["installPath"])):
        for name in ("hooks.json", "dp-plugin.json"):
            path = plugin / "hooks" / name
            text = path.read_text()
            assert real in text, (path, text)
            path.write_text(text.replace(real, shlex.quote(str(wrapper))))
    return log


def hook_seconds(log: Path) -> float:
    """The time the recorded program's runs took together (each from its start to its exit), in seconds."""
    times = Path(f"{log}.ns")
    return sum(int(line) for line in times.read_text().split()) / 1e9 if times.exists() else 0.0


def asked(log: Path) -> list[str]:
    """What pave-check was started for, in order: a Bash command, or the event (``PostToolBatch``).
    The one start per session (SessionStart, the corrections up front) is left out."""
    if not log.exists():
        return []
    payloads = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    return [p["tool_input"]["command"] if p.get("hook_event_name") == "PreToolUse" else p.get("hook_event_name")
            for p in payloads if p.get("hook_event_name") != "SessionStart"]


def user_with_rules(client: RealClient) -> None:
    """grep → rg (a command rule with its flag table), a recipe prefix, paving on in a pnpm project."""
    client.dp("alias", "-q", "--cmd", "grep", "--replace", "rg")
    client.dp("alias", "-q", "--recipe", RECIPE, "echo deployed {{ arg(1) }}")
    subprocess.run(["git", "init", "-q", str(client.project)], check=True)
    (client.project / "package.json").write_text(json.dumps({"name": "app", "scripts": {"build": "tsc"}}))
    (client.project / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    (client.project / "notes.txt").write_text("x marks the spot\n")
    for name in ("rg", "grep", "pnpm", "npm"):
        client.program(name)
