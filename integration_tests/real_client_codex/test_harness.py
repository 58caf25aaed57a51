"""The harness itself, in the real binary: the fake Responses API plays the model and records what it was shown."""

from __future__ import annotations

import json

from dp.agents.codex.fake_api import SHELL_TOOL, message, shell


def test_a_scripted_shell_call_runs_and_its_result_and_exit_code_reach_the_model(codex):
    first, second = shell("echo hello from the fake"), shell("echo oops; exit 3")
    session = codex.run([[message("Looking."), first], [second]], prompt="Say hello.")

    assert session.proc.returncode == 0, session.log
    assert "hello from the fake" in session.output(first)
    assert "Process exited with code 0" in session.output(first)
    assert "Process exited with code 3" in session.output(second)
    requests = session.fake.main_requests
    assert len(requests) == 3  # one per scripted turn, and the one answered "Done."
    assert all(body["stream"] is True for body in requests)
    assert SHELL_TOOL in [tool.get("name") for tool in requests[0]["tools"]]
    assert "Say hello." in session.opening
    calls = [item for item in requests[-1]["input"] if item.get("type") == "function_call"]
    assert [json.loads(call["arguments"])["cmd"] for call in calls] == ["echo hello from the fake", "echo oops; exit 3"]
    assert session.proc.stdout.strip() == "Done."
