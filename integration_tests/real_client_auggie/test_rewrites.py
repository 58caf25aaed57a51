"""dp's rules in the real ``auggie --print`` (Auggie 0.36.0), never widening what Auggie would run.

Auggie could run the input a PreToolUse hook gives back (``updatedInput``), but in its interactive session it
decides whether to ask the person on the call as the model wrote it, before any hook runs, so a rewritten
call could run unasked. dp refuses the call with the corrected command instead, the model reissues it, and
Auggie's own approval and permission rules judge the reissued call. Each test reads what the model was shown
from the requests the fake Augment API received, and which stand-in program really ran from the files it
leaves.
"""

from __future__ import annotations

import json

from real_client_contract.harnesses import oldtool_rule

from dp.agents.auggie.fake_api import shell, tool_call

REFUSED = "\n\nPreToolUse:{tool} hook returned blocking error"
CORRECTED = ("dp: oldtool → newtool. Run this instead:\nnewtool -x a.txt\n(dp did not run it for you: Auggie would "
             "not ask you about the rewritten command, so reissue it and Auggie's own approval applies.)")


def test_a_rules_call_is_refused_with_the_corrected_command_and_the_reissued_call_runs(auggie):
    """The rewrite never runs in place: Auggie's approval, decided on the typed call, cannot carry over to it."""
    oldtool_rule(auggie)
    first, again = shell("oldtool -x a.txt"), shell("newtool -x a.txt")

    session = auggie.run([[first], [again]])

    assert session.proc.returncode == 0, session.log
    assert session.output(first) == CORRECTED + REFUSED.format(tool="launch-process")
    assert "newtool ran: -x a.txt" in session.output(again)
    assert (auggie.project / "newtool-ran").exists() and not (auggie.project / "oldtool-ran").exists()
    # The model's history keeps both of its own calls, as it wrote them: nothing was changed behind its back.
    assert session.conversation.call(first["id"])["arguments"]["command"] == "oldtool -x a.txt"
    assert session.conversation.call(again["id"])["arguments"]["command"] == "newtool -x a.txt"


def test_auggies_own_deny_rule_judges_the_reissued_command(auggie):
    """A rewrite widens nothing: the user's rule refusing ``newtool`` refuses the call the model reissues."""
    oldtool_rule(auggie)
    settings = json.loads(auggie.settings.read_text())
    settings["toolPermissions"] = [{"toolName": "launch-process", "shellInputRegex": "^newtool",
                                    "permission": {"type": "deny"}}]
    auggie.settings.write_text(json.dumps(settings))
    first, again = shell("oldtool -x a.txt"), shell("newtool -x a.txt")

    session = auggie.run([[first], [again]])

    assert session.output(first).startswith(CORRECTED), session.output(first)
    denied = session.output(again)
    assert 'Denied by explicit rule: tool-name="launch-process", shell-input-regex="^newtool"' in denied, denied
    assert not (auggie.project / "newtool-ran").exists() and not (auggie.project / "oldtool-ran").exists()


def test_a_made_up_tool_name_is_refused_with_the_right_one_before_auggie_rejects_it(auggie):
    auggie.init()
    auggie.dp("alias", "--force", "view_file", "Read")
    call = tool_call("view_file", {"path": "README.md"})

    session = auggie.run([[call]])

    assert session.output(call) == ("view_file is not a valid tool. Use view instead."
                                    + REFUSED.format(tool="view_file"))
    assert json.loads(auggie.dp("desires", "--json").stdout) == []


def test_hooks_run_only_where_augments_service_enables_them(auggie):
    """The feature flag ``enable_hooks`` comes from Augment's service with the models: without it, dp's hook
    (like any other) never runs and the command runs as the model typed it."""
    oldtool_rule(auggie)
    call = shell("oldtool -x a.txt")

    session = auggie.run([[call]], hooks=False)

    assert "oldtool ran: -x a.txt" in session.output(call)
    assert (auggie.project / "oldtool-ran").exists() and not (auggie.project / "newtool-ran").exists()


def test_what_a_session_start_hook_says_never_reaches_the_model(auggie):
    """Why dp installs no SessionStart hook in Auggie: 0.36.0 runs it and drops its answer, JSON or plain."""
    said = auggie.root / "session-start-ran"
    hook = auggie.program("session-start", f'touch "{said}"; echo "PLAIN-CORRECTIONS"; '
                          'echo \'{"hookSpecificOutput": {"hookEventName": "SessionStart", '
                          '"additionalContext": "JSON-CORRECTIONS"}}\'')
    auggie.settings.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [{"type": "command",
                                                                                   "command": str(hook)}]}]}}))
    session = auggie.run([[shell("echo hi")]])

    assert said.exists(), session.log
    assert "CORRECTIONS" not in json.dumps(session.fake.main_requests)


def test_auggie_will_not_start_a_session_without_an_augment_sign_in(auggie):
    session = auggie.run([[shell("echo hi")]], signed_in=False)

    assert session.proc.returncode == 1
    assert "No auth provided. Please log in with `auggie login` or set the AUGMENT_SESSION_AUTH" in session.log
    assert session.fake.requests == []
