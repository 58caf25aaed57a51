"""The hook's worst case is bounded, whatever the input, in every agent.

pave-check's inputs come from the model: a command of a million empty quotes,
a pipeline of 50,000 commands, nesting thousands deep, a here-doc of a
megabyte, a payload of 60,000 keys (bench/pathological.py builds them, just
under the hook's 1 MiB input limit). Each run, from the first byte read to
the answer, is under one budget (dp.hook.WALL_CEILING_SECONDS) well inside
the timeout dp installs: the hook exits 0 with the correct answer, or with no
output when the budget ran out first. The only clock here is the subprocess
timeout, the installed one: a hook the client would kill fails the test.
bench/run_hook_bench.py measures how long these take.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hook_support import BIN, build_store

from dp.agents import get, names
from dp.agents.base import DENY, REWRITE
from dp.hook import HOOK_TIMEOUT_SECONDS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import pathological  # noqa: E402


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("worst-case")
    return build_store(root, [["--cmd", word, "--replace", target] for word, target in pathological.RULES])


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    cwd = tmp_path_factory.mktemp("project")
    return {agent: pathological.payloads(get(agent), str(cwd)) for agent in names()}


def pave_check(env, agent: str, data: bytes) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "pave-check"), "--agent", agent], input=data, capture_output=True, env=env,
                          timeout=HOOK_TIMEOUT_SECONDS)


@pytest.mark.parametrize("case", [*pathological.COMMANDS, "many JSON keys"])
@pytest.mark.parametrize("agent", names())
def test_a_pathological_input_gets_the_right_answer_or_none_in_time(env, inputs, agent, case):
    data, expected = inputs[agent][case]
    assert len(data) > 1_000_000
    proc = pave_check(env, agent, data)
    assert proc.returncode == 0, proc.stderr[-500:]
    if not proc.stdout:
        assert proc.stderr == b""
        return
    decision = get(agent).hooks().read_answer(proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    if decision.kind == REWRITE:
        command = decision.updated_input.get("command")
        assert command == expected, (command or "")[:300]
        if case == "many JSON keys":  # every key the agent sent goes back as it was
            sent = json.loads(data)
            arguments = next(sent[field] for field in ("tool_input", "toolArgs", "args") if field in sent)
            assert decision.updated_input == {**arguments, "command": expected}
    else:  # an agent that would run the rewrite unasked gets a refusal carrying it (dp.agents.base.refusal)
        assert decision.kind == DENY and expected in decision.text, decision.text[:300]


def test_the_ceiling_covers_reading_stdin(env):
    """A client that never finishes writing the payload: the hook gives up within its own budget,
    with no output, before the installed timeout would kill it (--verbose says why)."""
    hook = subprocess.Popen([str(BIN / "pave-check"), "--verbose"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    try:
        hook.stdin.write(b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "grep')
        hook.stdin.flush()
        hook.wait(timeout=HOOK_TIMEOUT_SECONDS)  # stdin stays open (communicate would close it)
        stdout, stderr = hook.stdout.read(), hook.stderr.read()
    finally:
        hook.kill()
        hook.wait()
        for stream in (hook.stdin, hook.stdout, hook.stderr):
            stream.close()
    assert hook.returncode == 0 and stdout == b""
    assert b"pave-check: stdin still open" in stderr and b"Traceback" not in stderr
