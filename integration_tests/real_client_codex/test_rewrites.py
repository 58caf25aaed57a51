"""dp's rules in the real ``codex exec``, never widening what Codex would run unasked.

A Codex rewrite is only possible as ``permissionDecision: "allow"`` + ``updatedInput``:
it always comes approved. So dp rewrites where the original would have run without
anyone being asked (``permission_mode: bypassPermissions``, every ``codex exec``
without ``--approve-for-me``) and otherwise refuses with the corrected command, which
the model reissues through Codex's own approval.
"""

from __future__ import annotations

from real_client_contract.harnesses import oldtool_rule

from dp.agents.codex.fake_api import shell


def test_a_rewrite_runs_when_the_session_runs_commands_unasked(codex):
    oldtool_rule(codex)
    call = shell("oldtool -x a.txt")
    session = codex.run([[call]], "-s", "workspace-write")  # approval `never`: permission_mode bypassPermissions

    assert session.proc.returncode == 0, session.log
    assert "newtool ran: -x a.txt" in session.output(call)
    assert "Process exited with code 0" in session.output(call)
    assert (codex.project / "newtool-ran").exists() and not (codex.project / "oldtool-ran").exists()
    # The model's own call stays `oldtool …` in its history; dp's note tells it what ran.
    assert "dp: oldtool → newtool" in session.conversation.context(call["call_id"])


def test_the_rewritten_command_stays_inside_codexs_sandbox(codex):
    """`allow` approves the call but does not lift the sandbox: the default read-only sandbox
    stops the rewritten command's write exactly as it would have stopped the original's."""
    oldtool_rule(codex)
    call = shell("oldtool -x a.txt")
    session = codex.run([[call]])  # codex exec's default: approval never, sandbox read-only

    assert "newtool ran: -x a.txt" in session.output(call)
    assert "Read-only file system" in session.output(call)
    assert not (codex.project / "newtool-ran").exists()
