"""Time the real ``pave-check`` process against the Python floor.

The floor is ``python -I -c "import sqlite3, json"`` with the same
interpreter, measured in the same run, interleaved with the cases so that
machine noise hits both alike. Each number is the median wall time of
``--runs`` process runs (default 25), after one warm-up run per case (the
warm-up also fills the bashlex table cache, as the first real Bash call
would).

A second table times the main cases in every agent dp serves (``--agent``:
each adapter's own payload and answer), with and without a trusted project
file. A third times the worst inputs (bench/pathological.py: 1 MiB of empty
quotes, a 50,000-command pipeline, nesting thousands deep …), which must end
before the hook's own time limit (dp.hook.WALL_CEILING_SECONDS) would cut them.

A last line times what paving pays to learn a Makefile's targets when its
cache misses: the static read the hook now does (``dp.runners.makefile_text``)
against the ``make -pRrq`` it used to run, on the same project (a Makefile of
120 rules with an included file), interleaved; the read must cost no more.

Run from a checkout with dp installed:  python bench/run_hook_bench.py [--runs N] [--agents a,b] [--clock cpu]
(``--clock cpu``: each process's user + system time instead of its wall time, for a machine that
other work shares: the ratios then move far less with its load.)
Exit status 1 if a budget is missed (a benchmark, not a test: machine noise
can make a borderline case flip).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import pathological

from dp.agents import get, names
from dp.agents.base import BLOCK, DENY, NOTHING, REWRITE
from dp.hook import WALL_CEILING_SECONDS, gate
from dp.rules.model import BASH_PARAM, BASH_TOOL, COMMAND, FLAG, RECIPE, Rule
from dp.store import Store

FLOOR = [sys.executable, "-I", "-c", "import sqlite3, json"]
BLOCKED = "open_file"
# Needs real Jinja2 (`or`, a multi-line script), not the plain-substitution fast path.
RECIPE_SCRIPT = (
    "while ! gt convoy status {{ arg(1) }} | grep -q landed; do\n"
    "  sleep {{ arg(2) or 5 }}\n"
    "done\n"
    "echo {{ args }} landed"
)
COMPILED_SCRIPT = "gt convoy ls {{ arg(1) | default('all') }} {{ args[1:] | join(' ') }} --json\necho {{ cwd }}"


def filler_rules(count: int) -> list[Rule]:
    """Rules that never match the benchmark's commands: one per made-up command."""
    return [
        Rule(f"f{n}", f"F{n}", tool=BASH_TOOL, param=BASH_PARAM, command=f"tool{n}", match_kind=FLAG)
        for n in range(count)
    ]


def active_rules() -> list[Rule]:
    return [
        Rule("ack", "ag", tool=BASH_TOOL, param=BASH_PARAM, command="ack", match_kind=COMMAND),
        Rule("read_file", "Read"),
        Rule(BLOCKED, "Read"),  # a made-up name: a correction in every agent (read_file is Gemini's Read)
        *(Rule(word, target, tool=BASH_TOOL, param=BASH_PARAM, command=word, match_kind=COMMAND)
          for word, target in pathological.RULES if word != "grep"),
        Rule("r", "R", tool=BASH_TOOL, param=BASH_PARAM, command="scp", match_kind=FLAG),
        Rule("grep", "rg", tool=BASH_TOOL, param=BASH_PARAM, command="grep", match_kind=COMMAND),
        Rule("gt convoy wait", RECIPE_SCRIPT, tool=BASH_TOOL, param=BASH_PARAM, command="gt", match_kind=RECIPE),
        Rule("gt convoy check", "gt convoy status {{ arg(1) }} --json", tool=BASH_TOOL, param=BASH_PARAM,
             command="gt", match_kind=RECIPE),
        # dp's own template language: compiled when written, rendered without Jinja2.
        Rule("gt convoy list", COMPILED_SCRIPT, tool=BASH_TOOL, param=BASH_PARAM, command="gt", match_kind=RECIPE),
    ]


def build_store(path: Path, filler: int) -> Path:
    with Store.open(path) as store:
        store.import_rules(active_rules() + filler_rules(filler))
    return path


# Replaced by the benchmark's own directories at run time.
PNPM_PROJECT, NO_PROJECT = "@PNPM_PROJECT@", "@NO_PROJECT@"
# Three levels below a repository whose trusted .dp/rules.toml holds PROJECT_RULES rules.
LAYERED_PROJECT = "@LAYERED_PROJECT@"
PROJECT_RULES = 200
# What a case's answer must be (checked once before timing, through the agent's read_answer):
# nothing, a block, or a rewrite (a refusal carrying it where the agent would run it unasked).
NONE, BLOCKS, REWRITES = "none", "block", "rewrite"
# The budgets: where nothing applies, and for a flag rewrite (and the command rewrites
# that cost about as much); the others are what those cases have always been held to.
NOTHING_BUDGET, REWRITE_BUDGET = 1.15, 1.8


