"""The harness itself: the real Copilot CLI talks to the fake, runs the scripted shell call, and
unpacks its app once for every test rather than into each HOME."""

from __future__ import annotations

from dp.agents.claude.fake_api import shell
from real_client_copilot.copilot_install import package_cache


def test_a_scripted_shell_call_runs_and_the_model_reads_its_output(copilot):
    (copilot.project / "notes.txt").write_text("hello from the project\n")
    call = shell("cat notes.txt", description="Read the notes")
    session = copilot.run([[call]])

    assert session.proc.returncode == 0, session.output
    result = session.tool_result(call["id"])
    assert result["text"].startswith("hello from the project\n")
    assert "exit code 0" in result["text"]
    requests = session.fake.requests
    assert requests and all(r.path == "/v1/messages" for r in requests)
    assert {r.headers.get("anthropic-version") for r in requests} == {"2023-06-01"}
    assert all(r.headers.get("x-api-key") == "<sent>" for r in requests)
    tools = {tool["name"]: tool for tool in session.fake.main_requests[0]["tools"]}
    assert set(tools["bash"]["input_schema"]["required"]) >= {"command", "description"}


def test_the_app_is_unpacked_once_in_the_shared_cache_not_in_the_users_home(copilot):
    session = copilot.run([])

    assert session.proc.returncode == 0, session.output
    assert list((package_cache() / "pkg").glob("*/*/index.js")), "nothing unpacked in the shared cache"
    assert not (copilot.home / ".cache" / "copilot" / "pkg").exists()
    assert not (copilot.home / ".copilot" / "pkg").exists()
