"""The answer at the moment of failure in the real Claude Code (issue 39): learned from two earlier
sessions' failures and fixes (the real dp-capture fed their hook JSON, then dp suggest), it reaches the
model inside the failed Bash call's result, through the PostToolUseFailure entry dp init installs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dp.agents.claude.fake_api import bash

CAPTURE = Path(sys.executable).parent / "dp-capture"
NOT_FOUND = "Exit code 127\n/bin/bash: line 1: gradle: command not found"
# ./gradlew is a program of this project, not another name of gradle: the answer is the agent's own earlier
# call, quoted, told only in this project (docs/learning.md)
ANSWER = "The same change to this call:\n./gradlew -q build"
WHY = ("in 2 earlier sessions in this repository, after this same failure of `gradle`, the agent then ran "
       "`./gradlew` in its place. That is the agent's own earlier call, quoted as recorded; dp has not checked it.")


def _earlier_session(client, name: str) -> None:
    """A session where `gradle` was missing and the agent then ran the repository's ./gradlew."""
    base = {"session_id": name, "transcript_path": "", "cwd": str(client.project), "permission_mode": "default",
            "tool_name": "Bash"}
    for n, (event, command, extra) in enumerate([
            ("PostToolUseFailure", "gradle -q test", {"error": NOT_FOUND, "is_interrupt": False}),
            ("PostToolUse", "./gradlew -q test", {"tool_response": {"stdout": "BUILD SUCCESSFUL", "stderr": ""}})]):
        payload = {**base, "hook_event_name": event, "tool_input": {"command": command},
                   "tool_use_id": f"toolu_{name}_{n}", **extra}
        proc = subprocess.run([str(CAPTURE)], input=json.dumps(payload), capture_output=True, text=True,
                              env=client.env, timeout=60)
        assert (proc.returncode, proc.stdout) == (0, "")


def test_a_learned_answer_reaches_the_model_after_the_failed_bash_call(client):
    if shutil.which("gradle", path=client.env["PATH"]):
        pytest.skip("this machine has gradle: the call would not fail")
    client.init()
    wrapper = client.project / "gradlew"
    wrapper.write_text("#!/bin/sh\necho BUILD SUCCESSFUL\n")
    wrapper.chmod(0o755)
    _earlier_session(client, "earlier-1")
    _earlier_session(client, "earlier-2")
    [item] = json.loads(client.dp("suggest", "--json").stdout)
    assert item["alias"] == ["--recipe", "gradle", "./gradlew {{ args }}"] and item["sessions"] == 2
    assert item["evidence"][0]["then"] == "./gradlew -q test" and "--project" in item["reason"]

    failing = bash("gradle -q build")
    session = client.run([[failing], [bash("true")]])
    result = session.tool_result(failing["id"])
    assert result["is_error"] is True and "gradle: command not found" in result["text"]
    # dp-capture's answer, in the failed call's result as the model reads it
    assert f"{WHY} {ANSWER}" in session.shown(failing["id"])