def bash(command: str, cwd: str = "/tmp") -> tuple:
    """A Bash call: (dp's tool name, its input, the call's directory)."""
    return BASH_TOOL, {"command": command, "description": "benchmark"}, cwd


READ = ("Read", {"file_path": "/tmp/x"}, "/tmp")
CASES = [
    # (name, (tool, input, cwd), store, budget as a multiple of the floor, expected answer)
    ("non-Bash tool, no alias (10k rules)", READ, "10k", NOTHING_BUDGET, NONE),
    ("Bash, no match (10k rules)", bash("git status && ls -la | head -5"), "10k", NOTHING_BUDGET, NONE),
    ("tool-name block (10k rules)", (BLOCKED, {"path": "x"}, "/tmp"), "10k", NOTHING_BUDGET, BLOCKS),
    ("Bash flag rewrite (10k rules)", bash("cd src && scp -r build host:/srv/app"), "10k", REWRITE_BUDGET,
     REWRITES),
    ("Bash command rewrite (10k rules)", bash("grep -n TODO src/*.py | head"), "10k", REWRITE_BUDGET, REWRITES),
    ("Bash command rewrite, plain words (10k)", bash("grep -rn TODO src"), "10k", REWRITE_BUDGET, REWRITES),
    ("Bash recipe, Jinja2 + args (10k rules)", bash("gt convoy wait abc123 10"), "10k", 4.0, REWRITES),
    ("Bash recipe, plain {{ arg(1) }} (10k rules)", bash("gt convoy check abc123"), "10k", 2.5, REWRITES),
    ("Bash recipe, compiled args/default/join (10k)", bash("gt convoy list open 'a b' *.py && ls"), "10k", 2.5,
     REWRITES),
    ("Bash paved: npm ci in a pnpm project (10k)", bash("npm ci && npm test", PNPM_PROJECT), "10k", 1.8,
     REWRITES),
    ("Bash npm ci in no project (10k rules)", bash("npm ci && npm test", NO_PROJECT), "10k", NOTHING_BUDGET,
     NONE),
    ("non-Bash tool, trusted project file (10k)", (*READ[:2], LAYERED_PROJECT), "10k", NOTHING_BUDGET, NONE),
    ("Bash, no match, trusted project file (10k)", bash("git status && ls -la | head -5", LAYERED_PROJECT),
     "10k", NOTHING_BUDGET, NONE),
    ("Bash flag rewrite by the project file (10k)", bash("bd create --wisp 'fix it'", LAYERED_PROJECT),
     "10k", REWRITE_BUDGET, REWRITES),
    # A command rule whose program is not on PATH: the work of a rewrite up to the program's lookup
# (cached by PATH and mtimes), then left as typed.
    ("Bash command rule, program not on PATH (10k)", bash("ack -n TODO src"), "10k", REWRITE_BUDGET, NONE),
    ("Bash flag rewrite (10 rules)", bash("cd src && scp -r build host:/srv/app"), "10", None, REWRITES),
    ("Bash flag rewrite (100k rules)", bash("cd src && scp -r build host:/srv/app"), "100k", None, REWRITES),
]
# The cases timed in every agent (the first table is Claude Code's, dp's default).
AGENT_CASES = (
    "non-Bash tool, no alias (10k rules)", "Bash, no match (10k rules)", "tool-name block (10k rules)",
    "Bash flag rewrite (10k rules)", "Bash command rewrite (10k rules)", "non-Bash tool, trusted project file (10k)",
    "Bash, no match, trusted project file (10k)", "Bash flag rewrite by the project file (10k)",
)


def payload(agent, call: tuple, places: dict) -> bytes:
    """``call`` as ``agent`` sends it, in its own tool names, with the benchmark's directories in place."""
    tool, tool_input, cwd = call
    cwd = str(places.get(cwd, cwd))
    return json.dumps(agent.hooks().sample_payload(agent.agent_tool(tool), tool_input, cwd)).encode()


