"""dp fails open in every agent's real binary: with its store corrupt, a call dp has a rule for runs
exactly as the model typed it, nothing of dp's reaches the model, and the store is left as it was."""

from __future__ import annotations

import pytest

from real_client_contract.harnesses import agents

# A file that starts like a SQLite database and is not one, as a disk fault or a stray write leaves it.
CORRUPT = b"SQLite format 3\x00" + b"\xff" * 4000


@pytest.mark.parametrize("harness", agents())
def test_a_corrupt_store_fails_open_and_the_call_runs_as_typed(harness, user):
    user.init(*harness.init)
    user.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    user.program("oldtool")
    user.program("newtool")
    for suffix in ("-wal", "-shm"):
        user.store.with_name(user.store.name + suffix).unlink(missing_ok=True)
    user.store.write_bytes(CORRUPT)
    call = harness.shell("oldtool -x still runs")

    session = harness.run(user, [[call]])

    assert session.proc.returncode == 0, session.proc.stdout + session.proc.stderr
    shown, result = harness.shown(session, call), harness.result(session, call)
    assert harness.output_prefix + "oldtool ran: -x still runs" in result, shown
    if harness.output_first:
        assert result.startswith("oldtool ran: -x still runs"), result
    assert "newtool" not in shown
    for mark in harness.acted:
        assert mark not in shown, (mark, shown)
    if harness.history:
        assert harness.history(session, call)["command"] == "oldtool -x still runs"
    if harness.untouched:
        assert harness.untouched(session, call), session.log
    if harness.hook_log:  # the hook ran, and its failure never reached the agent as one
        assert harness.hook_log in session.log and "Failed" not in session.log
    assert user.store.read_bytes() == CORRUPT
