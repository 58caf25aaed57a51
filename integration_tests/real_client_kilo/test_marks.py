"""What is Kilo Code's alone (7.7.7): the commands it starts carry OpenCode's marks (``OPENCODE=1``, ``AGENT=1``)
and its own ``KILO_PID``, so a dp command a Kilo tool call starts knows it runs inside Kilo Code, not OpenCode
(``Agent.marks_like``), and a command that widens what dp does refuses there, naming Kilo. Everything Kilo
shares with OpenCode is proven by the shared contract (real_client_contract/, its harness ``like`` OpenCode's).
"""

from __future__ import annotations

from agent_home import BIN
from plugin_users import bash


def test_a_dp_command_inside_a_kilo_tool_call_knows_it_is_kilos(kilo):
    kilo.init()
    kilo.program("setup", f"{BIN / 'dp'} trust; env")  # a script the call runs: the hook sees no dp in the call
    call = bash("setup")

    session = kilo.run([[call]])

    result = session.result(call)
    assert "inside Kilo Code's tool call (KILO_PID=" in result, result
    assert "\nOPENCODE=1\n" in result and "\nAGENT=1\n" in result, result
