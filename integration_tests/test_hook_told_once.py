"""One call, several pave-checks at once: the rewrite is given by each, its note to the model by one.

Claude Code without mods starts one handler per ``if`` condition a command matches, and all of them
for a command it cannot analyze (a ``for`` loop: 33 processes with paving on); each handler's
``additionalContext`` reaches the model. So the first pave-check to claim the call tells the model,
the others give the same rewrite silently (dp.hook.notes._first_to_tell). The real client's view is
in integration_tests/real_client/test_paving_filters.py.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hook_support import BIN, build_store

CONCURRENT = 8


@pytest.fixture
def env(tmp_path):
    return build_store(tmp_path, [["--cmd", "oldtool", "--replace", "newtool"]])


def payload(call_id: str | None, session: str = "s-1") -> bytes:
    data = {"session_id": session, "transcript_path": "", "cwd": "/srv/app", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": 'for f in a b; do oldtool "$f"; done'}}
    if call_id is not None:
        data["tool_use_id"] = call_id
    return json.dumps(data).encode()


def together(env: dict, data: bytes, count: int = CONCURRENT) -> list[dict]:
    """``count`` pave-checks started at once on the same payload, as the client starts its handlers."""
    procs = [subprocess.Popen([str(BIN / "pave-check")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env) for _ in range(count)]
    for proc in procs:
        proc.stdin.write(data)
        proc.stdin.close()
    answers = []
    for proc in procs:
        out = proc.stdout.read()
        proc.stdout.close()
        proc.stderr.close()
        assert proc.wait(timeout=60) == 0
        answers.append(json.loads(out)["hookSpecificOutput"])
    return answers


def spooled(env: dict) -> list[dict]:
    spool = Path(env["DP_DB"]).parent / "actions.jsonl"
    return [json.loads(line) for line in spool.read_text().splitlines()] if spool.exists() else []


def test_every_pave_check_of_a_call_rewrites_it_and_one_tells_the_model(env):
    answers = together(env, payload("toolu_1"))
    rewritten = {"command": 'for f in a b; do newtool "$f"; done'}
    assert all(answer["updatedInput"] == rewritten for answer in answers)
    told = [answer["additionalContext"] for answer in answers if "additionalContext" in answer]
    assert told == ["dp: oldtool → newtool"]
    assert [line["call"] for line in spooled(env)] == ["toolu_1"]  # dp stats counts the call once

    [again] = together(env, payload("toolu_2"), 1)  # the next call is told again
    assert again["additionalContext"] == "dp: oldtool → newtool"
    [other] = together(env, payload("toolu_1", session="s-2"), 1)  # so is the same id in another session
    assert other["additionalContext"] == "dp: oldtool → newtool"


def test_without_a_call_id_each_tells_rather_than_none(env):
    answers = together(env, payload(None), 3)
    assert [answer["additionalContext"] for answer in answers] == ["dp: oldtool → newtool"] * 3


def test_a_place_the_claim_cannot_be_made_in_leaves_every_note(env):
    told = Path(env["DP_DB"]).parent / "told"
    told.write_text("not a directory\n")  # the claims cannot be made: fail open
    answers = together(env, payload("toolu_3"), 3)
    assert [answer.get("additionalContext") for answer in answers] == ["dp: oldtool → newtool"] * 3
    assert told.read_text() == "not a directory\n"
