"""dp's hooks in Copilot CLI's hooks files: installed, re-synced, removed and checked without touching
anything of the user's — their own entries (in Copilot's flat camelCase form) and their formatting,
other hooks files beside dp's, a dp.json that is a symlink into a dotfiles repository."""

from __future__ import annotations

import json

from cli_assertions import assert_one_line_error
from hook_support import BIN

USERS_OWN = (b'{\r\n\t"version": 1,\r\n\t"hooks": {\r\n\t\t"preToolUse": [\r\n\t\t\t{"type": "command", '
             b'"bash": "./scripts/guard.sh", "timeoutSec": 10}\r\n\t\t]\r\n\t}\r\n}\r\n')


def _hooks(path) -> dict:
    return json.loads(path.read_text())["hooks"]


def _commands(path) -> dict:
    """event → the commands of dp's nested groups (the user's flat entries have none)."""
    return {event: [hook["command"] for group in groups for hook in group.get("hooks", [])]
            for event, groups in _hooks(path).items()}


def test_init_writes_dps_own_hooks_file_with_every_event_failing_open(dp, home, tmp_path):
    (home / ".copilot" / "hooks").mkdir(parents=True)
    theirs = home / ".copilot" / "hooks" / "theirs.json"
    theirs.write_bytes(USERS_OWN)
    proc = dp("init", "--agent", "copilot", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["demo"]["ok"] and report["demo"]["block"]["message"] == (
        "read_file is not a valid tool. Use view instead, with path (not file_path).")
    assert report["hook"]["agent"] == "Copilot CLI" and report["hook"]["hook"] == "preToolUse"
    assert report["hook"]["events"] == ["sessionStart", "preToolUse"]

    path = home / ".copilot" / "hooks" / "dp.json"
    commands = _commands(path)
    assert set(commands) == {"sessionStart", "preToolUse", "postToolUseFailure", "postToolUse"}
    for event, [command] in commands.items():
        program = "dp-capture" if event.startswith("post") else "pave-check"
        assert f"/{program} --agent copilot" in command and command.endswith(" || true"), command
    # pave-check for the shell and the names dp's rules can act on, unknown ones included (issue 52)
    assert [group.get("matcher") for group in _hooks(path)["preToolUse"]] == ["^(bash)$"]
    assert theirs.read_bytes() == USERS_OWN


def test_project_scope_keeps_the_users_own_entries_and_uninstall_gives_back_the_same_bytes(dp, home, tmp_path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / ".github" / "hooks").mkdir(parents=True)
    path = project / ".github" / "hooks" / "dp.json"
    path.write_bytes(USERS_OWN)

    proc = dp("pave", "--hook", "--agent", "copilot", "--scope", "project", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "Installed the dp preToolUse hook in" in proc.stdout and "sessionStart" in proc.stdout
    hooks = _hooks(path)
    assert hooks["preToolUse"][0] == {"type": "command", "bash": "./scripts/guard.sh", "timeoutSec": 10}
    dp_command = hooks["preToolUse"][1]["hooks"][0]["command"]
    assert "/pave-check --agent copilot --db " in dp_command and dp_command.endswith(" || true")
    assert b"\r\n\t\t" in path.read_bytes()  # the user's tabs and line endings

    again = dp("pave", "--hook", "--agent", "copilot", "--scope", "project", cwd=project)
    assert "already installed" in again.stdout

    proc = dp("uninstall", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert path.read_bytes() == USERS_OWN


def test_uninstall_takes_out_both_scopes_and_deletes_the_file_dp_created(dp, home, tmp_path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    for args in (["init", "--agent", "copilot"], ["pave", "--hook", "--agent", "copilot", "--scope", "project"]):
        assert dp(*args, cwd=project).returncode == 0
    user_file = home / ".copilot" / "hooks" / "dp.json"
    assert user_file.exists() and (project / ".github" / "hooks" / "dp.json").exists()

    proc = dp("uninstall", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert not user_file.exists() and not (project / ".github").exists()


def test_a_symlinked_hooks_file_is_written_through_the_link(dp, home, tmp_path):
    dotfiles = tmp_path / "dotfiles" / "copilot-dp.json"
    dotfiles.parent.mkdir()
    dotfiles.write_bytes(USERS_OWN)
    (home / ".copilot" / "hooks").mkdir(parents=True)
    link = home / ".copilot" / "hooks" / "dp.json"
    link.symlink_to(dotfiles)
    assert dp("pave", "--hook", "--agent", "copilot", cwd=tmp_path).returncode == 0
    assert link.is_symlink() and "pave-check --agent copilot" in dotfiles.read_text()
    assert dp("pave", "--unhook", "--agent", "copilot", cwd=tmp_path).returncode == 0
    assert link.is_symlink() and dotfiles.read_bytes() == USERS_OWN


def test_a_hooks_file_dp_cannot_read_exactly_is_left_alone(dp, home, tmp_path):
    (home / ".copilot" / "hooks").mkdir(parents=True)
    path = home / ".copilot" / "hooks" / "dp.json"
    path.write_bytes(b'{"hooks": {"preToolUse": [}')
    proc = dp("pave", "--hook", "--agent", "copilot", cwd=tmp_path)
    assert_one_line_error(proc, "is not valid JSON")
    assert path.read_bytes() == b'{"hooks": {"preToolUse": [}'


def test_permission_allow_is_refused_for_copilot(dp, home, tmp_path):
    proc = dp("pave", "--hook", "--agent", "copilot", "--permission", "allow", "--yes", cwd=tmp_path)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "dp: error: --permission allow is not available for Copilot CLI: use none or ask" in proc.stderr
    assert not (home / ".copilot").exists()


def test_doctor_flags_an_entry_that_would_deny_every_call(dp, home, tmp_path):
    assert dp("init", "--agent", "copilot", cwd=tmp_path).returncode == 0
    path = home / ".copilot" / "hooks" / "dp.json"
    path.write_text(path.read_text().replace(" || true", ""))
    report = json.loads(dp("doctor", "--json", cwd=tmp_path).stdout)
    lines = [check for check in report["checks"] if check["check"] == "copilot"]
    warnings = [check["message"] for check in lines if check["status"] == "warning"]
    assert len(warnings) == 4 and all("does not end in '|| true'" in message for message in warnings)
    assert any("user hooks (~/.copilot/hooks/) load in every session" in check["message"] for check in lines)

    path.write_text(path.read_text().replace(str(BIN / "pave-check"), str(tmp_path / "gone" / "pave-check")))
    errors = [check for check in json.loads(dp("doctor", "--json", cwd=tmp_path).stdout)["checks"]
              if check["check"] == "copilot" and check["status"] == "error"]
    assert len(errors) == 2 and all("does not exist or is not executable" in check["message"] for check in errors)


def _npm_copilot(root, version: str):
    """A Copilot CLI as npm installs it: the loader in node_modules/@github/copilot with its package.json,
    and `copilot` in node_modules/.bin linking to it (dp reads the version there, never runs it)."""
    package = root / "node_modules" / "@github" / "copilot"
    package.mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": "@github/copilot", "version": version}))
    loader = package / "npm-loader.js"
    loader.write_text("#!/usr/bin/env node\n")
    loader.chmod(0o755)
    (root / "node_modules" / ".bin").mkdir()
    (root / "node_modules" / ".bin" / "copilot").symlink_to(loader)
    return root / "node_modules" / ".bin" / "copilot"


def test_a_copilot_older_than_1_0_24_gets_refusals_with_the_corrected_command(dp, pave_check, home, tmp_path):
    """Before 1.0.24 Copilot's preToolUse ignores `modifiedArgs` (its changelog): a rewrite would let the
    original run, so dp installs `--mode advise` there, and leaves a current Copilot rewriting."""
    old = {"DP_COPILOT": str(_npm_copilot(tmp_path / "old", "1.0.23"))}
    assert dp("init", "--agent", "copilot", "--json", cwd=tmp_path, extra_env=old).returncode == 0
    dp("alias", "--cmd", "grep", "--replace", "rg", extra_env=old)
    [command] = _commands(home / ".copilot" / "hooks" / "dp.json")["preToolUse"]
    assert " --agent copilot " in command and command.endswith(" --mode advise || true"), command
    payload = {"sessionId": "s1", "timestamp": 1, "cwd": str(tmp_path), "toolName": "bash",
               "toolArgs": {"command": "grep -n TODO app.py", "description": "find"}}
    argv = command.removesuffix(" || true").split()
    answered = json.loads(pave_check(payload, *argv[argv.index("--agent"):]).stdout)
    assert answered["permissionDecision"] == "deny" and "modifiedArgs" not in answered
    assert "Run this instead:\nrg -n TODO app.py" in answered["permissionDecisionReason"]

    current = {"DP_COPILOT": str(_npm_copilot(tmp_path / "current", "1.0.102"))}
    dp("alias", "--cmd", "sed", "--replace", "sd", extra_env=current)  # a rule change re-syncs the entries
    [command] = _commands(home / ".copilot" / "hooks" / "dp.json")["preToolUse"]
    assert " --agent copilot " in command and "--mode" not in command and command.endswith(" || true"), command
