"""The real client's figure for the mod's front door: one scripted session of 200 agent Bash calls,
with and without it, counting the dp processes started (pave-check and dp-capture) and the client's wall time.

Both sessions run the pinned Claude Code (``integration_tests/real_client``) with dp's
plugin installed the way ``dp init --plugin`` installs it, the rules grep → rg and
a recipe, project paving on (the default) in a pnpm project. Recording wrappers
stand in for pave-check and dp-capture in the installed plugin, so each start leaves a line.

* **front door**: as installed; the mod starts pave-check only for a command with
  a word dp can act on (and after a batch with a refused tool name), dp-capture only
  for a failed call, the 5 Bash calls after it and a call it fixed.
* **classic**: the same plugin without ``pave_check`` in its ``dp-plugin.json``, so
  the mod stays no front door and the classic handlers run pave-check for every
  Bash call and after every batch, and dp-capture after every call, as before.

The 200 calls are spread evenly over an agent corpus (default dp's own,
``integration_tests/data/corpus.txt``; pass NL2Bash's ``all.cm`` for that one),
one call per model turn, each with a 3 s timeout (commands that never end, `watch` and
`tail -f`, are left out: the client waits for them at the end). The session's count of calls a
rule or paving touches is pave-check's own verdict on each command (in
process, no client), so the front door's starts can be checked against it; the
same comparison runs over the whole corpus (the mod's own scan under bun against
pave-check's answer), and the bench exits 1 if the mod would skip a command
pave-check acts on. ``--scan-only`` runs that comparison alone (no client: fit for
NL2Bash's 12,607 commands).

Run from a checkout with dp and the test extras installed:
    python bench/run_front_door_bench.py [CORPUS] [--calls 200] [--scan-only]
Needs the registry (or the shared npm cache) for Claude Code and bun.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "integration_tests"), str(ROOT / "bench")]
os.environ.setdefault("DP_TESTS_CACHE", str(Path.home() / ".cache" / "dp-tests"))  # as the test suite names it

from corpus import commands as read_commands  # noqa: E402
from real_client.claude_install import ensure_installed, version  # noqa: E402
from real_client.client_support import BIN, RealClient  # noqa: E402
from real_client.front_door_support import asked, hook_answers, hook_seconds, mod_decisions, recorded, user_with_rules  # noqa: E402
from real_managers import install_manager  # noqa: E402

from dp.agents.claude.fake_api import bash  # noqa: E402

DEFAULT_CORPUS = ROOT / "integration_tests" / "data" / "corpus.txt"
# Commands that never end on their own: the client waits for a backgrounded command at the end.
NEVER_ENDS = ("watch ", "tail -f", "tail -F")


def spread(commands: list[str], count: int) -> list[str]:
    """``count`` commands taken evenly over the corpus (its order groups commands by kind)."""
    step = len(commands) / count
    return [commands[int(index * step)] for index in range(count)]


def session(root: Path, claude: Path, calls: list[str], front_door: bool) -> dict:
    """One scripted session: its wall time, the pave-check and dp-capture starts and what they were for."""
    client = RealClient(root, claude)
    client.init("--plugin")
    user_with_rules(client)
    log, capture_log = recorded(client), recorded(client, "dp-capture")
    if not front_door:
        _without_front_door(client)
    for path in (log, capture_log, Path(f"{log}.ns"), Path(f"{capture_log}.ns")):
        path.unlink(missing_ok=True)
    turns = [[bash(command, timeout=3000)] for command in calls]
    started = time.monotonic()
    result = client.run(turns, timeout=3600)
    seconds = time.monotonic() - started
    assert result.result["is_error"] is False, result.proc.stdout[-2000:]
    assert log.exists(), "pave-check never started (not even at SessionStart): the plugin did not run"
    starts = asked(log)
    captures = [json.loads(line) for line in capture_log.read_text().splitlines()] if capture_log.exists() else []
    payloads = [p for start in captures for p in (start if isinstance(start, list) else [start])]
    failures = sum(1 for p in payloads if p.get("hook_event_name") == "PostToolUseFailure")
    return {"seconds": seconds, "starts": len(starts), "bash": [s for s in starts if s != "PostToolBatch"],
            "captures": len(captures), "failures": failures, "captured": len(payloads),
            "hook_seconds": hook_seconds(log) + hook_seconds(capture_log), "client": client}


def _without_front_door(client: RealClient) -> None:
    """The installed plugin as it was before the front door: no pave-check command for the mod."""
    installed = json.loads((client.home / ".claude" / "plugins" / "installed_plugins.json").read_text())
    for plugin in (client.home / ".dp" / "claude-plugin" / "dp",
                   Path(installed["plugins"]["dp@dp-local"][0]["installPath"])):
        path = plugin / "hooks" / "dp-plugin.json"
        config = json.loads(path.read_text())
        config.pop("pave_check")
        path.write_text(json.dumps(config))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--scan-only", action="store_true", help="only the mod's scan against pave-check, no client")
    args = parser.parse_args()
    corpus = [command for command in read_commands(args.corpus) if not any(word in command for word in NEVER_ENDS)]
    calls = spread(corpus, args.calls)
    claude = ensure_installed()
    with tempfile.TemporaryDirectory(prefix="dp-front-door-") as scratch:
        scratch = Path(scratch)
        runs = {}
        for name, front in (() if args.scan_only else (("classic", False), ("front door", True))):
            (scratch / name.replace(" ", "-")).mkdir()
            runs[name] = session(scratch / name.replace(" ", "-"), claude, calls, front)
        if args.scan_only:
            client = RealClient(scratch, claude)
            user_with_rules(client)
        else:
            client = runs["front door"]["client"]
        snapshot = client.home / ".dp" / "claude-mod" / "aliases.json"
        missed = compare(client, snapshot, corpus, Path(args.corpus).name, scratch)
        if args.scan_only:
            return 1 if missed else 0
        asks = [ask for ask, _ in mod_decisions(install_manager("bun") / "bun", snapshot, calls, scratch)]
        answers = hook_answers(str(BIN / "python"), client.env, client.project, calls)
    touched = sum(1 for status, out in answers if status != 0 or out)
    print(f"{len(calls)} Bash calls from {Path(args.corpus).name}, one per turn; rules grep → rg and a recipe, "
          f"paving on in a pnpm project; Claude Code {version()}")
    print(f"  pave-check acts on {touched} of them; the mod's word scan sends {sum(asks)} to dp "
          f"({sum(asks) - touched} hold a word a rule or paving is keyed on and pave-check leaves them alone)")
    print("| path | dp processes | pave-check for Bash calls | pave-check after batches | dp-capture "
          "| time in dp's hooks | client wall time |")
    print("|---|---|---|---|---|---|---|")
    for name, run in runs.items():
        total = run["starts"] + run["captures"]
        print(f"| {name} | {total} | {len(run['bash'])} | {run['starts'] - len(run['bash'])} | {run['captures']} "
              f"| {run['hook_seconds']:.1f} s | {run['seconds']:.1f} s |")
    classic, front = runs["classic"], runs["front door"]
    print(f"front door / classic: {(front['starts'] + front['captures']) / max(classic['starts'] + classic['captures'], 1):.2f}× "
          f"the processes, {front['hook_seconds'] / max(classic['hook_seconds'], 1e-9):.2f}× the time in dp's hooks, "
          f"{front['seconds'] / classic['seconds']:.2f}× the wall time")
    print(f"dp-capture with the front door: {front['captures']} processes for {front['captured']} calls, "
          f"{front['failures']} of them failed (each with up to 5 Bash calls after it)")
    if len(front["bash"]) != sum(asks):
        print(f"note: the session started pave-check for {len(front['bash'])} Bash calls, the scan says {sum(asks)}")
    return 1 if missed else 0


def compare(client: RealClient, snapshot: Path, commands: list[str], name: str, scratch: Path) -> int:
    """The mod's scan (under bun) against pave-check's answer over every command; prints the counts,
    returns how many commands pave-check acts on that the mod would not send to dp (must be 0)."""
    asks = [ask for ask, _ in mod_decisions(install_manager("bun") / "bun", snapshot, commands, scratch)]
    answers = hook_answers(str(BIN / "python"), client.env, client.project, commands)
    acted = [status != 0 or bool(out) for status, out in answers]
    missed = sum(1 for ask, act in zip(asks, acted) if act and not ask)
    print(f"{name}: {len(commands)} commands; pave-check acts on {sum(acted)}, the mod sends {sum(asks)} to dp, "
          f"skips {len(commands) - sum(asks)}; skipped though pave-check acts: {missed}")
    return missed


if __name__ == "__main__":
    sys.exit(main())
