"""Capture, the answer after a failure, lossless install and uninstall and dp doctor, in the real
``auggie --print`` (Auggie 0.36.0)."""

from __future__ import annotations

import json

import learned_answers as story

from dp.agents.auggie.fake_api import shell

NOTE = f"dp: this failure has a known answer. {story.WHY} {story.ANSWER}"


def test_a_failing_command_is_captured_as_auggies_with_its_exit_code(auggie):
    auggie.init()
    failing, fine = shell("ls /no-such-dir-for-dp"), shell("echo fine")

    session = auggie.run([[failing], [fine]])

    assert "<return-code>\n2\n</return-code>" in session.output(failing)
    [desire] = json.loads(auggie.dp("desires", "--json").stdout)
    assert (desire["tool_name"], desire["source"]) == ("Bash", "auggie")
    assert desire["tool_input"]["command"] == "ls /no-such-dir-for-dp"
    assert desire["error_class"] == "no such file" and desire["error"].startswith("Exit code 2\n")


def test_a_learned_answer_is_appended_to_the_failed_calls_result_once_per_session(auggie):
    story.setup(auggie)
    session, first, second = story.learn_then_fail_twice(
        auggie, lambda calls: auggie.run([[call] for call in calls]), shell)

    result = session.output(first)
    assert result.endswith("[Hook Context]\n" + NOTE), result
    story.told_once(result, session.output(second), session.conversation.all_text)


def test_install_keeps_the_users_settings_and_uninstall_gives_back_the_same_bytes(auggie):
    original = auggie.settings.read_bytes()
    report = auggie.init()
    assert report["hook"]["settings"] == str(auggie.settings) and report["hook"]["agent"] == "Auggie"

    settings = json.loads(auggie.settings.read_text())
    assert settings["model"] == "fake-model" and settings["indexingAllowDirs"] == ["/tmp/été"]
    hooks = settings["hooks"]
    assert sorted(hooks) == ["PostToolUse", "PreToolUse"]
    assert hooks["PreToolUse"][0]["matcher"] == ".*"
    assert "pave-check --agent auggie" in hooks["PreToolUse"][0]["hooks"][0]["command"]
    assert "dp-capture --agent auggie" in hooks["PostToolUse"][0]["hooks"][0]["command"]

    session = auggie.run([[shell("echo hi")]])
    assert session.proc.returncode == 0, session.log

    auggie.dp("uninstall", "--yes")
    assert auggie.settings.read_bytes() == original


def test_dp_doctor_checks_the_installed_hook_with_a_sample_call_in_auggies_json(auggie):
    auggie.init()
    report = json.loads(auggie.dp("doctor", "--json", check=False).stdout)
    installed = next(finding for finding in report["checks"]
                     if finding["message"].startswith("installed in Auggie, user"))
    assert installed["status"] == "ok" and "a sample call took" in installed["message"]
