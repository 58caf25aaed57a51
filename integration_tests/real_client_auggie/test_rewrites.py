"""dp's rules in the real ``auggie --print`` (Auggie 0.36.0), never widening what Auggie would run.

Auggie runs the input a PreToolUse hook gives back (``updatedInput``) and judges that input with its own
permission rules. Each test reads what the model was shown from the requests the fake Augment API
received, and which stand-in program really ran from the files it leaves.
"""

from __future__ import annotations

import json

from real_client_contract.harnesses import oldtool_rule

from dp.agents.auggie.fake_api import shell, tool_call

REFUSED = "\n\nPreToolUse:{tool} hook returned blocking error"


def test_a_rule_rewrites_the_command_auggie_runs_and_its_history_keeps_the_models(auggie):
    oldtool_rule(auggie)
    call = shell("oldtool -x a.txt")

    session = auggie.run([[call]])

    assert session.proc.returncode == 0, session.log
    assert "newtool ran: -x a.txt" in session.output(call)
    assert (auggie.project / "newtool-ran").exists() and not (auggie.project / "oldtool-ran").exists()
    assert session.conversation.call(call["id"])["arguments"]["command"] == "oldtool -x a.txt"
    assert "dp:" not in session.conversation.all_text  # Auggie shows the model nothing a PreToolUse hook says


def test_auggies_own_deny_rule_judges_the_rewritten_command(auggie):
    """A rewrite widens nothing: the user's rule refusing ``newtool`` refuses the rewrite of ``oldtool`` too."""
    oldtool_rule(auggie)
    settings = json.loads(auggie.settings.read_text())
    settings["toolPermissions"] = [{"toolName": "launch-process", "shellInputRegex": "^newtool",
                                    "permission": {"type": "deny"}}]
    auggie.settings.write_text(json.dumps(settings))
    call = shell("oldtool -x a.txt")

    session = auggie.run([[call]])

    assert 'Denied by explicit rule: tool-name="launch-process", shell-input-regex="^newtool"' in session.output(call)
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
