"""The hook's gate (dp.hook.gate): a call no rule names is answered before the store opens, and the
gate never answers otherwise than the full path would — whatever changed the rules, and however.

Each test changes the rules or their sources the way a person or a program would (dp, dp's
library without the sync, an older dp that only touches the stamp, a hand-edited switch, a pulled
project file) and asks the real pave-check.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hook_support import BIN, build_store, isolated_env, programs_dir
from paving_projects import git_init, make_js_project

from dp.agents import get, names

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "integration_tests" / "data" / "corpus.txt"
RULES = [
    ["read_file", "Read"],
    ["--cmd", "grep", "--replace", "rg"],
    ["--cmd", "bd", "--flag", "wisp", "ephemeral"],
    ["--tool", "Edit", "--param", "file_path", "/old/", "/new/"],
    ["--recipe", "gt convoy wait", "gt convoy status {{ arg(1) }}"],
]
BD_RULE = ["--cmd", "bd", "--flag", "wisp", "ephemeral"]


def hook(env: dict, tool: str, tool_input: dict, cwd, agent: str = "claude") -> tuple[int, str, str]:
    """The real pave-check on ``agent``'s payload for one call: (exit status, stdout, stderr)."""
    adapter = get(agent)
    payload = adapter.hooks().sample_payload(adapter.agent_tool(tool), tool_input, str(cwd))
    proc = subprocess.run([str(BIN / "pave-check"), "--agent", agent], input=json.dumps(payload),
                          capture_output=True, text=True, env=env, cwd=str(cwd), timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def rewritten(env: dict, command: str, cwd) -> str | None:
    """The command the hook rewrites ``command`` to (Claude Code), or None when it leaves it as typed."""
    status, out, _ = hook(env, "Bash", {"command": command}, cwd)
    assert status == 0
    return json.loads(out)["hookSpecificOutput"]["updatedInput"]["command"] if out.strip() else None


def gate_file(env: dict) -> Path:
    return Path(env["DP_DB"] + ".hook-gate")


def dp(env: dict, *args, cwd=None) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(BIN / "dp"), *map(str, args)], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture
def env(tmp_path) -> dict:
    return build_store(tmp_path, RULES)


def test_every_rule_change_through_dp_keeps_the_gate_in_line(env, tmp_path):
    assert gate_file(env).is_file()
    assert rewritten(env, "bd create --wisp x", tmp_path) == "bd create --ephemeral x"
    assert rewritten(env, "ls --all && git status", tmp_path) is None
    dp(env, "alias", "--delete", *BD_RULE)
    assert rewritten(env, "bd create --wisp x", tmp_path) is None
    dp(env, "alias", "--cmd", "ls", "--flag", "all", "almost-all")
    assert rewritten(env, "ls --all && git status", tmp_path) == "ls --almost-all && git status"
    status, out, err = hook(env, "read_file", {"path": "x"}, tmp_path)
    assert status == 2 and "Use Read instead" in err
    status, out, _ = hook(env, "Edit", {"file_path": "/old/a.py", "old_string": "a", "new_string": "b"}, tmp_path)
    assert json.loads(out)["hookSpecificOutput"]["updatedInput"]["file_path"] == "/new/a.py"
    assert hook(env, "Write", {"file_path": "/old/a.py", "content": "x"}, tmp_path)[1] == ""


def test_a_rule_written_by_dps_library_without_the_sync_acts_at_once(env, tmp_path):
    """A program using dp's store directly (or a dp killed between its commit and its sync) leaves
    the gate behind the rules: the stamp's new token says so, and the hook takes the full path,
    even where the file clock is too coarse to give the stamp a new time (the same time is put back)."""
    stamp = Path(env["DP_DB"]).parent / "rules.changed"
    before = stamp.stat().st_mtime_ns
    code = ("import sys; from dp.store import Store; from dp.rules.model import Rule, FLAG\n"
            "with Store.open(sys.argv[1]) as s: s.set_rule(Rule('n', 'number', tool='Bash', param='command',"
            " command='cat', match_kind=FLAG))")
    subprocess.run([sys.executable, "-c", code, env["DP_DB"]], check=True, env=env, timeout=60)
    os.utime(stamp, ns=(before, before))
    assert rewritten(env, "cat -n notes.txt", tmp_path) == "cat --number notes.txt"


def test_an_older_dp_that_only_touches_the_stamp_is_seen_too(env, tmp_path):
    """dp before the token touched the stamp's time only; a rule it wrote is applied all the same."""
    stamp = Path(env["DP_DB"]).parent / "rules.changed"
    with sqlite3.connect(env["DP_DB"]) as conn:
        conn.execute("INSERT INTO aliases_v3 (from_name, to_name, tool, param, command, match_kind, message,"
                     " created_at) VALUES ('n', 'number', 'Bash', 'command', 'cat', 'flag', '', '2026-01-01')")
    conn.close()
    before = stamp.stat().st_mtime_ns
    os.utime(stamp, ns=(before + 10**9, before + 10**9))
    assert rewritten(env, "cat -n notes.txt", tmp_path) == "cat --number notes.txt"


