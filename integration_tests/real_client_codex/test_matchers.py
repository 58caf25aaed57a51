"""Which calls start a dp process in the real Codex CLI (0.169.0).

Codex reads a matcher of letters, digits, ``_`` and ``|`` as exact names (``Bash``, ``Bash|Edit``; not
``Bas``), anything else as a regular expression searched in the name (``^Bash$``), ``*`` or none as every
tool. dp keeps ``*`` there: Codex's trust is a hash that covers the matcher (dp/agents/codex/trust.py),
so a matcher recomputed on each rule change would silently un-trust dp's hooks. It costs nothing in
0.169.0, where only the shell (as ``Bash``) reaches a hook: a recording wrapper in place of dp's programs
shows a made-up tool name and Codex's own ``update_plan`` and ``apply_patch`` (``unsupported call`` under
the fake model's fallback metadata) starting no dp process at all."""

from __future__ import annotations

from recording_hooks import record, started

from dp.agents.codex.fake_api import function_call, shell


def test_only_shell_calls_reach_codexs_hooks_so_every_tool_matcher_starts_dp_for_them_alone(codex):
    codex.init()
    codex.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    codex.program("newtool")
    logs = record(codex.hooks_file, codex.root)
    calls = [function_call("read_file", {"path": "a.txt"}), function_call("update_plan", {"plan": []}),
             function_call("apply_patch", {"input": "*** Begin Patch\n*** End Patch\n"}), shell("oldtool --flag")]

    session = codex.run([[call] for call in calls], "-s", "workspace-write")

    assert started(logs["pave-check"]) == [("PreToolUse", "Bash")]
    assert started(logs["dp-capture"]) == [("PostToolUse", "Bash")]
    assert session.output(calls[0]) == "unsupported call: read_file"
    assert "newtool ran: --flag" in session.output(calls[-1])
