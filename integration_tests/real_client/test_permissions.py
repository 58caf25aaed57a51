"""What each `--permission` of the hook does in `claude -p`, with Bash allowed and in the default mode."""

from __future__ import annotations

import pytest

from dp.agents.claude.fake_api import bash

RAN = "newtool ran: x"


@pytest.mark.parametrize(
    "permission, bash_allowed, runs",
    [
        ("none", True, True),  # your rules allow Bash: the rewritten command runs
        ("none", False, False),  # …they do not: refused, as the original would have been
        ("ask", True, False),  # -p cannot ask: every rewrite is refused
        ("ask", False, False),
        ("allow", True, True),
        ("allow", False, True),  # widens: runs although Bash is not allowed
    ],
)
def test_permission_modes_in_print_mode(client, permission, bash_allowed, runs):
    client.init("--permission", permission, "--yes")
    client.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    client.program("newtool")
    call = bash("oldtool x")
    allow = ("Bash",) if bash_allowed else ()
    session = client.run([[call]], "--permission-mode", "default", allow=allow)
    result = session.tool_result(call["id"])
    assert (result["text"] == RAN) is runs, result
    if not runs:
        assert result["is_error"]
    if permission == "ask":
        assert "oldtool → newtool" in session.shown(call["id"])