def test_a_trusted_file_edited_back_to_its_trusted_text_acts_with_no_dp_run(env, tmp_path):
    repo = tmp_path / "repo"
    git_init(repo)
    (repo / "node_modules" / ".bin").mkdir(parents=True)
    (repo / "build").mkdir()
    (repo / "build" / "app.bin").write_bytes(bytes(range(256)) * 8)
    (repo / ".dp").mkdir()
    text = ('[[aliases]]\nfrom = "verbose"\nto = "debug"\ntool = "Bash"\nparam = "command"\n'
            'command = "deploy-tool"\nmatch_kind = "flag"\n')
    (repo / ".dp" / "rules.toml").write_text(text)
    dp(env, "trust", "-C", repo)
    assert rewritten(env, "deploy-tool --verbose", repo) == "deploy-tool --debug"
    (repo / ".dp" / "rules.toml").write_text(text + "# pulled\n")
    dp(env, "alias", "--cmd", "scp", "--flag", "r", "R")  # a sync while the file is not the trusted text
    assert rewritten(env, "deploy-tool --verbose", repo) is None
    (repo / ".dp" / "rules.toml").write_text(text)
    assert rewritten(env, "deploy-tool --verbose", repo) == "deploy-tool --debug"


def test_paving_switched_on_by_hand_paves_at_once(env, tmp_path):
    project = make_js_project(tmp_path / "web app", "pnpm")
    git_init(project)
    (project / "node_modules").mkdir()
    paving_env = {**env, "PATH": f"{programs_dir(tmp_path / 'managers', pnpm='true')}{os.pathsep}{env['PATH']}"}
    dp(paving_env, "paving", "off")
    assert rewritten(paving_env, "npm ci", project) is None
    switch = Path(env["DP_DB"]).parent / "paving.json"
    switch.write_text('{"enabled": true}\n')
    assert rewritten(paving_env, "npm ci", project) == "pnpm install --frozen-lockfile"


@pytest.mark.parametrize("damage", [b"", b"dp-hook-gate 1\n{not json\n", b"\x00\xff" * 100,
                                    b"dp-hook-gate 2\n{}\n", b"dp-hook-gate 1\n[]\n"])
def test_a_damaged_gate_proves_nothing(env, tmp_path, damage):
    gate_file(env).write_bytes(damage)
    assert rewritten(env, "bd create --wisp x", tmp_path) == "bd create --ephemeral x"
    assert rewritten(env, "git status", tmp_path) is None


def test_a_stamp_that_cannot_be_written_takes_the_gate_away(env, tmp_path):
    stamp = Path(env["DP_DB"]).parent / "rules.changed"
    stamp.unlink()
    stamp.mkdir()  # no file can be written there
    dp(env, "alias", "--cmd", "cat", "--flag", "n", "number")
    assert not gate_file(env).exists()
    assert rewritten(env, "cat -n notes.txt", tmp_path) == "cat --number notes.txt"
    assert rewritten(env, "git status", tmp_path) is None


