"""Paving, capture, failing open and the corrections up front, in the real ``codex exec``."""

from __future__ import annotations

import json

from dp.agents.codex.fake_api import shell


def test_npm_install_in_a_pnpm_project_runs_as_pnpm_install(codex):
    codex.init()  # paving is on by default: no rule written by hand
    (codex.project / "package.json").write_text(json.dumps({"name": "app", "scripts": {"build": "tsc"}}))
    (codex.project / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    (codex.project / "node_modules" / ".bin").mkdir(parents=True)
    codex.program("pnpm")
    codex.program("npm")
    install = shell("npm install")
    session = codex.run([[install]], "-s", "workspace-write")

    assert session.proc.returncode == 0, session.log
    assert "pnpm ran: install" in session.output(install)
    assert "ran `pnpm install` instead of `npm install`" in session.conversation.context(install["call_id"])
    assert not (codex.project / "package-lock.json").exists()


def test_a_failing_command_shows_up_in_dp_desires_with_codex_as_its_source(codex):
    codex.init()
    failing, fine = shell("ls /no-such-dir-for-dp"), shell("echo fine")
    session = codex.run([[failing], [fine]], "-s", "workspace-write")
    assert "Process exited with code 2" in session.output(failing)

    desires = json.loads(codex.dp("desires", "--json").stdout)
    assert len(desires) == 1, desires  # the successful call is stored as a shape, not a desire
    [desire] = desires
    assert desire["tool_name"] == "Bash"
    assert desire["source"] == "codex"
    assert desire["tool_input"] == {"command": "ls /no-such-dir-for-dp"}
    assert desire["error"].startswith("Exit code 2\n")
    assert "No such file or directory" in desire["error"]
    assert desire["error_class"] == "no such file"


def test_a_corrupt_store_fails_open_and_every_call_runs_as_typed(codex):
    codex.init()
    codex.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    codex.program("oldtool")
    codex.program("newtool")
    for name in ("dp.db-wal", "dp.db-shm"):
        (codex.store.parent / name).unlink(missing_ok=True)
    codex.store.write_bytes(b"this is not a database\x00" * 64)
    call = shell("oldtool -x")
    session = codex.run([[call]], "-s", "workspace-write")

    assert session.proc.returncode == 0, session.log
    assert "oldtool ran: -x" in session.output(call)
    assert "hook: PreToolUse Completed" in session.log and "Failed" not in session.log
    assert codex.store.read_bytes().startswith(b"this is not a database")


def test_session_start_context_carries_the_tool_name_corrections(codex):
    codex.init()
    codex.dp("alias", "read_file", "Read", "-m", "Use the Read tool, not read_file.")
    codex.dp("alias", "--cmd", "grep", "--replace", "rg")
    session = codex.run([[shell("echo hi")]])

    opening = session.opening
    assert "dp (desire paths) corrections on this machine" in opening
    assert "read_file" in opening and "Use the Read tool, not read_file." in opening
    assert "Use `rg` instead of `grep`" in opening
