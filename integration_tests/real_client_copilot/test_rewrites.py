"""Rewrites in the real Copilot CLI: what runs is what the rules say, the model is told, and a rewrite
never runs where Copilot's own approval would not have let the new command run."""

from __future__ import annotations

from real_client.client_support import BIN

from dp.agents.claude.fake_api import shell


def test_a_rewrite_is_approved_by_copilot_as_the_new_command_never_more(copilot):
    """No `allow` is sent: `ls` (read-only, runs unasked in -p) rewritten to `touch` (a write) is denied."""
    copilot.init("--agent", "copilot")
    copilot.dp("alias", "--cmd", "ls", "--replace", "touch", "--force")
    call, untouched = shell("ls made.txt"), shell("echo still runs")
    session = copilot.run([[call], [untouched]], allow_all=False)

    assert "Permission denied because no interactive user response was available" in (
        session.tool_result(call["id"])["text"])
    assert not (copilot.project / "made.txt").exists()
    assert session.tool_result(untouched["id"])["text"].startswith("still runs\n")

    # With the user's --allow-all-tools the same rewrite runs: Copilot's approval, not dp's, decides.
    session = copilot.run([[shell("ls made.txt")]])
    assert (copilot.project / "made.txt").exists()


def test_the_users_deny_rule_still_stops_a_rewritten_command(copilot):
    copilot.init("--agent", "copilot")
    copilot.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    copilot.program("oldtool")
    copilot.program("newtool", 'touch newtool-ran; echo "newtool ran:" "$@"')
    call = shell("oldtool -x a.txt")
    session = copilot.run([[call]], "--deny-tool", "shell(newtool)")

    assert "denied due to the following rules: `shell(newtool)`" in session.tool_result(call["id"])["text"]
    assert not (copilot.project / "newtool-ran").exists()


def test_a_hook_that_cannot_start_lets_every_call_through(copilot):
    """dp deleted without `dp uninstall`: Copilot denies a call whose hook errors, so dp's entries end in || true."""
    copilot.init("--agent", "copilot")
    hooks_file = copilot.user_hooks / "dp.json"
    installed = str(BIN / "pave-check")
    assert installed in hooks_file.read_text()
    hooks_file.write_text(hooks_file.read_text().replace(installed, str(copilot.root / "gone" / "pave-check")))
    call = shell("echo hello")
    session = copilot.run([[call]])

    assert session.tool_result(call["id"])["text"].startswith("hello\n"), session.output