def test_a_session_start_rebuilds_a_missing_gate(env, tmp_path):
    gate_file(env).unlink()
    status, out, _ = hook(env, "Bash", {"command": "x"}, tmp_path)  # any call works without it
    assert status == 0 and out == ""
    payload = {"session_id": "s", "hook_event_name": "SessionStart", "source": "startup", "cwd": str(tmp_path)}
    proc = subprocess.run([str(BIN / "pave-check")], input=json.dumps(payload), capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0 and "bd" in proc.stdout
    assert gate_file(env).is_file()
    assert _doctor_latency(env, tmp_path)["details"]["gate"] == "fresh"


def test_doctor_says_when_the_gate_is_not_in_line(env, tmp_path):
    """Judged on the gate alone (details.gate), never on how fast this machine ran the probe."""
    gate_file(env).unlink()
    finding = _doctor_latency(env, tmp_path)
    assert finding["status"] == "warning" and "gate beside the store is missing" in finding["message"]
    assert finding["details"]["gate"] == "missing"
    dp(env, "alias", "--cmd", "cat", "--flag", "n", "number")
    finding = _doctor_latency(env, tmp_path)
    assert finding["details"]["gate"] == "fresh" and "gate beside the store" not in finding["message"]


def _doctor_latency(env: dict, cwd) -> dict:
    proc = subprocess.run([str(BIN / "dp"), "doctor", "--json"], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=120)
    return next(f for f in json.loads(proc.stdout)["checks"] if f["check"] == "latency")


# Every agent's payload for a call, in process (the run() pave-check's main calls), with the gate
# in place or not: the answers must be the same, byte for byte.
_ANSWERS = """
import json, sys
from dp.agents import get
from dp.hook import parse_options, run
agent, cwd, calls = json.load(sys.stdin)
adapter = get(agent)
answers = []
for tool, tool_input in calls:
    payload = adapter.hooks().sample_payload(adapter.agent_tool(tool), tool_input, cwd)
    answers.append(list(run(parse_options(["--agent", agent]), json.dumps(payload).encode())))
json.dump(answers, sys.stdout)
"""


def _answers(env, agent: str, cwd: Path, calls: list) -> list:
    proc = subprocess.run([sys.executable, "-c", _ANSWERS], input=json.dumps([agent, str(cwd), calls]),
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=300, check=True)
    return json.loads(proc.stdout)


def _corpus_commands() -> list[str]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    return [line.partition(" ⟶ ")[0] for line in lines if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("agent", names())
def test_the_gate_answers_every_call_as_the_full_path_does(tmp_path, agent):
    """The corpus of agent one-liners, recipes, paving words, rule words inside quotes, substitutions
    and here-docs, tool aliases (with a message, and a trusted project's) and parameter rules, in
    every agent, inside a trusted pnpm project and outside it: the same answers with the gate as
    without it."""
    env = build_store(tmp_path, [*RULES, ["--cmd", "ls", "--replace", "eza"], ["--cmd", "find", "--replace", "fd"],
                                 ["-m", "open_file is dp's old reader", "open_file", "Read"]])
    project = make_js_project(tmp_path / "project", "pnpm")
    git_init(project)
    (project / "node_modules" / ".pnpm").mkdir(parents=True)
    (project / "dist").mkdir()
    (project / "dist" / "app.js.map").write_bytes(b"\x00" * 512)
    (project / ".dp").mkdir()
    (project / ".dp" / "rules.toml").write_text(
        '[[aliases]]\nfrom = "view_file"\nto = "Read"\n\n[[aliases]]\nfrom = "verbose"\nto = "debug"\n'
        'tool = "Bash"\nparam = "command"\ncommand = "deploy-tool"\nmatch_kind = "flag"\n')
    dp(env, "trust", "-C", project)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    commands = _corpus_commands() + [
        "gt convoy wait c1", "npm ci && npm test", "python3 -m pytest -q", "python3 -c 'print(1)'", "pip install x",
        "echo 'grep is quoted'", "echo \"$(grep x f)\"", "cat <<EOF\ngrep x\nEOF", "eval 'bd --wisp'",
        "bd create --wisp x", "/usr/bin/grep -n x f", "git status", "deploy-tool --verbose", "",
    ]
    calls = [["Bash", {"command": command}] for command in commands] + [
        ["Read", {"file_path": str(project / "package.json")}], ["read_file", {"path": "x"}],
        ["open_file", {"path": "x"}], ["view_file", {"path": "x"}],
        ["Edit", {"file_path": "/old/a.py", "old_string": "a", "new_string": "b"}],
        ["Write", {"file_path": "/tmp/x", "content": "x"}], ["Bash", "not an object"], ["Bash", {"command": 7}],
    ]
    with_gate = [_answers(env, agent, cwd, calls) for cwd in (project, outside)]
    gate_file(env).unlink()
    (Path(env["DP_DB"]).parent / "paving-sessions.json").unlink()  # what each session was told, once
    shutil.rmtree(Path(env["DP_DB"]).parent / "told", ignore_errors=True)  # and each call's rewrite (dp.hook.notes._first_to_tell)
    without = [_answers(env, agent, cwd, calls) for cwd in (project, outside)]
    for where, ones, others in zip(("project", "outside"), with_gate, without):
        for call, one, other in zip(calls, ones, others):
            assert one == other, (where, call)
    let_through = sum(1 for answer in without[1] if answer == [0, "", ""])
    assert let_through > 50 and len(calls) - let_through > 150  # both kinds, in numbers
    assert without[1][calls.index(["open_file", {"path": "x"}])] != [0, "", ""]  # the alias answers


def test_dp_init_leaves_a_gate_in_line_before_any_rule(tmp_path):
    """A new install's first calls are answered from the gate: `dp init` writes it with the store."""
    env = isolated_env(tmp_path)
    (tmp_path / "home" / ".claude").mkdir(parents=True)
    dp(env, "init")
    assert gate_file(env).is_file()
    assert _doctor_latency(env, tmp_path)["details"]["gate"] == "fresh"
    assert rewritten(env, "git status", tmp_path) is None
