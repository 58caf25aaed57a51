"""A rule never points the agent at a program that is not there.

`dp alias --cmd find --replace fd` on a machine without `fd` would turn every working `find`
into `fd: command not found`. The hook leaves such a command as typed (and says why under
--verbose), `dp alias` warns when it sets the rule, `dp doctor` names the rule and the fix.
The PATHs here are real directories of real symlinks; the hook inherits PATH from the agent.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hook_support import BIN, dp_alias, isolated_env, programs_dir

FIND = "find . -name '*.py' -type f"
FD = "fd --type f --hidden --no-ignore --case-sensitive --glob '*.py' ."


def hook(env, command: str, *options: str, cwd: str = "/tmp"):
    payload = {"session_id": "s1", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": command}}
    proc = subprocess.run([str(BIN / "pave-check"), *options], input=json.dumps(payload), capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    output = json.loads(proc.stdout) if proc.stdout else None
    updated = output["hookSpecificOutput"].get("updatedInput") if output else None
    return (updated or {}).get("command"), proc.stderr


@pytest.fixture
def setup(tmp_path):
    """A store with find → fd and a recipe running `gt`, and an agent PATH holding neither."""
    env = isolated_env(tmp_path)
    for rule in (["--cmd", "find", "--replace", "fd"],
                 ["--recipe", "gt convoy wait", "gt convoy status {{ arg(1) }} --watch"]):
        assert dp_alias(env, *rule).returncode == 0
    agent_bin = programs_dir(tmp_path / "agent-bin", find="find", ls="ls")
    env["PATH"] = str(agent_bin)
    return env, agent_bin


def test_a_command_rule_to_a_missing_program_leaves_the_command_as_typed(setup):
    env, agent_bin = setup
    assert hook(env, FIND) == (None, "")


def test_verbose_says_why_on_stderr(setup):
    env, _ = setup
    command, stderr = hook(env, FIND, "--verbose")
    assert command is None
    assert "find left as typed: fd is not on PATH" in stderr


def test_once_the_program_is_installed_the_rule_acts(setup):
    env, agent_bin = setup
    assert hook(env, FIND)[0] is None
    (agent_bin / "fd").symlink_to(os.path.realpath(agent_bin / "find"))  # installing changes the directory
    assert hook(env, FIND)[0] == FD


def test_the_answer_is_kept_per_path_and_directory_mtimes(setup, tmp_path):
    """A cached answer is used while PATH's directories are unchanged, and only then."""
    env, agent_bin = setup
    assert hook(env, FIND)[0] is None
    before = os.stat(agent_bin)
    (agent_bin / "fd").symlink_to(os.path.realpath(agent_bin / "find"))
    os.utime(agent_bin, ns=(before.st_atime_ns, before.st_mtime_ns))  # the stamp cannot see the change
    assert hook(env, FIND)[0] is None, "the cached answer was not used"
    os.utime(agent_bin)  # now it can
    assert hook(env, FIND)[0] == FD
    cached = [name for name in os.listdir(tmp_path / "cache" / "dp") if name.startswith("programs-")]
    assert cached, "the answers live in dp's cache directory"


def test_another_path_is_asked_on_its_own(setup, tmp_path):
    env, _ = setup
    assert hook(env, FIND)[0] is None
    with_fd = programs_dir(tmp_path / "other-bin", fd="find")
    assert hook({**env, "PATH": f"{with_fd}:{env['PATH']}"}, FIND)[0] == FD
    assert hook(env, FIND)[0] is None


def test_a_call_no_rule_rewrites_pays_no_lookup(setup, tmp_path):
    env, _ = setup
    cache = tmp_path / "cache" / "dp"
    for name in os.listdir(cache) if cache.exists() else ():
        if name.startswith("programs-"):
            os.remove(cache / name)  # what `dp alias` looked up when it set the rules
    assert hook(env, "ls -la && git status")[0] is None
    assert hook(env, "find . -name x", "--agent", "claude", cwd=str(tmp_path))[0] is None  # asks: fd is a target
    assert len([name for name in os.listdir(cache) if name.startswith("programs-")]) == 1
    os.remove(cache / next(name for name in os.listdir(cache) if name.startswith("programs-")))
    assert hook(env, "ls -la && git status")[0] is None
    assert hook(env, "echo find")[0] is None  # a rule's word, but not a command: no rule acts
    assert not [name for name in os.listdir(cache) if name.startswith("programs-")]


def test_a_recipe_whose_program_is_missing_is_not_used(setup, tmp_path):
    env, agent_bin = setup
    command, stderr = hook(env, "gt convoy wait abc", "--verbose")
    assert command is None
    assert "gt is not on PATH" in stderr
    (agent_bin / "gt").symlink_to(os.path.realpath(agent_bin / "ls"))
    assert hook(env, "gt convoy wait abc")[0] == "gt convoy status abc --watch"


def test_a_recipe_checks_every_program_of_its_script_but_not_builtins_or_its_functions(tmp_path):
    env = isolated_env(tmp_path)
    script = "w() { sleep 1; }; while ! gt mol status | rg -q signaled; do w; done; echo done"
    assert dp_alias(env, "--recipe", "gt await", script).returncode == 0
    env["PATH"] = str(programs_dir(tmp_path / "bin", gt="true", sleep="sleep"))
    command, stderr = hook(env, "gt await", "--verbose")
    assert command is None and "rg is not on PATH" in stderr
    programs_dir(tmp_path / "bin", rg="true")
    assert hook(env, "gt await")[0] == script


