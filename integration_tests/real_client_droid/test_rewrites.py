"""dp's rules in the real ``droid exec`` (Factory Droid 0.225.2), never widening what Droid would run.

Droid merges a hook's ``updatedInput`` into the call, drops the model's risk level when the command
changed and judges the new command itself: at ``--auto high`` it runs, below it ends the run. So dp
rewrites in place only at ``--auto high`` and refuses with the corrected command elsewhere (the shared
contract's sessions, ``--auto low``). Each test reads what the model was shown from the requests the
fake model received, and what ran from the files the stand-in programs leave.
"""

from __future__ import annotations

import json

from real_client_contract.harnesses import oldtool_rule

from dp.live.openai_compat import tool_call
from real_client_droid.droid_support import USER_SETTINGS, execute


def test_at_auto_high_the_rewritten_command_runs_in_place_and_the_model_keeps_its_own_call(droid):
    oldtool_rule(droid)
    call = execute("oldtool -x a.txt")

    session = droid.run([[call]], auto="high")

    assert session.result["is_error"] is False, session.log
    assert session.output(call).startswith("newtool ran: -x a.txt\n"), session.output(call)
    assert (droid.project / "newtool-ran").exists() and not (droid.project / "oldtool-ran").exists()
    assert session.conversation.call(call["id"])["arguments"]["command"] == "oldtool -x a.txt"
    assert "dp:" not in session.shown(call)  # 0.225.2 drops PreToolUse additionalContext: the model is not told


def test_below_auto_high_the_rewrite_is_refused_with_the_correction_and_the_run_goes_on(droid):
    """A rewritten command would end ``droid exec --auto medium`` ("insufficient permission"): dp refuses
    instead, and the command the model reissues with its own risk level runs."""
    oldtool_rule(droid)
    first, again = execute("oldtool -x a.txt"), execute("newtool -x a.txt")

    session = droid.run([[first], [again]], auto="medium")

    assert session.result["is_error"] is False, session.log
    refused = session.output(first)
    assert refused.startswith("Error: dp: oldtool → newtool. Run this instead:\nnewtool -x a.txt\n"), refused
    assert session.output(again).startswith("newtool ran: -x a.txt"), session.output(again)
    assert not (droid.project / "oldtool-ran").exists()


def test_a_rewrite_never_passes_the_users_own_command_block_list(droid):
    """Droid checks its block list again on the command a hook returned: a rule rewriting into a command
    the user blocked gets Droid's refusal, the same as when the model types that command."""
    settings = json.loads(USER_SETTINGS)
    droid.settings.write_text(json.dumps({**settings, "commandBlocklist": ["newtool"]}, indent=4) + "\n")
    oldtool_rule(droid)
    rewritten, typed = execute("oldtool -x a.txt"), execute("newtool -x a.txt")

    session = droid.run([[rewritten], [typed]], auto="high")

    for call in (rewritten, typed):
        assert session.output(call).startswith("Error: This command is blocked by your organization's security "
                                               'policy and can never be run (matched blocked-command rule "newtool")')
    assert not (droid.project / "newtool-ran").exists() and not (droid.project / "oldtool-ran").exists()


def test_only_the_calls_rules_concern_start_the_hook(droid):
    """dp's PreToolUse groups name Execute commands by their words (``commandRegex``) and the tools other rules
    are about: Droid's own record of the hooks it ran (its session file) shows pave-check started for the
    rule's command and the aliased name only, not for ordinary commands or a word merely containing the rule's."""
    oldtool_rule(droid)
    droid.dp("alias", "view_file", "Read")
    ordinary = [execute(command) for command in ("ls", "echo hi", "git status", "pwd", "cat a.txt", "xoldtool -v",
                                                  "echo oldtool_x")]
    concerned = [execute("cd . && oldtool -x a.txt"), execute("echo oldtool")]
    made_up = tool_call("view_file", {"path": "a.txt"})
    (droid.project / "a.txt").write_text("a\n")
    droid.program("xoldtool")

    droid.run([[call] for call in [*ordinary, *concerned, made_up]], auto="high")

    started = hooked_calls(droid, "PreToolUse")
    assert started == {call["id"] for call in [*concerned, made_up]}, started


def hooked_calls(droid, event: str) -> set:
    """The call ids Droid ran a hook of ``event`` for, as its session file records them."""
    ids = set()
    for path in droid.sessions():
        for line in path.read_text().splitlines():
            message = json.loads(line).get("message") or {}
            if message.get("hookEventName") == event and message.get("hookCommands"):
                ids.add(message.get("hookToolCallId"))
    return ids
