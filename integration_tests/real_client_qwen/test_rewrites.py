"""dp's rules in the real ``qwen -p`` (Qwen Code 0.24.4), never widening what Qwen would run.

Qwen Code's PreToolUse runs no ``updatedInput``, so every rewrite is a refusal carrying the
corrected command: the model reads it as the call's result, reissues the command, and Qwen's
own approval judges what really runs. Each test reads what the model was shown from the
requests the fake model received.
"""

from __future__ import annotations

from real_client_contract.harnesses import oldtool_rule

from dp.live.openai_compat import shell, tool_call


def test_qwens_own_approval_comes_first_and_dp_grants_nothing(qwen):
    """PreToolUse fires only for a call Qwen already approved: in `-p` with the default approval mode a
    shell command is declined before any hook runs, the original and the corrected one alike."""
    oldtool_rule(qwen)
    first, again = shell("oldtool -x a.txt"), shell("newtool -x a.txt")
    session = qwen.run([[first], [again]], approval="default")

    for call in (first, again):
        assert session.output(call).startswith('Qwen Code requires permission to use "run_shell_command"')
    assert "dp:" not in session.output(first)
    assert not (qwen.project / "newtool-ran").exists() and not (qwen.project / "oldtool-ran").exists()


def test_a_made_up_tool_name_is_rejected_by_qwen_and_corrected_right_after(qwen):
    qwen.init()
    qwen.dp("alias", "--force", "view_file", "read_file")
    call = tool_call("view_file", {"path": "README.md"})
    session = qwen.run([[call]])

    shown = session.output(call)
    assert shown.startswith('Tool "view_file" not found in registry.'), shown
    assert shown.endswith("dp: view_file is not a valid tool. Use read_file instead."), shown


def test_session_start_states_the_corrections_in_qwens_tool_names(qwen):
    qwen.init()
    qwen.dp("alias", "--force", "view_file", "Read")
    qwen.dp("alias", "--cmd", "grep", "--replace", "rg")
    session = qwen.run([[shell("echo hi")]])

    opening = session.opening
    assert "dp (desire paths) corrections on this machine" in opening
    assert "Do NOT call `view_file`. Use `read_file` instead." in opening  # Read, as Qwen names it
    assert "Use `rg` instead of `grep`" in opening