def test_a_target_given_by_path_must_be_an_executable_file(tmp_path):
    env = isolated_env(tmp_path)
    real = programs_dir(tmp_path / "tools", rg="true")
    assert dp_alias(env, "--cmd", "ag", "--replace", str(tmp_path / "nowhere" / "rg")).returncode == 0
    assert dp_alias(env, "--cmd", "ack", "--replace", str(real / "rg")).returncode == 0
    env["PATH"] = str(programs_dir(tmp_path / "bin", ls="ls"))
    command, stderr = hook(env, "ag foo", "--verbose")
    assert command is None and f"{tmp_path / 'nowhere' / 'rg'} is not an executable file" in stderr
    assert hook(env, "ack foo")[0] == f"{real / 'rg'} foo"


# -- dp alias ----------------------------------------------------------------------------------


def test_dp_alias_warns_when_the_program_is_missing_and_still_sets_the_rule(tmp_path):
    env = isolated_env(tmp_path)
    env["PATH"] = str(programs_dir(tmp_path / "bin", find="find"))
    proc = dp_alias(env, "--cmd", "find", "--replace", "fd")
    assert proc.returncode == 0
    assert proc.stdout == "Rule set: command find -> fd\n"
    warning = proc.stderr
    assert "fd is not on PATH" in warning
    assert "the hook leaves find commands as typed" in warning  # what happens meanwhile
    assert "install fd" in warning and "dp alias --delete --cmd find --replace fd" in warning  # how to fix it
    listed = subprocess.run([str(BIN / "dp"), "aliases", "--json"], capture_output=True, text=True, env=env)
    assert [rule["to_name"] for rule in json.loads(listed.stdout)] == ["fd"]


def test_dp_alias_says_nothing_about_a_program_that_is_there(tmp_path):
    env = isolated_env(tmp_path)
    env["PATH"] = str(programs_dir(tmp_path / "bin", find="find", fd="find"))
    proc = dp_alias(env, "--cmd", "find", "--replace", "fd")
    assert (proc.returncode, proc.stderr) == (0, "")


def test_dp_alias_warns_about_a_recipe_whose_program_is_missing(tmp_path):
    env = isolated_env(tmp_path)
    env["PATH"] = str(programs_dir(tmp_path / "bin", ls="ls"))
    proc = dp_alias(env, "--recipe", "gt convoy wait", "gt convoy status {{ arg(1) }} | rg -q done")
    assert proc.returncode == 0
    assert "gt, rg" in proc.stderr and "not on PATH" in proc.stderr


# -- dp doctor ---------------------------------------------------------------------------------


def doctor(env) -> str:
    proc = subprocess.run([str(BIN / "dp"), "doctor"], capture_output=True, text=True, env=env, timeout=120)
    return proc.stdout + proc.stderr


def test_doctor_names_a_rule_whose_program_is_missing_and_the_fix(tmp_path):
    env = isolated_env(tmp_path)
    assert dp_alias(env, "--cmd", "find", "--replace", "fd").returncode == 0
    env["PATH"] = str(programs_dir(tmp_path / "bin", find="find"))
    report = doctor(env)
    line = next((line for line in report.splitlines() if "fd is not on PATH" in line), "")
    assert line.startswith("warn") and "find → fd" in line, report
    assert "dp alias --delete --cmd find --replace fd" in report
    env["PATH"] = str(programs_dir(tmp_path / "bin", fd="find"))
    assert "not on PATH" not in doctor(env)


def test_doctor_does_not_warn_about_a_rule_suggest_made_on_evidence(tmp_path):
    """`python → python3` from `dp suggest --apply`: python failed, python3 then worked."""
    env = isolated_env(tmp_path)
    env["PATH"] = str(programs_dir(tmp_path / "bin", python3=sys.executable))
    capture = str(BIN / "dp-capture")
    events = [("python x.py", "Exit code 127\n/bin/bash: line 1: python: command not found", "PostToolUseFailure"),
              ("python3 x.py", None, "PostToolUse")]
    for session in ("a", "b"):
        for number, (command, error, event) in enumerate(events):
            payload = {"session_id": session, "hook_event_name": event, "tool_name": "Bash", "cwd": str(tmp_path),
                       "tool_input": {"command": command}, "tool_use_id": f"{session}{number}"}
            payload.update({"error": error} if error else {"tool_response": {"stdout": "ok", "stderr": ""}})
            subprocess.run([capture], input=json.dumps(payload), text=True, env=env, check=True, timeout=60)
    found = json.loads(subprocess.run([str(BIN / "dp"), "suggest", "--json"], capture_output=True, text=True,
                                      env=env, check=True).stdout)
    assert [item["alias"] for item in found] == [["--cmd", "python", "--replace", "python3"]]
    applied = subprocess.run([str(BIN / "dp"), "suggest", "--apply", found[0]["id"], "--act"], capture_output=True,
                             text=True, env=env)
    assert (applied.returncode, applied.stderr) == (0, "")
    report = doctor(env)
    assert not [line for line in report.splitlines() if line.startswith("warn") and "python" in line], report
    assert "ok     rules" in report
