"""Which calls start a dp process in the real Copilot CLI (1.0.102): its preToolUse matcher is a regular
expression the whole tool name must match, tried on the name as the model wrote it, an unknown one too
(observed: ``bash`` matches ``bash``, not ``Bash`` or ``bas``; ``*`` matches nothing; no matcher, every
tool). dp names only the tools it can act on (dp.agents.matchers), so a recording wrapper in place of
dp's programs shows a ``view`` call starting no pave-check, while the rule still rewrites the shell call
and a tool-name alias still blocks a made-up name before Copilot fails it."""

from __future__ import annotations

from recording_hooks import record, started

from dp.agents.claude.fake_api import shell, tool_use


def test_a_call_of_a_tool_no_rule_names_starts_no_pave_check_and_the_rules_still_act(copilot):
    copilot.init("--agent", "copilot")
    copilot.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    copilot.dp("alias", "read_file", "Read")
    copilot.program("newtool")
    (copilot.project / "notes.txt").write_text("x marks the spot\n")
    logs = record(copilot.user_hooks / "dp.json", copilot.root)
    view = tool_use("view", {"path": str(copilot.project / "notes.txt")})
    old, made_up = shell("oldtool --flag"), tool_use("read_file", {"path": "notes.txt"})

    session = copilot.run([[view], [old], [made_up]])

    assert started(logs["pave-check"]) == [("", "bash"), ("", "read_file")]  # no view
    assert ("", "view") in started(logs["dp-capture"])  # capture records every call
    assert "x marks the spot" in session.tool_result(view["id"])["text"]
    assert session.tool_result(old["id"])["text"].startswith("newtool ran: --flag")
    assert session.tool_result(made_up["id"])["text"] == (
        "Denied by preToolUse hook: read_file is not a valid tool. Use view instead.")
