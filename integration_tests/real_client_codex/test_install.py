"""Installing dp for Codex CLI, checked by the real binary: lossless install and uninstall, hook trust
as ``dp doctor`` reports it (and as Codex acts on it), project trust, and AGENTS.md."""

from __future__ import annotations

import json

import tomllib

from dp.agents.codex import trust
from dp.agents.codex.fake_api import shell

USER_HOOKS = (b'{\n\t"hooks": {\n\t\t"PreToolUse": [\n\t\t\t{"matcher": "^Bash$", "hooks": '
              b'[{"type": "command", "command": "echo \\u00e9t\\u00e9 >> $HOME/mine.log", "timeout": 9}]}\n\t\t],\n'
              b'\t\t"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]\n\t}\n}\n')
USER_CONFIG = b'# my Codex settings\nmodel_reasoning_effort = "high"\n\n[projects."/elsewhere"]\ntrust_level = "trusted"\n'


def _doctor(codex) -> list[dict]:
    report = json.loads(codex.dp("doctor", "--json", check=False).stdout)
    return [finding for finding in report["checks"] if finding["check"] == "codex"]


def _trust_dp_hooks(codex, hooks_file) -> None:
    """Record dp's handlers as trusted the way Codex's /hooks does: ``[hooks.state."KEY"] trusted_hash``."""
    settings = json.loads(hooks_file.read_text())
    lines = [codex.config_toml.read_text() if codex.config_toml.exists() else ""]
    for event, groups in settings["hooks"].items():
        for g, group in enumerate(groups):
            for h, handler in enumerate(group["hooks"]):
                if "pave-check" in handler["command"] or "dp-capture" in handler["command"]:
                    key = trust.hook_key(hooks_file, event, g, h)
                    lines.append(f'\n[hooks.state."{key}"]\ntrusted_hash = '
                                 f'"{trust.hook_hash(event, group.get("matcher"), handler)}"\n')
    codex.config_toml.write_text("".join(lines))


def test_install_keeps_the_users_hooks_and_uninstall_gives_back_the_same_bytes(codex):
    codex.hooks_file.write_bytes(USER_HOOKS)
    codex.config_toml.write_bytes(USER_CONFIG)
    report = codex.init()
    assert report["hook"]["settings"] == str(codex.hooks_file) and report["hook"]["agent"] == "Codex CLI"

    hooks = json.loads(codex.hooks_file.read_text())["hooks"]
    assert hooks["PreToolUse"][0]["hooks"][0]["command"] == "echo été >> $HOME/mine.log"  # the user's, first
    assert hooks["PreToolUse"][1]["matcher"] == "*" and "pave-check --agent codex" in (
        hooks["PreToolUse"][1]["hooks"][0]["command"])
    assert "dp-capture --agent codex" in hooks["PostToolUse"][0]["hooks"][0]["command"]
    assert hooks["Stop"] == [{"hooks": [{"type": "command", "command": "true"}]}]
    assert codex.hooks_file.read_bytes().startswith(b'{\n\t"hooks"')  # the file's own tabs
    assert codex.config_toml.read_bytes() == USER_CONFIG  # dp never writes Codex's config

    session = codex.run([[shell("echo hi")]])  # both the user's hook and dp's run
    assert (codex.home / "mine.log").read_text() == "été\n"
    assert "hook: PreToolUse Completed" in session.log

    codex.dp("uninstall", "--yes")
    assert codex.hooks_file.read_bytes() == USER_HOOKS
    assert codex.config_toml.read_bytes() == USER_CONFIG


def test_doctor_says_untrusted_until_the_user_trusts_and_codex_runs_the_hooks_exactly_then(codex):
    codex.init()
    codex.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    codex.program("oldtool")
    codex.program("newtool")
    entries, untrusted = _doctor(codex)[:2]
    assert entries["status"] == "ok"
    assert untrusted["status"] == "warning" and "Codex skips them silently until you trust them" in untrusted["message"]
    assert "/hooks" in untrusted["fix"] and "--dangerously-bypass-hook-trust" in untrusted["fix"]

    call = shell("oldtool -x")
    before = codex.run([[call]], "-s", "workspace-write", trust=False)
    assert "oldtool ran: -x" in before.output(call)  # Codex skipped dp's untrusted hook
    assert "hook: PreToolUse" not in before.log

    _trust_dp_hooks(codex, codex.hooks_file)
    assert [finding["status"] for finding in _doctor(codex)] == ["ok", "ok"]
    after = codex.run([[call]], "-s", "workspace-write", trust=False)
    assert "newtool ran: -x" in after.output(call)  # the hash dp computed is the one Codex checks

    # A changed entry (another store) is no longer the one the user trusted: doctor says so, Codex skips it.
    codex.dp("pave", "--hook", "--agent", "codex", "--db", codex.home / "other.db")
    [_, modified] = _doctor(codex)[:2]
    assert modified["status"] == "warning" and "modified: PreToolUse" in modified["message"]
    again = codex.run([[call]], "-s", "workspace-write", trust=False)
    assert "oldtool ran: -x" in again.output(call)


def test_project_hooks_run_only_in_a_trusted_project_and_doctor_says_which(codex):
    codex.dp("init", "--agent", "codex", "--scope", "project")
    project_hooks = codex.project / ".codex" / "hooks.json"
    assert "pave-check --agent codex" in project_hooks.read_text()
    codex.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    codex.program("oldtool")
    codex.program("newtool")
    [project_trust] = [f for f in _doctor(codex) if "trusted project" in f["message"] or "trusts the project" in
                       f["message"]]
    assert project_trust["status"] == "warning" and "is not trusted" in project_trust["message"]

    call = shell("oldtool -x")
    untrusted = codex.run([[call]], "-s", "workspace-write")
    assert "oldtool ran: -x" in untrusted.output(call)  # .codex/ of an untrusted project is not loaded

    trusted = codex.run([[call]], "-s", "workspace-write", "--trust")  # Codex records the project as trusted
    assert "newtool ran: -x" in trusted.output(call)
    config = tomllib.loads(codex.config_toml.read_text())
    assert any(value.get("trust_level") == "trusted" for value in config["projects"].values())
    [project_trust] = [f for f in _doctor(codex) if "trusts the project" in f["message"]]
    assert project_trust["status"] == "ok"

    codex.dp("uninstall", "--yes")
    assert not (codex.project / ".codex").exists()  # dp created it; nothing of dp's is left


def test_dp_pave_agents_md_is_the_agents_md_codex_reads(codex):
    codex.init()
    codex.dp("alias", "--cmd", "grep", "--replace", "rg", "-m", "rg is installed here and respects .gitignore")
    (codex.project / "AGENTS.md").write_text("# House rules\n\nRun the tests before you commit.\n")
    codex.dp("pave", "--agents-md", "--include-personal", "--output", "AGENTS.md")
    session = codex.run([[shell("echo hi")]])

    assert "Run the tests before you commit." in session.opening
    assert "<!-- dp:begin -->" in session.opening and "rg is installed here and respects .gitignore" in (
        session.opening)
