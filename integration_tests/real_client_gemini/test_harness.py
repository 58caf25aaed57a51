"""The harness itself, in the real binary: the fake Gemini API plays the model and records what it was shown."""

from __future__ import annotations

from dp.agents.gemini.fake_api import SHELL_TOOL, shell, text


def test_a_scripted_shell_call_runs_and_its_result_and_exit_code_reach_the_model(gemini):
    session = gemini.run([[text("Looking."), shell("echo hello from the fake")], [shell("echo oops; exit 3")]],
                         prompt="Say hello.")
    assert session.proc.returncode == 0, session.log
    first, second = session.results()
    assert "hello from the fake" in first
    assert "Exit Code: 3" in second
    requests = session.fake.main_requests
    assert len(requests) == 3  # one per scripted turn, and the one answered "Done."
    declared = [tool["name"] for group in requests[0]["tools"] for tool in group.get("functionDeclarations", [])]
    assert SHELL_TOOL in declared
    assert "Say hello." in session.opening
    assert session.response == "Done."