def pnpm_project(directory: Path) -> Path:
    """A git repository with a package.json and a pnpm lockfile (project paving's case)."""
    directory.mkdir()
    subprocess.run(["git", "init", "-q", str(directory)], check=True)
    (directory / "package.json").write_text(json.dumps({"name": "app", "scripts": {"test": "vitest"}}))
    (directory / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    return directory


def layered_project(directory: Path, store: Path) -> Path:
    """A git repository with a committed .dp/rules.toml, trusted in ``store``; returns a directory
    three levels inside it (the hook walks up to the root on every call)."""
    import hashlib

    from dp.rules import collection
    from dp.store.trust import FILE, REPOSITORY, REPOSITORY_KIND, record

    subprocess.run(["git", "init", "-q", str(directory)], check=True)
    rules = [Rule("wisp", "ephemeral", tool=BASH_TOOL, param=BASH_PARAM, command="bd", match_kind=FLAG)]
    rules += [Rule(f"p{n}", f"P{n}", tool=BASH_TOOL, param=BASH_PARAM, command=f"team{n}", match_kind=FLAG)
              for n in range(PROJECT_RULES - 1)]
    data = collection.dumps(collection.build_collection(rules, datetime.now(timezone.utc)), "toml").encode()
    (directory / ".dp").mkdir()
    (directory / ".dp" / "rules.toml").write_bytes(data)
    with Store.open(store) as opened:
        record(opened, os.path.realpath(directory),
               [(REPOSITORY_KIND, REPOSITORY, ""),
                (FILE, os.path.realpath(directory / ".dp" / "rules.toml"), hashlib.sha256(data).hexdigest())])
    inside = directory / "src" / "pkg" / "deep"
    inside.mkdir(parents=True)
    return inside


def makefile_project(directory: Path) -> Path:
    """A C-style project: 120 rules (phony and file targets, pattern rules, conditionals), an include."""
    directory.mkdir()
    rules = [".PHONY: all test lint clean", "CC ?= cc", "CFLAGS := -O2 -Wall", "SRC := $(wildcard src/*.c)",
             "OBJ := $(SRC:.c=.o)", "include mk/common.mk", "-include $(OBJ:.o=.d)", "", "## Build everything",
             "all: app", "app: $(OBJ)\n\t$(CC) -o $@ $^", "%.o: %.c\n\t$(CC) $(CFLAGS) -c $< -o $@",
             "ifeq ($(OS),Windows_NT)\nEXE := .exe\nelse\nEXE :=\nendif"]
    rules += [f"task{n}: ## Task {n}\n\t@echo task {n} \\\n\t  && true" for n in range(100)]
    rules += ["test: all\n\t./app --test", "lint:\n\tclang-tidy src/*.c", "clean:\n\trm -f app $(OBJ)"]
    (directory / "Makefile").write_text("\n".join(rules) + "\n")
    (directory / "mk").mkdir()
    (directory / "mk" / "common.mk").write_text("".join(f"common{n}:\n\t@true\n" for n in range(15)))
    return directory


def makefile_listing(directory: Path, runs: int) -> tuple[float, float]:
    """Median seconds of the static read and of make's database listing of ``directory``."""
    from dp.runners import make
    from dp.runners.base import tools_asked

    static, database = [], []
    for _ in range(runs):
        started = time.perf_counter()
        read = make.list_targets(directory)
        static.append(time.perf_counter() - started)
        with tools_asked():
            started = time.perf_counter()
            listed = make.list_targets(directory)
            database.append(time.perf_counter() - started)
        if {task.name for task in read} != {task.name for task in listed}:
            raise SystemExit("the static read and make's database disagree on the benchmark's Makefile")
    return statistics.median(static), statistics.median(database)
# The programs the rules lead to, on the hook's PATH (it leaves a command as typed when one is
# missing); `ag` is left out on purpose. Real symlinks to a real program: the hook never runs them.
PROGRAMS = ("gt", "rg")


def agent_path(directory: Path) -> str:
    """PATH for the hook: a directory holding PROGRAMS first, then this machine's PATH."""
    directory.mkdir()
    for name in PROGRAMS:
        (directory / name).symlink_to(shutil.which("true"))
    return f"{directory}{os.pathsep}{os.environ.get('PATH', '')}"


def run_once(command, payload: bytes, env: dict, clock: str = "wall") -> tuple[float, int, bytes, bytes]:
    """One run: (its time by ``clock``, exit status, stdout, stderr). ``cpu`` is the process's user +
    system time, which other processes on a shared machine distort far less than its wall time;
    ``instructions`` the instructions it ran (valgrind's cachegrind, the same on a busy machine as on an
    idle one; the kernel's share left out), in millions, read where seconds would be."""
    if clock == "instructions":
        return _instructions(command, payload, env)
    started, used = time.perf_counter(), _children_cpu()
    proc = subprocess.run(command, input=payload, capture_output=True, env=env)
    spent = time.perf_counter() - started if clock == "wall" else _children_cpu() - used
    return spent, proc.returncode, proc.stdout, proc.stderr


def _instructions(command, payload: bytes, env: dict) -> tuple[float, int, bytes, bytes]:
    import tempfile

    valgrind = shutil.which("valgrind") or "valgrind"  # this PATH's: a case's own PATH may have none
    with tempfile.NamedTemporaryFile(suffix=".valgrind") as log:
        proc = subprocess.run([valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                               f"--log-file={log.name}", *command], input=payload, capture_output=True, env=env)
        text = open(log.name, encoding="utf-8", errors="replace").read()
    refs = next((line.split(":", 1)[1] for line in text.splitlines() if "I   refs" in line or "I refs" in line), "0")
    return int(refs.replace(",", "").strip()) / 1e9, proc.returncode, proc.stdout, proc.stderr


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wrong_answer(agent, expected: str, status: int, stdout: bytes, stderr: bytes) -> str | None:
    """Why the hook's answer is not the ``expected`` kind, in ``agent``'s contract; None when it is."""
    decision = agent.hooks().read_answer(status, stdout.decode(), stderr.decode())
    kinds = {NONE: (NOTHING,), BLOCKS: (BLOCK, DENY), REWRITES: (REWRITE, DENY)}[expected]
    if decision.kind not in kinds or (expected == REWRITES and decision.kind == DENY and "dp:" not in decision.text):
        return f"answered {decision.kind} (exit {status}), expected {expected}: {(stdout or stderr)[:200]!r}"
    return None


def print_table_head(what: str, runs: int, floor_ms: float, width: int, clock: str = "wall") -> None:
    """The benchmark's title line and the head of its Markdown table (run_cli_bench.py too)."""
    timed = " of CPU time (user + system)" if clock == "cpu" else ""
    print(f"{what} benchmark: median{timed} of {runs} runs, {sys.version.split()[0]}, floor = "
          f"`python -I -c \"import sqlite3, json\"` = {floor_ms:.1f} ms\n")
    print(f"| {'case':<{width}} | {'median ms':>9} | {'× floor':>7} | {'budget':>6} | result |")
    print(f"|{'-' * (width + 2)}|{'-' * 11}|{'-' * 9}|{'-' * 8}|--------|")


def verdict(ratio: float, budget) -> str:
    return "-" if budget is None else ("ok" if ratio <= budget else "MISSED")


def budget_text(budget) -> str:
    return "-" if budget is None else f"≤{budget:g}×"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=25, help="runs per case (median; at least 20)")
    parser.add_argument("--agents", default=",".join(names()), help="the agents of the second table (comma-separated)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time each process by the wall clock (default) or by its CPU time (user + system), "
                             "which a machine shared with other work distorts less")
    options = parser.parse_args()
    runs = max(options.runs, 20)
    agents = [get(name) for name in options.agents.split(",") if name]
    pave_check = shutil.which("pave-check", path=str(Path(sys.executable).parent)) or shutil.which("pave-check")
    if not pave_check:
        print("pave-check is not installed in this environment (pip install -e .)", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        print("building stores (10, 10k and 100k filler rules)…", file=sys.stderr)
        stores = {size: build_store(tmp / f"{size}.db", count)
                  for size, count in (("10", 10), ("10k", 10_000), ("100k", 100_000))}
        # The user's pnpm (a stand-in): paving swaps only to a manager PATH finds outside the repository.
        (tmp / "bin").mkdir()
        (tmp / "bin" / "pnpm").write_text("#!/bin/sh\nexit 0\n")
        (tmp / "bin" / "pnpm").chmod(0o755)
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp / "cache"), "HOME": str(tmp),
               "PATH": f"{tmp / 'bin'}:{agent_path(tmp / 'agent-bin')}"}
        # An installed dp runs from its .pyc files: a shell that forbids writing them
        # would time the compiler on every run instead of the hook.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        places = {PNPM_PROJECT: pnpm_project(tmp / "app"), NO_PROJECT: tmp / "scratch",
                  LAYERED_PROJECT: layered_project(tmp / "team", stores["10k"])}
        (tmp / "scratch").mkdir()
        for store in stores.values():  # what every dp command that changes rules or trust does after it
            gate.write(store)
        claude = get()
        # (agent, case name) → (argv, payload, expected answer); Claude Code's every case, the others AGENT_CASES.
        runs_of = {}
        for agent in [claude] + [agent for agent in agents if agent is not claude]:
            for name, call, store, _, expected in CASES:
                if agent is claude or name in AGENT_CASES:
                    runs_of[agent.name, name] = ([pave_check, "--agent", agent.name, "--db", str(stores[store])],
                                                 payload(agent, call, places), expected)
        worst = {name: ([pave_check, "--db", str(stores["10k"])], data, answer)
                 for name, (data, answer) in pathological.payloads(claude, str(places[NO_PROJECT])).items()}

        for (agent_name, name), (command, data, expected) in runs_of.items():  # warm-up + sanity check
            why = wrong_answer(get(agent_name), expected, *run_once(command, data, env)[1:])
            if why:
                print(f"{agent_name}: {name}: {why}", file=sys.stderr)
                return 2
        timings: dict = {key: [] for key in runs_of}
        floor: list[float] = []
        for _ in range(runs):
            floor.append(run_once(FLOOR, b"", env, options.clock)[0])
            for key, (command, data, _) in runs_of.items():
                timings[key].append(run_once(command, data, env, options.clock)[0])
        worst_runs = max(runs // 5, 5)
        worst_times = {name: [run_once(command, data, env)[0] for _ in range(worst_runs)]
                       for name, (command, data, _) in worst.items()}
        listing = makefile_listing(makefile_project(tmp / "cproject"), runs) if shutil.which("make") else None

    floor_ms = statistics.median(floor) * 1000
    ratios = {key: statistics.median(values) * 1000 / floor_ms for key, values in timings.items()}
    print_table_head("pave-check", runs, floor_ms, 46, options.clock)
    missed = False
    for name, _, _, budget, _ in CASES:
        ratio = ratios[claude.name, name]
        missed |= verdict(ratio, budget) == "MISSED"
        print(f"| {name:<46} | {ratio * floor_ms:>9.1f} | {ratio:>6.2f}× | {budget_text(budget):>6} | "
              f"{verdict(ratio, budget):<6} |")
    small, large = (ratios[claude.name, f"Bash flag rewrite ({size} rules)"] * floor_ms for size in ("10", "100k"))
    change = (large - small) / small * 100
    result = "ok" if abs(change) <= 10 else "MISSED"
    missed |= result == "MISSED"
    print(f"\n100k rules vs 10 rules (flag rewrite): {large:.1f} ms vs {small:.1f} ms = {change:+.1f}% "
          f"(budget ±10%): {result}")

    shown = [claude] + [agent for agent in agents if agent is not claude]
    print("\nEvery agent (--agent; × floor, same run):\n")
    print(f"| {'case':<46} | {'budget':>6} | " + " | ".join(f"{agent.name:>8}" for agent in shown) + " | result |")
    print(f"|{'-' * 48}|{'-' * 8}|" + "|".join("-" * 10 for _ in shown) + "|--------|")
    for name, _, _, budget, _ in CASES:
        if name not in AGENT_CASES:
            continue
        worst_ratio = max(ratios[agent.name, name] for agent in shown)
        missed |= verdict(worst_ratio, budget) == "MISSED"
        print(f"| {name:<46} | {budget_text(budget):>6} | "
              + " | ".join(f"{ratios[agent.name, name]:>7.2f}×" for agent in shown)
              + f" | {verdict(worst_ratio, budget):<6} |")

    print(f"\nWorst inputs (bench/pathological.py, 1 MiB payloads; median and slowest of {worst_runs} runs; "
          f"the hook's own limit is {WALL_CEILING_SECONDS:g} s):\n")
    print(f"| {'input':<28} | {'median ms':>9} | {'max ms':>8} | result |")
    print(f"|{'-' * 30}|{'-' * 11}|{'-' * 10}|--------|")
    for name, values in worst_times.items():
        result = "ok" if max(values) < WALL_CEILING_SECONDS else "MISSED"
        missed |= result == "MISSED"
        print(f"| {name:<28} | {statistics.median(values) * 1000:>9.1f} | {max(values) * 1000:>8.1f} | {result:<6} |")

    if listing is not None:
        read_ms, make_ms = (value * 1000 for value in listing)
        result = "ok" if read_ms <= make_ms else "MISSED"
        missed |= result == "MISSED"
        print(f"\nMakefile targets (120 rules + include), read vs `make -pRrq`: {read_ms:.2f} ms vs {make_ms:.2f} ms "
              f"= {read_ms / make_ms:.3f}× (budget ≤1×): {result}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
